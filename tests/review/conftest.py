"""The ``mylib`` catalog: one small library at 1.0 and 2.0, indexed the way a user does it.

Between the two versions (``tests/fixtures/review_lib``) one error is added
(``new_api``), one removed (``old_api``), one message changed (``resize``),
one exception type changed (``convert``: TypeError -> ValueError) and
``load`` moved from ``mylib/core.py`` to ``mylib/io.py``; ``parse`` and
``check`` carry the lint rules' cases.  The fixture is copied out of the git
work tree first, so that each version is a plain directory pinned by its ref.
"""

from __future__ import annotations

import shutil

import pytest
from reviewkit import FIXTURE, REPO, Lib, errdex, make_env


@pytest.fixture(scope="session")
def mylib(tmp_path_factory: pytest.TempPathFactory) -> Lib:
    base = tmp_path_factory.mktemp("mylib")
    shutil.copytree(FIXTURE, base / "src")
    env = make_env(base / "home")
    db = str(base / "catalog.sqlite")
    for version in ("v1", "v2"):
        proc = errdex("index", str(base / "src" / version), "--repo", REPO, "--ref", f"{version}.0", "--db", db,
                      "--json", env=env)
        assert proc.returncode == 0, proc.stderr
    return Lib(db=db, env=env, root=base / "src")
