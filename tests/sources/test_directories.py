"""Directory and git-checkout sources: files, layout and the snapshot they pin."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from src_builders import FLATPKG, TINYLIB

from errdex.sources import SourceError, open_source
from errdex.sources.git import repo_from_url


def _git(cwd: Path, *args: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.org",
        "GIT_AUTHOR_DATE": "2024-05-06T07:08:09+02:00", "GIT_COMMITTER_DATE": "2024-05-06T07:08:09+02:00",
        "HOME": str(cwd), "PATH": "/usr/bin:/bin",
    }
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    repo = tmp_path / "tinylib"
    shutil.copytree(TINYLIB, repo)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "initial")
    _git(repo, "remote", "add", "origin", "git@github.com:example-org/tinylib.git")
    return repo


@pytest.fixture
def flat(tmp_path: Path) -> Path:
    """A copy outside errdex's own git checkout (which would make it a git source)."""
    return Path(shutil.copytree(FLATPKG, tmp_path / "flatpkg-0.1"))


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    return Path(shutil.copytree(TINYLIB, tmp_path / "tinylib"))


def test_plain_directory_flat_layout(flat: Path) -> None:
    with open_source(str(flat)) as tree:
        snap = tree.snapshot
        assert snap.source_kind == "dir"
        assert snap.repo == "local/flatpkg-0.1"
        assert snap.commit is None and snap.url_base == "" and snap.path_prefix == ""
        assert [f.path for f in tree.files] == [
            "flatpkg/__init__.py", "flatpkg/sub/shapes.py", "flatpkg/sub/shapes_test.py", "setup.py",
        ]


def test_src_layout_strips_src_and_keeps_tests(tiny: Path) -> None:
    with open_source(str(tiny), repo="example-org/tinylib", ref="v1.2.3") as tree:
        paths = {f.path: f.is_test for f in tree.files}
        assert paths == {
            "tinylib/__init__.py": False, "tinylib/core.py": False, "tinylib/errors.py": False,
            "tests/conftest.py": True, "tests/test_core.py": True,
        }
        snap = tree.snapshot
        assert snap.path_prefix == "src/"
        assert snap.source_url("tinylib/core.py", 17) == (
            "https://github.com/example-org/tinylib/blob/v1.2.3/src/tinylib/core.py#L17"
        )


def test_git_checkout_pins_commit_date_and_repo(checkout: Path) -> None:
    head = _git(checkout, "rev-parse", "HEAD")
    with open_source(str(checkout)) as tree:
        snap = tree.snapshot
        assert snap.source_kind == "git"
        assert snap.repo == "example-org/tinylib"
        assert snap.commit == head and re.fullmatch(r"[0-9a-f]{40}", head)
        assert snap.date == "2024-05-06T07:08:09+02:00"
        assert snap.url_base == f"https://github.com/example-org/tinylib/blob/{head}"
        assert snap.key == f"example-org/tinylib@{head}"
        assert snap.source_url("tinylib/errors.py", 3) == (
            f"https://github.com/example-org/tinylib/blob/{head}/src/tinylib/errors.py#L3"
        )


def test_git_tag_at_head_becomes_ref_and_overrides_win(checkout: Path) -> None:
    _git(checkout, "tag", "v1.2.3")
    with open_source(str(checkout)) as tree:
        assert tree.snapshot.ref == "v1.2.3"
    with open_source(str(checkout), repo="other/fork", commit="f" * 40, ref="main") as tree:
        snap = tree.snapshot
        assert (snap.repo, snap.commit, snap.ref) == ("other/fork", "f" * 40, "main")
        assert snap.url_base == "https://github.com/other/fork/blob/" + "f" * 40


def test_subdirectory_of_checkout_gets_prefix(checkout: Path) -> None:
    with open_source(str(checkout / "src")) as tree:
        assert tree.snapshot.path_prefix == "src/"
        assert "tinylib/core.py" in {f.path for f in tree.files}


def test_checkout_without_github_remote_is_local(checkout: Path) -> None:
    _git(checkout, "remote", "set-url", "origin", "/srv/mirrors/tinylib.git")
    with open_source(str(checkout)) as tree:
        assert tree.snapshot.repo == "local/tinylib"
        assert tree.snapshot.url_base == ""


@pytest.mark.parametrize(
    ("url", "repo"),
    [
        ("https://github.com/jax-ml/jax", "jax-ml/jax"),
        ("https://github.com/jax-ml/jax.git", "jax-ml/jax"),
        ("git@github.com:jax-ml/jax.git", "jax-ml/jax"),
        ("ssh://git@github.com/jax-ml/jax.git", "jax-ml/jax"),
        ("https://github.com/python-attrs/attrs/issues", "python-attrs/attrs"),
        ("https://gitlab.com/o/n", None),
        ("https://github.com/onlyowner", None),
        ("/srv/mirrors/x.git", None),
    ],
)
def test_repo_from_url(url: str, repo: str | None) -> None:
    assert repo_from_url(url) == repo


def test_missing_and_empty_directories_are_clear_errors(tmp_path: Path, flat: Path) -> None:
    with pytest.raises(SourceError, match="no such file or directory"), open_source(str(tmp_path / "nope")):
        pass
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "README").write_text("no code here")
    with pytest.raises(SourceError, match=r"no Python \(.py\) files"), open_source(str(tmp_path / "empty")):
        pass
    with pytest.raises(SourceError, match="expected OWNER/NAME"), open_source(str(flat), repo="justaname"):
        pass
