"""``--repo-path-prefix``: where a wheel's package sits in its repository, so that source links of a
``src/`` layout do not 404; without it, links from a wheel are labelled approximate."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from src_builders import build_wheel

from errdex.sources import SourceError, open_source

MESSAGE = "ValueError: empty size string; expected something like '10k'"


def test_a_prefix_restores_the_repository_path(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    with open_source(str(wheel)) as tree:
        assert tree.snapshot.path_prefix == ""
    for given in ("src", "src/", "/src/"):
        with open_source(str(wheel), path_prefix=given) as tree:
            assert tree.snapshot.path_prefix == "src/"
            assert tree.snapshot.source_url("tinylib/core.py", 14) == \
                "https://github.com/example-org/tinylib/blob/v1.2.3/src/tinylib/core.py#L14"


@pytest.mark.parametrize("bad", ["../etc", "src/../..", "a b", "src/./x"])
def test_a_prefix_that_leaves_the_repository_is_refused(tmp_path: Path, bad: str) -> None:
    with pytest.raises(SourceError, match="--repo-path-prefix"), open_source(str(build_wheel(tmp_path)), path_prefix=bad):
        pass


def errdex(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, ERRDEX_HOME=str(home))
    env.pop("ERRDEX_DB", None)
    return subprocess.run([sys.executable, "-m", "errdex", *args], capture_output=True, text=True, env=env,
                          check=False, timeout=120)


def test_explain_labels_links_it_had_to_assume(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    for name, extra in (("assumed", []), ("given", ["--repo-path-prefix", "src/"])):
        db = str(tmp_path / f"{name}.sqlite")
        done = errdex("index", str(wheel), "--db", db, *extra, home=tmp_path)
        assert done.returncode == 0, done.stderr
        out = errdex("explain", MESSAGE, "--db", db, "--json", home=tmp_path)
        top = json.loads(out.stdout)["matches"][0]
        text = errdex("explain", MESSAGE, "--db", db, home=tmp_path).stdout
        if name == "assumed":
            assert top["url"] == "https://github.com/example-org/tinylib/blob/v1.2.3/tinylib/core.py#L14"
            assert top["url_approximate"] is True and "(approximate: the wheel does not say" in text
        else:
            assert top["url"] == "https://github.com/example-org/tinylib/blob/v1.2.3/src/tinylib/core.py#L14"
            assert top["url_approximate"] is False and "approximate" not in text
