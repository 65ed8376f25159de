"""What only the SQLite backend has: URLs and paths, WAL mode, per-file catalog ids."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from catalog_data import EMPTY_SIZE, result, snapshot

from errdex.catalog import CatalogError, SqliteCatalog, open_catalog

OLD = snapshot("a", "2024-01-01T10:00:00+00:00")


def test_open_catalog_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a = open_catalog(str(tmp_path / "a.sqlite"))
    b = open_catalog(f"sqlite:///{tmp_path / 'b.sqlite'}")
    monkeypatch.setenv("ERRDEX_DB", str(tmp_path / "env.sqlite"))
    c = open_catalog()
    for cat in (a, b, c):
        assert isinstance(cat, SqliteCatalog)
        cat.close()
    assert {p.name for p in tmp_path.glob("*.sqlite")} == {"a.sqlite", "b.sqlite", "env.sqlite"}
    with pytest.raises(CatalogError, match="unknown catalog URL scheme"):
        open_catalog("mysql://localhost/x")
    with pytest.raises(CatalogError, match="expected sqlite:///PATH"):
        open_catalog("sqlite://relative.db")
    (tmp_path / "notadb.sqlite").write_bytes(b"this is not a database" * 100)
    with pytest.raises(CatalogError, match=r"notadb.sqlite: cannot open catalog"):
        open_catalog(str(tmp_path / "notadb.sqlite"))


def test_unreachable_postgres_is_clear_error_without_password() -> None:
    with pytest.raises(CatalogError, match=r"postgresql://u:\*\*\*@127.0.0.1:1/errdex\?connect_timeout=2: cannot open catalog") as info:
        open_catalog("postgresql://u:secret@127.0.0.1:1/errdex?connect_timeout=2")
    assert "secret" not in str(info.value)


def test_wal_mode(db_path: Path) -> None:
    with SqliteCatalog(db_path) as catalog:
        catalog.replace_snapshot(OLD, result(EMPTY_SIZE))
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_two_files_have_different_generations(db_path: Path) -> None:
    with SqliteCatalog(db_path) as a, SqliteCatalog(db_path.with_name("second.sqlite")) as b:
        assert a.generation() != b.generation()


def test_search_without_fts5_falls_back_to_like(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A SQLite built without FTS5 still searches (LIKE over the same text)."""
    from catalog_data import BAD_UNIT, TURBO

    import errdex.catalog.schema as schema

    monkeypatch.setattr(schema, "fts_available", lambda conn: False)
    with SqliteCatalog(db_path) as cat:
        cat.replace_snapshot(OLD, result(EMPTY_SIZE, BAD_UNIT, TURBO))
        assert [s.line for _, s in cat.search("unknown size unit")] == [19]
        assert {s.line for _, s in cat.search("core.py")} == {14, 19, 25}
        assert cat.search("100%_off") == []
        cat.replace_snapshot(OLD, result(EMPTY_SIZE))
        assert cat.search("unknown size unit") == []
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("SELECT value FROM meta WHERE key = 'search'").fetchone()[0] == "like"
