"""The ``mylib`` catalog: one small library at 1.0 and 2.0, indexed the way a user does it.

Between the two versions (``tests/fixtures/review_lib``) one error is added
(``new_api``), one removed (``old_api``), one message changed (``resize``),
one exception type changed (``convert``: TypeError -> ValueError) and
``load`` moved from ``mylib/core.py`` to ``mylib/io.py``; ``parse`` and
``check`` carry the lint rules' cases.  The fixture is copied out of the git
work tree first, so that each version is a plain directory pinned by its ref.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "review_lib"
REPO = "acme/mylib"


@dataclass(frozen=True)
class Lib:
    db: str
    env: dict[str, str]
    root: Path  # holds v1/ and v2/


def errdex(*args: str, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``errdex ARGS`` in a subprocess, as a user runs it (the exit code is the caller's to check)."""
    return subprocess.run([sys.executable, "-m", "errdex", *args], env=env, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def make_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(ERRDEX_HOME=str(home), ERRDEX_STRICT="1", PYTHONPATH=str(ROOT / "src"))
    env.pop("ERRDEX_DB", None)
    return env


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
