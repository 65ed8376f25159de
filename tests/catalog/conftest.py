"""Each catalog test gets a fresh catalog file in its own temp dir."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.catalog import SqliteCatalog


@pytest.fixture(autouse=True)
def _errdex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("ERRDEX_DB", raising=False)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "catalog.sqlite"


@pytest.fixture
def catalog(db_path: Path) -> Iterator[SqliteCatalog]:
    cat = SqliteCatalog(db_path)
    yield cat
    cat.close()
