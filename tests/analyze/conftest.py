"""Shared fixtures: the JAX-shaped fixture package indexed into a temporary SQLite catalog."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.analyze.context import SnapshotContext, load_context
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.model import ErrorSite, Snapshot
from errdex.sources import open_source

from .pagekit import FIXTURES, PageCtx, load_fixture

JAXLIKE = FIXTURES / "an_jaxlike"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_HOME", str(tmp_path / "home"))


@pytest.fixture(scope="session")
def jaxlike_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("an") / "jaxlike.sqlite"
    cat = SqliteCatalog(db)
    with open_source(str(JAXLIKE), repo="example/jaxlike", ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    cat.close()
    return db


@pytest.fixture()
def jaxlike(jaxlike_db: Path) -> Iterator[tuple[SqliteCatalog, Snapshot, SnapshotContext]]:
    cat = SqliteCatalog(jaxlike_db)
    snap = cat.snapshots()[0]
    yield cat, snap, load_context(cat, snap)
    cat.close()


def site_with(ctx: SnapshotContext, text: str) -> ErrorSite:
    found = [s for s in ctx.sites if text in s.template.render()]
    assert len(found) == 1, [s.template.render() for s in ctx.sites]
    return found[0]


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PageCtx]:
    cat, ctx = load_fixture(tmp_path_factory.mktemp("cli"), "an_clilike", "example/clilike")
    yield cat, ctx
    cat.close()


@pytest.fixture(scope="module")
def jaxpages(jaxlike_db: Path) -> Iterator[PageCtx]:
    # the session's catalog of an_jaxlike (every test copies it before writing): not indexed again per module
    cat = SqliteCatalog(jaxlike_db)
    yield cat, load_context(cat, cat.snapshots()[0])
    cat.close()
