"""The page-rule tests' fixture loader: a fixture package indexed into a fresh catalog with its context."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.context import SnapshotContext, load_context
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.sources import open_source

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

PageCtx = tuple[SqliteCatalog, SnapshotContext]


def load_fixture(tmp: Path, name: str, repo: str) -> PageCtx:
    """Index ``tests/fixtures/<name>`` as ``repo`` at v1 and load its analysis context."""
    cat = SqliteCatalog(tmp / "c.sqlite")
    with open_source(str(FIXTURES / name), repo=repo, ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    return cat, load_context(cat, cat.snapshots()[0])
