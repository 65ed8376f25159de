"""The PostgreSQL catalog: the shared SQL schema on a server, for many users and libraries.

Same tables and queries as SQLite (``catalog/sql.py``); what differs:
- writers are serialised by ``LOCK TABLE meta IN EXCLUSIVE MODE`` inside the
  transaction (readers take ACCESS SHARE locks, which it does not block), so
  ids allocated as ``max(id) + 1`` cannot collide;
- search uses a ``tsvector`` (``simple`` configuration: no stemming, so a
  word in a message matches as written) with a GIN index, prefix queries and
  ``ts_rank``;
- the schema has its own migration list, applied under an advisory lock.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from errdex.catalog.db import CatalogError, Db
from errdex.catalog.sql import NEWEST, SqlCatalog

PG_V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE snapshots (
    id BIGINT PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    repo TEXT NOT NULL,
    sort_date TEXT NOT NULL,
    seq BIGINT NOT NULL,
    json TEXT NOT NULL,
    stats_json TEXT NOT NULL
);
CREATE INDEX snapshots_repo ON snapshots (repo);
CREATE TABLE sites (
    id BIGINT PRIMARY KEY,
    snapshot_id BIGINT NOT NULL,
    error_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    exception TEXT NOT NULL,
    path TEXT NOT NULL,
    line INTEGER NOT NULL,
    template TEXT NOT NULL,
    json TEXT NOT NULL
);
CREATE INDEX sites_error ON sites (error_id);
CREATE INDEX sites_snapshot ON sites (snapshot_id);
CREATE TABLE sites_search (id BIGINT PRIMARY KEY, search TSVECTOR NOT NULL);
CREATE INDEX sites_search_gin ON sites_search USING GIN (search);
CREATE TABLE failures (id BIGSERIAL PRIMARY KEY, snapshot_id BIGINT NOT NULL, path TEXT NOT NULL, reason TEXT NOT NULL);
CREATE INDEX failures_snapshot ON failures (snapshot_id);
CREATE TABLE classes (id BIGSERIAL PRIMARY KEY, snapshot_id BIGINT NOT NULL, qualname TEXT NOT NULL, json TEXT NOT NULL);
CREATE INDEX classes_snapshot ON classes (snapshot_id);
CREATE TABLE config_options (id BIGSERIAL PRIMARY KEY, snapshot_id BIGINT NOT NULL, name TEXT NOT NULL, json TEXT NOT NULL);
CREATE INDEX config_snapshot ON config_options (snapshot_id);
CREATE TABLE test_expectations (id BIGSERIAL PRIMARY KEY, snapshot_id BIGINT NOT NULL, exception TEXT NOT NULL,
                                json TEXT NOT NULL);
CREATE INDEX tests_snapshot ON test_expectations (snapshot_id);
CREATE TABLE symbols (id BIGSERIAL PRIMARY KEY, snapshot_id BIGINT NOT NULL, module TEXT NOT NULL, names TEXT NOT NULL);
CREATE INDEX symbols_snapshot ON symbols (snapshot_id);
CREATE TABLE analyses (error_id TEXT NOT NULL, snapshot TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (error_id, snapshot));
INSERT INTO meta (key, value) VALUES ('generation', '0');
INSERT INTO meta (key, value) VALUES ('catalog_id', substr(md5(random()::text || clock_timestamp()::text), 1, 16));
"""

PG_V2 = """
CREATE TABLE observations (
    id BIGSERIAL PRIMARY KEY,
    snapshot TEXT NOT NULL,
    error_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    path TEXT NOT NULL,
    line INTEGER NOT NULL,
    count BIGINT NOT NULL,
    json TEXT NOT NULL
);
CREATE INDEX observations_snapshot ON observations (snapshot);
CREATE INDEX observations_error ON observations (error_id);
CREATE TABLE observe_runs (snapshot TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE calls (id BIGSERIAL PRIMARY KEY, snapshot_id BIGINT NOT NULL, caller TEXT NOT NULL, json TEXT NOT NULL);
CREATE INDEX calls_snapshot ON calls (snapshot_id);
"""


PG_V3_LINES = """
CREATE TABLE file_lines (id BIGSERIAL PRIMARY KEY, snapshot_id BIGINT NOT NULL, path TEXT NOT NULL,
                         digests BYTEA NOT NULL);
CREATE INDEX file_lines_snapshot ON file_lines (snapshot_id, path);
"""

