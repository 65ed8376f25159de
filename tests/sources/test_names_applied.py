"""The name rule applied where names enter the catalog: refused with the source and field, or
normalised by the one rule of ``names.normalise_part``; never stored as they came."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest

from errdex.extract import extract_tree
from errdex.sources import SourceError, open_source
from errdex.sources.names import normalise_part, repo_problem

INIT = "def f(x):\n    raise ValueError('bad x')\n"


def _wheel(tmp_path: Path, metadata: str, members: dict[str, str] | None = None) -> Path:
    wheel = tmp_path / "evil-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for name, text in (members or {"evil/__init__.py": INIT}).items():
            zf.writestr(name, text)
        zf.writestr("evil-1.0.dist-info/METADATA", "Metadata-Version: 2.1\n" + metadata)
    return wheel


@pytest.mark.parametrize(("text", "expected"), [
    ("jax", "jax"), ("../../../escape", "escape"), (".hidden dir", "hidden-dir"), ("a b/c", "a-b-c"),
    ("name.git", "name"), ("...", "unnamed"), ("", "unnamed"), ("x" * 300, "x" * 100), ("ünï", "n"),
])
def test_normalise_part(text: str, expected: str) -> None:
    assert normalise_part(text) == expected
    assert repo_problem(f"local/{normalise_part(text)}") is None


def test_metadata_name_that_is_not_a_name_is_normalised(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, "Name: ../../../escape\nVersion: 1.0\n")
    with open_source(str(wheel)) as tree:
        assert tree.snapshot.repo == "local/escape"


@pytest.mark.parametrize(("field", "line"), [
    ("Project-URL 'Source'", "Project-URL: Source, https://github.com/../..\n"),
    ("Home-page", "Home-page: https://github.com/.hidden/x\n"),
])
def test_metadata_repo_that_breaks_the_rule_is_refused(tmp_path: Path, field: str, line: str) -> None:
    wheel = _wheel(tmp_path, "Name: evil\nVersion: 1.0\n" + line)
    with pytest.raises(SourceError) as info, open_source(str(wheel)):
        pass
    message = str(info.value)
    assert str(wheel) in message and f"METADATA {field}" in message and "--repo" in message
    # The user's --repo names it instead: accepted.
    with open_source(str(wheel), repo="evil-org/evil") as tree:
        assert tree.snapshot.repo == "evil-org/evil"


@pytest.mark.parametrize("repo", ["../../escape", "a/..", "a/b/c", "a/.x", "a/b c"])
def test_repo_option_that_breaks_the_rule_is_refused(tmp_path: Path, repo: str) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(INIT)
    with pytest.raises(SourceError, match=r"--repo: repository name"), open_source(str(tmp_path), repo=repo):
        pass


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "T",
                        "GIT_COMMITTER_EMAIL": "t@example.org", "HOME": str(cwd), "PATH": "/usr/bin:/bin"})


def test_git_remote_that_breaks_the_rule_is_refused(tmp_path: Path) -> None:
    repo = tmp_path / "checkout"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "__init__.py").write_text(INIT)
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "x")
    _git(repo, "remote", "add", "origin", "https://github.com/../..")
    with pytest.raises(SourceError, match=r"git remote 'origin' \(https://github.com/\.\./\.\.\).*'\.\./\.\.'.*--repo"), \
            open_source(str(repo)):
        pass


def test_directory_name_is_normalised(tmp_path: Path) -> None:
    d = tmp_path / ".my project"
    (d / "pkg").mkdir(parents=True)
    (d / "pkg" / "__init__.py").write_text(INIT)
    with open_source(str(d)) as tree:
        assert tree.snapshot.repo == "local/my-project"


def test_files_whose_path_breaks_the_rule_are_skipped_on_the_ledger(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, "Name: evil\nVersion: 1.0\n", {
        "evil/__init__.py": INIT, "evil/bad name.py": INIT, "evil/.hidden.py": INIT, "evil/t\x01b.py": INIT,
    })
    with open_source(str(wheel)) as tree:
        assert [f.path for f in tree.files] == ["evil/__init__.py"]
        skipped = {f.path: f.reason for f in tree.skipped}
        assert set(skipped) == {"evil/bad name.py", "evil/.hidden.py", "evil/t\\x01b.py"}
        assert all("module path rule" in r for r in skipped.values())
        result = extract_tree(tree, jobs=1)
    assert {f.path for f in result.failures} >= set(skipped)
    assert {s.path for s in result.sites} == {"evil/__init__.py"}
