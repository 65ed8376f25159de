"""The SQLite schema as an ordered list of migrations.

The catalog file records the version it is at; opening it applies the steps
after that version, each in its own transaction, so a catalog written by an
older errdex is upgraded in place and an interrupted upgrade can be resumed.
Never edit a released step: append a new one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence

Step = str | Callable[[sqlite3.Connection], None]

V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE snapshots (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    repo TEXT NOT NULL,
    sort_date TEXT NOT NULL,
    seq INTEGER NOT NULL,
    json TEXT NOT NULL,
    stats_json TEXT NOT NULL
);
CREATE INDEX snapshots_repo ON snapshots (repo);
CREATE TABLE sites (
    id INTEGER PRIMARY KEY,
    snapshot_id INTEGER NOT NULL,
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
CREATE TABLE failures (snapshot_id INTEGER NOT NULL, path TEXT NOT NULL, reason TEXT NOT NULL);
CREATE INDEX failures_snapshot ON failures (snapshot_id);
CREATE TABLE classes (snapshot_id INTEGER NOT NULL, qualname TEXT NOT NULL, json TEXT NOT NULL);
CREATE INDEX classes_snapshot ON classes (snapshot_id);
CREATE TABLE config_options (snapshot_id INTEGER NOT NULL, name TEXT NOT NULL, json TEXT NOT NULL);
CREATE INDEX config_snapshot ON config_options (snapshot_id);
CREATE TABLE test_expectations (snapshot_id INTEGER NOT NULL, exception TEXT NOT NULL, json TEXT NOT NULL);
CREATE INDEX tests_snapshot ON test_expectations (snapshot_id);
CREATE TABLE symbols (snapshot_id INTEGER NOT NULL, module TEXT NOT NULL, names TEXT NOT NULL);
CREATE INDEX symbols_snapshot ON symbols (snapshot_id);
INSERT INTO meta (key, value) VALUES ('generation', '0');
INSERT INTO meta (key, value) VALUES ('catalog_id', lower(hex(randomblob(8))));
"""

V2 = """
CREATE TABLE analyses (
    error_id TEXT NOT NULL,
    snapshot TEXT NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (error_id, snapshot)
);
"""


def fts_available(conn: sqlite3.Connection) -> bool:
    """Whether this SQLite was built with FTS5 (Debian's and python.org's are)."""
    try:
        conn.execute("CREATE VIRTUAL TABLE temp._errdex_fts_probe USING fts5(x)")
        conn.execute("DROP TABLE temp._errdex_fts_probe")
    except sqlite3.OperationalError:
        return False
    return True


def _v3_search(conn: sqlite3.Connection) -> None:
    """Full-text search over template, exception, path and qualname (LIKE when no FTS5)."""
    if fts_available(conn):
        conn.execute(
            "CREATE VIRTUAL TABLE sites_fts USING fts5(text, tokenize = \"unicode61 tokenchars '_'\")"
        )
        conn.execute("INSERT INTO meta (key, value) VALUES ('search', 'fts5')")
    else:
        conn.execute("CREATE TABLE sites_fts (rowid INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        conn.execute("INSERT INTO meta (key, value) VALUES ('search', 'like')")
    # Sites written by a v2 catalog get their search text now.
    rows = conn.execute("SELECT id, json FROM sites").fetchall()
    if rows:
        import json

        from errdex.catalog.rows import search_text
        from errdex.model import ErrorSite, from_json

        conn.executemany(
            "INSERT INTO sites_fts (rowid, text) VALUES (?, ?)",
            [(rid, search_text(from_json(ErrorSite, json.loads(js)))) for rid, js in rows],
        )


V4_OBSERVATIONS = """
CREATE TABLE observations (
    id INTEGER PRIMARY KEY,
    snapshot TEXT NOT NULL,
    error_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    path TEXT NOT NULL,
    line INTEGER NOT NULL,
    count INTEGER NOT NULL,
    json TEXT NOT NULL
);
CREATE INDEX observations_snapshot ON observations (snapshot);
CREATE INDEX observations_error ON observations (error_id);
CREATE TABLE observe_runs (snapshot TEXT PRIMARY KEY, json TEXT NOT NULL);
"""

# The package's call graph, one row per caller (json: [[callee, kind, line], ...]).
V5_CALLS = """
CREATE TABLE calls (snapshot_id INTEGER NOT NULL, caller TEXT NOT NULL, json TEXT NOT NULL);
CREATE INDEX calls_snapshot ON calls (snapshot_id);
"""

# Line digests of each snapshot's files (extract/lines.py), for version inference; the row
# with path '' marks a snapshot indexed with them (catalogs written before have none).
V6_LINES = """
CREATE TABLE file_lines (snapshot_id INTEGER NOT NULL, path TEXT NOT NULL, digests BLOB NOT NULL);
CREATE INDEX file_lines_snapshot ON file_lines (snapshot_id, path);
"""

MIGRATIONS: Sequence[Sequence[Step]] = (
    (V1,),
    (V2,),
    (_v3_search,),
    (V4_OBSERVATIONS,),
    (V5_CALLS,),
    (V6_LINES,),
)
LATEST = len(MIGRATIONS)


def current_version(conn: sqlite3.Connection) -> int:
    has = conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'").fetchone()
    if not has:
        return 0
    row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def migrate(conn: sqlite3.Connection, target: int = LATEST) -> int:
    """Apply the steps from the catalog's version up to ``target``; returns the new version.

    ``conn`` must be in autocommit mode (``isolation_level=None``): each
    version is one ``BEGIN IMMEDIATE`` … ``COMMIT``, so two processes opening
    an old catalog at once do not both upgrade it.
    """
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied TEXT NOT NULL)")
    version = current_version(conn)
    if version > LATEST:
        raise RuntimeError(
            f"catalog schema version {version} is newer than this errdex understands ({LATEST}); upgrade errdex"
        )
    while version < target:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = current_version(conn)  # another process may have migrated meanwhile
            if version >= target:
                conn.execute("COMMIT")
                break
            for step in MIGRATIONS[version]:
                if isinstance(step, str):
                    for statement in _statements(step):
                        conn.execute(statement)
                else:
                    step(conn)
            version += 1
            conn.execute(
                "INSERT INTO schema_version (version, applied) VALUES (?, datetime('now'))", (version,)
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return version


def _statements(script: str) -> list[str]:
    """Split a script of simple statements (no triggers, no ';' in literals) for execute()."""
    return [s.strip() for s in script.split(";") if s.strip()]
