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
import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from errdex.catalog.base import ErrorRecord, SnapshotStats
from errdex.catalog.rows import (
    compute_stats,
    dumps,
    now_iso,
    search_text,
    site_from_json,
    sort_date,
    stats_from_json,
)
from errdex.catalog.schema import migrate
from errdex.model import (
    Analysis,
    ClassInfo,
    ConfigOption,
    ErrorSite,
    ExtractResult,
    Snapshot,
    TestExpectation,
    from_json,
    to_json,
)

_ORDER = "ORDER BY s.sort_date DESC, s.seq DESC"


class CatalogError(Exception):
    """The catalog cannot be opened or used: the message names the file."""


class SqliteCatalog:
    """``Catalog`` over one SQLite file."""

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

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._conn().execute(sql, params).fetchall()

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

    # ------------------------------------------------------------------ writes

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One ``BEGIN IMMEDIATE`` transaction that bumps the generation: all of it or nothing."""
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            self._bump(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _bump(self, conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")

    def replace_snapshot(self, snapshot: Snapshot, result: ExtractResult) -> SnapshotStats:
        stats = compute_stats(snapshot, result)
        with self._write() as conn:
            old = conn.execute("SELECT id FROM snapshots WHERE key = ?", (snapshot.key,)).fetchone()
            if old is not None:
                self._delete_snapshot(conn, int(old[0]))
            seq = int(conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM snapshots").fetchone()[0])
            cur = conn.execute(
                "INSERT INTO snapshots (key, repo, sort_date, seq, json, stats_json) VALUES (?, ?, ?, ?, ?, ?)",
                (snapshot.key, snapshot.repo, sort_date(snapshot, now_iso()), seq, dumps(snapshot), dumps(stats)),
            )
            sid = int(cur.lastrowid or 0)
            self._insert_facts(conn, sid, result)
        return stats

    def _insert_facts(self, conn: sqlite3.Connection, sid: int, result: ExtractResult) -> None:
        next_id = int(conn.execute("SELECT coalesce(max(id), 0) + 1 FROM sites").fetchone()[0])
        site_rows = []
        fts_rows = []
        for i, site in enumerate(result.sites):
            rid = next_id + i
            site_rows.append((
                rid, sid, site.error_id, site.kind, site.exception_resolved or site.exception,
                site.path, site.line, site.template.render(), dumps(site),
            ))
            fts_rows.append((rid, search_text(site)))
        conn.executemany(
            "INSERT INTO sites (id, snapshot_id, error_id, kind, exception, path, line, template, json)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            site_rows,
        )
        conn.executemany("INSERT INTO sites_fts (rowid, text) VALUES (?, ?)", fts_rows)
        conn.executemany(
            "INSERT INTO failures (snapshot_id, path, reason) VALUES (?, ?, ?)",
            [(sid, f.path, f.reason) for f in result.failures],
        )
        conn.executemany(
            "INSERT INTO classes (snapshot_id, qualname, json) VALUES (?, ?, ?)",
            [(sid, c.qualname, dumps(c)) for c in result.classes],
        )
        conn.executemany(
            "INSERT INTO config_options (snapshot_id, name, json) VALUES (?, ?, ?)",
            [(sid, c.name, dumps(c)) for c in result.config],
        )
        conn.executemany(
            "INSERT INTO test_expectations (snapshot_id, exception, json) VALUES (?, ?, ?)",
            [(sid, t.exception, dumps(t)) for t in result.tests],
        )
        conn.executemany(
            "INSERT INTO symbols (snapshot_id, module, names) VALUES (?, ?, ?)",
            [(sid, m, json.dumps(list(names))) for m, names in sorted(result.symbols.items())],
        )

    def _delete_snapshot(self, conn: sqlite3.Connection, sid: int) -> None:
        conn.execute("DELETE FROM sites_fts WHERE rowid IN (SELECT id FROM sites WHERE snapshot_id = ?)", (sid,))
        for table in ("sites", "failures", "classes", "config_options", "test_expectations", "symbols"):
            conn.execute(f"DELETE FROM {table} WHERE snapshot_id = ?", (sid,))
        conn.execute("DELETE FROM snapshots WHERE id = ?", (sid,))

    def delete_snapshot(self, snapshot_key: str) -> bool:
        """Remove one snapshot and everything extracted from it (not its analyses)."""
        with self._write() as conn:
            row = conn.execute("SELECT id FROM snapshots WHERE key = ?", (snapshot_key,)).fetchone()
            if row is not None:
                self._delete_snapshot(conn, int(row[0]))
        return row is not None

    def put_analyses(self, analyses: Sequence[Analysis]) -> None:
        with self._write() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO analyses (error_id, snapshot, json) VALUES (?, ?, ?)",
                [(a.error_id, a.snapshot, dumps(a)) for a in analyses],
            )

    # ------------------------------------------------------------------ snapshots

    def snapshots(self, repo: str | None = None) -> list[Snapshot]:
        where, params = ("WHERE s.repo = ?", (repo,)) if repo else ("", ())
        rows = self._rows(f"SELECT s.json FROM snapshots s {where} {_ORDER}", params)
        return [from_json(Snapshot, json.loads(r[0])) for r in rows]

    def repos(self) -> list[str]:
        return [r[0] for r in self._rows("SELECT DISTINCT repo FROM snapshots ORDER BY repo")]

    def _snapshot_id(self, snapshot_key: str) -> int | None:
        row = self._rows("SELECT id FROM snapshots WHERE key = ?", (snapshot_key,))
        return int(row[0][0]) if row else None

    def _latest_ids(self, repo: str | None = None) -> list[int]:
        """The newest snapshot of each repo (or of ``repo``)."""
        where, params = ("WHERE s.repo = ?", (repo,)) if repo else ("", ())
        rows = self._rows(f"SELECT s.id, s.repo FROM snapshots s {where} {_ORDER}", params)
        seen: dict[str, int] = {}
        for sid, r in rows:
            seen.setdefault(r, int(sid))
        return list(seen.values())

    # ------------------------------------------------------------------ sites

    def sites(self, snapshot_key: str | None = None, repo: str | None = None) -> Iterator[ErrorSite]:
        if snapshot_key is not None:
            sid = self._snapshot_id(snapshot_key)
            ids = [sid] if sid is not None else []
        else:
            ids = self._latest_ids(repo)
        for sid in ids:
            rows = self._rows("SELECT json FROM sites WHERE snapshot_id = ? ORDER BY path, line, id", (sid,))
            for (text,) in rows:
                yield site_from_json(text)

    def site_count(self) -> int:
        return int(self._rows("SELECT count(*) FROM sites")[0][0])

    def get_error(self, error_id: str) -> ErrorRecord | None:
        rows = self._rows(
            f"SELECT s.json, x.json FROM sites x JOIN snapshots s ON s.id = x.snapshot_id "
            f"WHERE x.error_id = ? {_ORDER}, x.id",
            (error_id,),
        )
        if not rows:
            return None
        pairs = tuple((from_json(Snapshot, json.loads(sj)), site_from_json(xj)) for sj, xj in rows)
        return ErrorRecord(error_id=error_id, sites=pairs)

    def search(self, query: str, limit: int = 50, repo: str | None = None) -> list[tuple[Snapshot, ErrorSite]]:
        words = [w for w in _words(query) if w]
        if not words:
            return []
        if self._fts:
            match = " AND ".join('"' + w.replace('"', '""') + '"*' for w in words)
            cond, params = "x.id IN (SELECT rowid FROM sites_fts WHERE sites_fts MATCH ?)", [match]
            rank = "(SELECT bm25(sites_fts) FROM sites_fts WHERE sites_fts.rowid = x.id AND sites_fts MATCH ?)"
            order_params: list[Any] = [match]
        else:
            cond = " AND ".join("x.id IN (SELECT rowid FROM sites_fts WHERE text LIKE ? ESCAPE '\\')" for _ in words)
            params = ["%" + w.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%" for w in words]
            rank, order_params = "0", []
        if repo:
            cond += " AND s.repo = ?"
            params.append(repo)
        rows = self._rows(
            f"SELECT x.error_id, s.json, x.json, {rank} AS r FROM sites x JOIN snapshots s ON s.id = x.snapshot_id "
            f"WHERE {cond} ORDER BY r, s.sort_date DESC, s.seq DESC, x.id",
            [*order_params, *params],
        )
        out: list[tuple[Snapshot, ErrorSite]] = []
        seen: set[str] = set()
        for eid, sj, xj, _ in rows:
            if eid in seen:
                continue  # the newest snapshot's site of each error
            seen.add(eid)
            out.append((from_json(Snapshot, json.loads(sj)), site_from_json(xj)))
            if len(out) >= limit:
                break
        return out

    # ------------------------------------------------------------------ facts

    def stats(self, snapshot_key: str | None = None) -> list[SnapshotStats]:
        where, params = ("WHERE s.key = ?", (snapshot_key,)) if snapshot_key else ("", ())
        rows = self._rows(f"SELECT s.stats_json FROM snapshots s {where} {_ORDER}", params)
        return [stats_from_json(json.loads(r[0])) for r in rows]

    def _facts(self, table: str, snapshot_key: str) -> list[str]:
        sid = self._snapshot_id(snapshot_key)
        if sid is None:
            return []
        return [r[0] for r in self._rows(f"SELECT json FROM {table} WHERE snapshot_id = ? ORDER BY rowid", (sid,))]

    def classes(self, snapshot_key: str) -> list[ClassInfo]:
        return [from_json(ClassInfo, json.loads(t)) for t in self._facts("classes", snapshot_key)]

    def config_options(self, snapshot_key: str) -> list[ConfigOption]:
        return [from_json(ConfigOption, json.loads(t)) for t in self._facts("config_options", snapshot_key)]

    def tests(self, snapshot_key: str) -> list[TestExpectation]:
        return [from_json(TestExpectation, json.loads(t)) for t in self._facts("test_expectations", snapshot_key)]

    def symbols(self, snapshot_key: str) -> dict[str, tuple[str, ...]]:
        sid = self._snapshot_id(snapshot_key)
        if sid is None:
            return {}
        rows = self._rows("SELECT module, names FROM symbols WHERE snapshot_id = ? ORDER BY module", (sid,))
        return {m: tuple(json.loads(n)) for m, n in rows}

    def get_analysis(self, error_id: str, snapshot_key: str | None = None) -> Analysis | None:
        if snapshot_key is not None:
            rows = self._rows("SELECT json FROM analyses WHERE error_id = ? AND snapshot = ?", (error_id, snapshot_key))
        else:
            # The analysis of the newest snapshot that has one; analyses of
            # snapshots no longer in the catalog come last.
            rows = self._rows(
                "SELECT a.json FROM analyses a LEFT JOIN snapshots s ON s.key = a.snapshot WHERE a.error_id = ? "
                "ORDER BY s.id IS NULL, s.sort_date DESC, s.seq DESC LIMIT 1",
                (error_id,),
            )
        return from_json(Analysis, json.loads(rows[0][0])) if rows else None

    def generation(self) -> str:
        rows = self._rows("SELECT key, value FROM meta WHERE key IN ('catalog_id', 'generation')")
        values = dict(rows)
        return f"{values.get('catalog_id', '')}:{values.get('generation', '0')}"

    def integrity_check(self) -> str:
        """SQLite's own verdict on the file ("ok" when sound)."""
        return str(self._rows("PRAGMA integrity_check")[0][0])

    def as_json(self) -> dict[str, Any]:
        return {"backend": "sqlite", "path": str(self.path), "generation": self.generation(),
                "snapshots": [to_json(s) for s in self.snapshots()]}


def _words(query: str) -> list[str]:
    import re

    return re.findall(r"[\w]+", query)
