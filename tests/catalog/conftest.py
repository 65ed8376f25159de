"""Catalog fixtures: every contract test runs on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pg_server
import pytest

from errdex.catalog import Catalog, open_catalog


@pytest.fixture(autouse=True)
def _errdex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("ERRDEX_DB", raising=False)


@pytest.fixture(scope="session")
def pg_base() -> Iterator[str]:
    """One PostgreSQL server per test process (skipped, with the reason, when none can run here)."""
    reason = pg_server.available()
    if reason:
        if os.environ.get("CI"):  # .ci/run installs PostgreSQL: a skip there would hide a broken set-up
            pytest.fail(f"PostgreSQL is needed in CI: {reason}")
        pytest.skip(reason)
    with pg_server.server() as base:
        yield base


@pytest.fixture(params=["sqlite", "postgres"])
def catalog_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty catalog of each backend."""
    if request.param == "sqlite":
        return str(tmp_path / "catalog.sqlite")
    return pg_server.fresh_database(request.getfixturevalue("pg_base"))


@pytest.fixture
def catalog(catalog_url: str) -> Iterator[Catalog]:
    cat = open_catalog(catalog_url)
    yield cat
    cat.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "catalog.sqlite"
