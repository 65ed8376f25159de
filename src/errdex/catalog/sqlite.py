"""The SQLite catalog: one file, WAL mode, a snapshot written in one transaction.

Why these choices:
- WAL lets the web server read while ``errdex index`` writes, and readers
  see either the old snapshot or the new one, never a mix.
- ``replace_snapshot`` deletes and re-inserts inside one ``BEGIN IMMEDIATE``
  transaction: a process killed half-way leaves only uncommitted WAL frames,
  which SQLite discards, so the catalog is as it was.
- One connection per thread (SQLite connections must not be shared across
  threads mid-statement); the web server's worker threads each get theirs.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from errdex.catalog.db import CatalogError, Db
from errdex.catalog.schema import migrate
from errdex.catalog.sql import NEWEST, SqlCatalog

__all__ = ["CatalogError", "SqliteCatalog"]


class _SqliteDb:
    """``Db`` over a sqlite3 connection in autocommit mode."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql, params).fetchall()

    def fetchone(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        row: tuple[Any, ...] | None = self.conn.execute(sql, params).fetchone()
        return row

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self.conn.execute(sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.conn.executemany(sql, rows)


class SqliteCatalog(SqlCatalog):
    """``Catalog`` over one SQLite file."""

    backend = "sqlite"
    fact_order = "rowid"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = self._conn()
            migrate(conn)
            row = conn.execute("SELECT value FROM meta WHERE key='search'").fetchone()
        except (sqlite3.Error, OSError, RuntimeError) as exc:
            self.close()
            raise CatalogError(f"{self.path}: cannot open catalog ({exc})") from exc
        self._fts = bool(row and row[0] == "fts5")

    # ------------------------------------------------------------------ connections

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=60, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA busy_timeout=60000")
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    def _db(self) -> Db:
        return _SqliteDb(self._conn())

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Db]:
        """``BEGIN IMMEDIATE``: takes the write lock up front, so writers queue instead of failing."""
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield _SqliteDb(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        with self._lock:
            for conn in self._all:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
            self._all.clear()
        self._local = threading.local()

    def __enter__(self) -> SqliteCatalog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ search

    def _index_search(self, db: Db, rows: Sequence[tuple[int, str]]) -> None:
        db.executemany("INSERT INTO sites_fts (rowid, text) VALUES (?, ?)", rows)

    def _unindex_search(self, db: Db, snapshot_id: int) -> None:
        db.execute("DELETE FROM sites_fts WHERE rowid IN (SELECT id FROM sites WHERE snapshot_id = ?)", (snapshot_id,))

    def _search_rows(self, words: list[str], repo: str | None) -> list[tuple[Any, ...]]:
        if self._fts:
            match = " AND ".join('"' + w.replace('"', '""') + '"*' for w in words)
            sql = (
                "SELECT x.error_id, s.json, x.json FROM sites_fts f JOIN sites x ON x.id = f.rowid"
                " JOIN snapshots s ON s.id = x.snapshot_id WHERE sites_fts MATCH ?"
                f" AND (CAST(? AS TEXT) IS NULL OR s.repo = ?) ORDER BY bm25(sites_fts), {NEWEST}, x.id"
            )
            return self._db().fetchall(sql, (match, repo, repo))
        cond = " AND ".join("f.text LIKE ? ESCAPE '\\'" for _ in words)
        like = ["%" + w.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%" for w in words]
        sql = (
            "SELECT x.error_id, s.json, x.json FROM sites_fts f JOIN sites x ON x.id = f.rowid"
            f" JOIN snapshots s ON s.id = x.snapshot_id WHERE {cond}"
            f" AND (CAST(? AS TEXT) IS NULL OR s.repo = ?) ORDER BY {NEWEST}, x.id"
        )
        return self._db().fetchall(sql, (*like, repo, repo))

    # ------------------------------------------------------------------ SQLite only

    def integrity_check(self) -> str:
        """SQLite's own verdict on the file ("ok" when sound)."""
        row = self._db().fetchone("PRAGMA integrity_check")
        return str(row[0]) if row else ""

    def as_json(self) -> dict[str, Any]:
        return {**super().as_json(), "path": str(self.path)}
