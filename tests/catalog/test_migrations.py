"""Schema migrations: a catalog written at v1 opens, upgrades in place and keeps its data."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from catalog_data import BAD_UNIT, EMPTY_SIZE, snapshot

from errdex.catalog import CatalogError, SqliteCatalog
from errdex.catalog.base import SnapshotStats
from errdex.catalog.rows import dumps
from errdex.catalog.schema import LATEST, MIGRATIONS, current_version, migrate
from errdex.model import Analysis


def _v1_catalog(path: Path) -> None:
    """A catalog as errdex's first schema wrote it: no analyses, no search index."""
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, target=1) == 1
    snap = snapshot("a", "2024-01-01T00:00:00+00:00")
    stats = SnapshotStats(snapshot=snap, files_read=3, files_failed=(), sites=2)
    conn.execute(
        "INSERT INTO snapshots (id, key, repo, sort_date, seq, json, stats_json) VALUES (1, ?, ?, ?, 1, ?, ?)",
        (snap.key, snap.repo, "2024-01-01T00:00:00Z", dumps(snap), dumps(stats)),
    )
    for s in (EMPTY_SIZE, BAD_UNIT):
        conn.execute(
            "INSERT INTO sites (snapshot_id, error_id, kind, exception, path, line, template, json)"
            " VALUES (1, ?, ?, ?, ?, ?, ?, ?)",
            (s.error_id, s.kind, s.exception, s.path, s.line, s.template.render(), dumps(s)),
        )
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "analyses" not in tables and "sites_fts" not in tables
    conn.close()


def test_migrates_from_v1_keeping_data(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    _v1_catalog(path)
    with SqliteCatalog(path) as cat:
        snap = snapshot("a", "2024-01-01T00:00:00+00:00")
        assert [s.key for s in cat.snapshots()] == [snap.key]
        assert sorted(s.line for s in cat.sites(snap.key)) == [14, 19]
        # v3 built the search index for the rows that were already there.
        assert [s.line for _, s in cat.search("unknown size unit")] == [19]
        # v2 added analyses.
        cat.put_analyses([Analysis(error_id=EMPTY_SIZE.error_id, snapshot=snap.key, meaning="m")])
        assert cat.get_analysis(EMPTY_SIZE.error_id) is not None
    conn = sqlite3.connect(path)
    assert current_version(conn) == LATEST == len(MIGRATIONS)
    versions = [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY version")]
    assert versions == list(range(1, LATEST + 1))
    conn.close()


def test_reopening_does_not_migrate_again(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    SqliteCatalog(path).close()
    SqliteCatalog(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM schema_version").fetchone()[0] == LATEST
    conn.close()


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite"
    SqliteCatalog(path).close()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO schema_version (version, applied) VALUES (?, 'x')", (LATEST + 5,))
    conn.commit()
    conn.close()
    with pytest.raises(CatalogError, match=f"schema version {LATEST + 5} is newer"):
        SqliteCatalog(path)


def test_failed_step_rolls_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "half.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=1)
    import errdex.catalog.schema as schema

    monkeypatch.setattr(schema, "MIGRATIONS", (*MIGRATIONS[:1], ("CREATE TABLE analyses (x); SELECT no_such_fn()",)))
    with pytest.raises(sqlite3.OperationalError):
        schema.migrate(conn, target=2)
    assert current_version(conn) == 1
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "analyses" not in tables
    conn.close()