PG_MIGRATIONS: tuple[str, ...] = (PG_V1, PG_V2, PG_V3_LINES)
PG_LATEST = len(PG_MIGRATIONS)
_MIGRATION_LOCK = 0x6572726478  # "errdx": the advisory lock id of schema changes


def _pg(sql: str) -> str:
    """Our ``?`` placeholders as psycopg's ``%s`` (no ``?`` or ``%`` appears in our SQL text)."""
    return sql.replace("?", "%s")


def _words_only(text: str) -> str:
    """Text as space-separated words, so that PostgreSQL's parser does not keep
    ``tinylib/core.py`` or ``jax._src.errors`` as single file/host tokens."""
    return re.sub(r"[^\w]+", " ", text)


class _PgDb:
    """``Db`` over a psycopg connection."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self.conn.execute(_pg(sql), params).fetchall())

    def fetchone(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        row = self.conn.execute(_pg(sql), params).fetchone()
        return tuple(row) if row is not None else None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self.conn.execute(_pg(sql), params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            with self.conn.cursor() as cur:
                cur.executemany(_pg(sql), rows)


def _redact(url: str) -> str:
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)


class PostgresCatalog(SqlCatalog):
    """``Catalog`` on a PostgreSQL server (``postgresql://user@host/db``)."""

    backend = "postgresql"
    fact_order = "id"

    def __init__(self, url: str) -> None:
        self.url = url
        self._local = threading.local()
        self._all: list[Any] = []
        self._lock = threading.Lock()
        try:
            import psycopg
        except ImportError as exc:  # pragma: no cover - psycopg is a dependency
            raise CatalogError(f"{_redact(url)}: the PostgreSQL backend needs psycopg ({exc})") from exc
        self._errors: tuple[type[BaseException], ...] = (psycopg.Error,)
        try:
            self._migrate(self._conn())
        except psycopg.Error as exc:
            self.close()
            raise CatalogError(f"{_redact(url)}: cannot open catalog ({exc})") from exc

    def _conn(self) -> Any:
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            import psycopg

            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=30)
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    def _migrate(self, conn: Any) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied TEXT NOT NULL)")
            row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
            version = int(row[0] or 0)
            if version > PG_LATEST:
                raise CatalogError(
                    f"{_redact(self.url)}: catalog schema version {version} is newer than this errdex "
                    f"understands ({PG_LATEST}); upgrade errdex"
                )
            while version < PG_LATEST:
                for statement in (s.strip() for s in PG_MIGRATIONS[version].split(";")):
                    if statement:
                        conn.execute(statement)
                version += 1
                conn.execute("INSERT INTO schema_version (version, applied) VALUES (%s, now()::text)", (version,))

    def _db(self) -> Db:
        return _PgDb(self._conn())

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Db]:
        conn = self._conn()
        with conn.transaction():
            conn.execute("LOCK TABLE meta IN EXCLUSIVE MODE")
            yield _PgDb(conn)

    def close(self) -> None:
        with self._lock:
            for conn in self._all:
                with contextlib.suppress(Exception):
                    conn.close()
            self._all.clear()
        self._local = threading.local()

    def __enter__(self) -> PostgresCatalog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ search

    def _index_search(self, db: Db, rows: Sequence[tuple[int, str]]) -> None:
        db.executemany(
            "INSERT INTO sites_search (id, search) VALUES (?, to_tsvector('simple', ?))",
            [(rid, _words_only(text)) for rid, text in rows],
        )

    def _unindex_search(self, db: Db, snapshot_id: int) -> None:
        db.execute("DELETE FROM sites_search WHERE id IN (SELECT id FROM sites WHERE snapshot_id = ?)", (snapshot_id,))

    def _search_rows(self, words: list[str], repo: str | None) -> list[tuple[Any, ...]]:
        terms = [t for w in words for t in _words_only(w).split() if t]
        if not terms:
            return []
        query = " & ".join(f"{t.lower()}:*" for t in terms)
        sql = (
            "SELECT x.error_id, s.json, x.json FROM sites_search f JOIN sites x ON x.id = f.id"
            " JOIN snapshots s ON s.id = x.snapshot_id, to_tsquery('simple', ?) q WHERE f.search @@ q"
            f" AND (CAST(? AS TEXT) IS NULL OR s.repo = ?) ORDER BY ts_rank(f.search, q) DESC, {NEWEST}, x.id"
        )
        return self._db().fetchall(sql, (query, repo, repo))

    def as_json(self) -> dict[str, Any]:
        return {**super().as_json(), "url": _redact(self.url)}
