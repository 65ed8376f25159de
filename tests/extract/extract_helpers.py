"""Helpers for the extract tests: build a SourceTree from a fixture folder and extract it."""

from __future__ import annotations

from pathlib import Path

from errdex.extract import extract_tree
from errdex.model import ErrorSite, ExtractResult, Snapshot
from errdex.sources.base import SourceTree
from errdex.sources.files import walk_python_files

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def tree_of(root: Path, repo: str = "acme/shapes") -> SourceTree:
    return SourceTree(Snapshot(repo=repo), root, walk_python_files(root))


def extract_dir(root: Path, jobs: int = 1, repo: str = "acme/shapes") -> ExtractResult:
    return extract_tree(tree_of(root, repo), jobs=jobs)


def site_in(result: ExtractResult, path: str, qualname: str, index: int = 0) -> ErrorSite:
    """The ``index``-th site (in line order) of ``qualname`` in ``path``; fails loudly when absent."""
    found = sorted((s for s in result.sites if s.path == path and s.qualname == qualname), key=lambda s: s.line)
    assert len(found) > index, f"no site #{index} for {qualname} in {path}: {[(s.path, s.qualname) for s in result.sites]}"
    return found[index]
