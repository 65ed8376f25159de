"""The catalog logic shared by the SQL backends (SQLite, PostgreSQL).

Both backends have the same tables and the same queries, written once here
with ``?`` placeholders; a backend supplies connections (``Db``), its write
transaction (serialising writers), and its full-text search.

Every read is ONE statement, so that a reader never mixes two snapshots: a
snapshot replaced between two statements (old id looked up, then its rows
gone) cannot happen.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from typing import Any

from errdex.catalog.base import ErrorRecord, SnapshotStats
from errdex.catalog.db import Db
from errdex.catalog.decode import decode
from errdex.catalog.observations import ObservationStore
from errdex.catalog.rows import (
    call_rows,
    compute_stats,
    dumps,
    now_iso,
    search_text,
    site_from_json,
    sort_date,
    stats_from_json,
)
from errdex.model import (
    Analysis,
    CallEdge,
    ClassInfo,
    ConfigOption,
    ErrorSite,
    ExtractResult,
    Snapshot,
    TestExpectation,
    to_json,
)

NEWEST = "s.sort_date DESC, s.seq DESC"
# The newest snapshot of each repo (``?`` = repo filter or NULL for all).
LATEST_IDS = (
    "SELECT id FROM (SELECT id, repo, row_number() OVER (PARTITION BY repo ORDER BY sort_date DESC, seq DESC) AS rn"
    " FROM snapshots) AS ranked WHERE rn = 1 AND (CAST(? AS TEXT) IS NULL OR repo = ?)"
)
_SOURCE_FAILED = "source-failed:"  # meta keys of the sources whose last index failed
_SOURCE_GAVE = "source-gave:"  # meta keys of pinned sources -> the snapshot key they gave
FACT_TABLES = ("sites", "failures", "classes", "config_options", "test_expectations", "symbols", "calls",
               "file_lines")


class SqlCatalog(ObservationStore):
    """``Catalog`` over the shared SQL schema; subclasses provide connections and search."""

    backend = "sql"
    fact_order = "rowid"  # the column that keeps facts in insertion order

    # ------------------------------------------------------------------ backend hooks

    def _db(self) -> Db:
        raise NotImplementedError

    def _transaction(self) -> contextlib.AbstractContextManager[Db]:
        """A write transaction that excludes other writers; commits on success."""
        raise NotImplementedError

    def _index_search(self, db: Db, rows: Sequence[tuple[int, str]]) -> None:
        raise NotImplementedError

    def _unindex_search(self, db: Db, snapshot_id: int) -> None:
        raise NotImplementedError

    def _search_rows(self, words: list[str], repo: str | None) -> list[tuple[Any, ...]]:
        """(error_id, snapshot json, site json) of matching sites, best first."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ writes

    @contextlib.contextmanager
    def _write(self) -> Iterator[Db]:
        """One transaction that also bumps the generation: all of it or nothing."""
        with self._transaction() as db:
            yield db
            db.execute("UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'generation'")

    def replace_snapshot(self, snapshot: Snapshot, result: ExtractResult) -> SnapshotStats:
        return self.replace_snapshots([(snapshot, result)])[0]

    def replace_snapshots(self, batch: Sequence[tuple[Snapshot, ExtractResult]]) -> list[SnapshotStats]:
        """``replace_snapshot`` for several snapshots in ONE transaction (``errdex index`` on a
        cluster writes what its workers return in batches: one commit per batch, not per package)."""
        out: list[SnapshotStats] = []
        with self._write() as db:
            for snapshot, result in batch:
                stats = compute_stats(snapshot, result)
                old = db.fetchone("SELECT id FROM snapshots WHERE key = ?", (snapshot.key,))
                if old is not None:
                    self._delete_snapshot(db, int(old[0]))
                row = db.fetchone("SELECT coalesce(max(id), 0) + 1, coalesce(max(seq), 0) + 1 FROM snapshots")
                assert row is not None
                sid, seq = int(row[0]), int(row[1])
                db.execute(
                    "INSERT INTO snapshots (id, key, repo, sort_date, seq, json, stats_json) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (sid, snapshot.key, snapshot.repo, sort_date(snapshot, now_iso()), seq, dumps(snapshot),
                     dumps(stats)),
                )
                self._insert_facts(db, sid, result)
                out.append(stats)
        return out

    def record_source_failure(self, source: str, reason: str) -> None:
        """Keep on record that ``source`` (as given to ``errdex index``) could not be indexed, and why.

        Kept in ``meta`` (``source-failed:<source>`` -> JSON), which needs no schema change;
        ``record_sources`` clears it when the same source is indexed later.
        """
        value = json.dumps({"reason": reason, "date": now_iso()})
        with self._transaction() as db:
            db.execute("DELETE FROM meta WHERE key = ?", (_SOURCE_FAILED + source,))
            db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (_SOURCE_FAILED + source, value))

    def source_failures(self) -> dict[str, dict[str, str]]:
        """``{source: {"reason": ..., "date": ...}}`` of the sources whose last index failed."""
        rows = self._db().fetchall("SELECT key, value FROM meta WHERE substr(key, 1, ?) = ? ORDER BY key",
                                   (len(_SOURCE_FAILED), _SOURCE_FAILED))
        return {str(k)[len(_SOURCE_FAILED):]: json.loads(v) for k, v in rows}

    def record_sources(self, indexed: dict[str, str]) -> None:
        """Remember which snapshot each pinned source (``pypi:NAME==VER``, an archive) gave, so that
        a re-run skips it without fetching it again; clears those sources' failures."""
        with self._transaction() as db:
            for source, key in indexed.items():
                db.execute("DELETE FROM meta WHERE key IN (?, ?)", (_SOURCE_FAILED + source, _SOURCE_GAVE + source))
                db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (_SOURCE_GAVE + source, key))

    def indexed_sources(self) -> dict[str, str]:
        """``{source: snapshot key}`` recorded by ``record_sources`` whose snapshot is still here."""
        rows = self._db().fetchall(
            "SELECT m.key, m.value FROM meta m JOIN snapshots s ON s.key = m.value WHERE substr(m.key, 1, ?) = ?",
            (len(_SOURCE_GAVE), _SOURCE_GAVE))
        return {str(k)[len(_SOURCE_GAVE):]: str(v) for k, v in rows}

    def snapshot_keys(self) -> set[str]:
        """Every snapshot key in the catalog (one small query: what a re-run of a list skips)."""
        return {str(r[0]) for r in self._db().fetchall("SELECT key FROM snapshots")}

    def _insert_facts(self, db: Db, sid: int, result: ExtractResult) -> None:
        row = db.fetchone("SELECT coalesce(max(id), 0) + 1 FROM sites")
        next_id = int(row[0]) if row else 1
        site_rows = []
        search_rows = []
        for i, site in enumerate(result.sites):
            rid = next_id + i
            site_rows.append((
                rid, sid, site.error_id, site.kind, site.exception_resolved or site.exception,
                site.path, site.line, site.template.render(), dumps(site),
            ))
            search_rows.append((rid, search_text(site)))
        db.executemany(
            "INSERT INTO sites (id, snapshot_id, error_id, kind, exception, path, line, template, json)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            site_rows,
        )
        self._index_search(db, search_rows)
        db.executemany("INSERT INTO failures (snapshot_id, path, reason) VALUES (?, ?, ?)",
                       [(sid, f.path, f.reason) for f in result.failures])
        db.executemany("INSERT INTO classes (snapshot_id, qualname, json) VALUES (?, ?, ?)",
                       [(sid, c.qualname, dumps(c)) for c in result.classes])
        db.executemany("INSERT INTO config_options (snapshot_id, name, json) VALUES (?, ?, ?)",
                       [(sid, c.name, dumps(c)) for c in result.config])
        db.executemany("INSERT INTO test_expectations (snapshot_id, exception, json) VALUES (?, ?, ?)",
                       [(sid, t.exception, dumps(t)) for t in result.tests])
        db.executemany("INSERT INTO symbols (snapshot_id, module, names) VALUES (?, ?, ?)",
                       [(sid, m, json.dumps(list(names))) for m, names in sorted(result.symbols.items())])
        db.executemany("INSERT INTO calls (snapshot_id, caller, json) VALUES (?, ?, ?)",
                       [(sid, c, j) for c, j in call_rows(result.calls)])
        if result.line_digests:
            # the row with path '' says "this snapshot has line digests" (see line_digests)
            db.executemany("INSERT INTO file_lines (snapshot_id, path, digests) VALUES (?, ?, ?)",
                           [(sid, "", b"")] + [(sid, p, d) for p, d in sorted(result.line_digests.items())])

    def _delete_snapshot(self, db: Db, sid: int) -> None:
        self._unindex_search(db, sid)
        for table in FACT_TABLES:
            db.execute(f"DELETE FROM {table} WHERE snapshot_id = ?", (sid,))
        db.execute("DELETE FROM snapshots WHERE id = ?", (sid,))

    def delete_snapshot(self, snapshot_key: str) -> bool:
        """Remove one snapshot and everything extracted from it (not its analyses)."""
        with self._write() as db:
            row = db.fetchone("SELECT id FROM snapshots WHERE key = ?", (snapshot_key,))
            if row is not None:
                self._delete_snapshot(db, int(row[0]))
        return row is not None

    def put_analyses(self, analyses: Sequence[Analysis]) -> None:
        with self._write() as db:
            db.executemany(
                "INSERT INTO analyses (error_id, snapshot, json) VALUES (?, ?, ?)"
                " ON CONFLICT (error_id, snapshot) DO UPDATE SET json = excluded.json",
                [(a.error_id, a.snapshot, dumps(a)) for a in analyses],
            )

    # ------------------------------------------------------------------ snapshots

    def snapshots(self, repo: str | None = None) -> list[Snapshot]:
        rows = self._db().fetchall(
            f"SELECT s.json FROM snapshots s WHERE (CAST(? AS TEXT) IS NULL OR s.repo = ?) ORDER BY {NEWEST}",
            (repo, repo),
        )
        return [decode(Snapshot, json.loads(r[0])) for r in rows]

    def repos(self) -> list[str]:
        return [str(r[0]) for r in self._db().fetchall("SELECT DISTINCT repo FROM snapshots ORDER BY repo")]

    # ------------------------------------------------------------------ sites

    def sites(self, snapshot_key: str | None = None, repo: str | None = None) -> Iterator[ErrorSite]:
        if snapshot_key is not None:
            rows = self._db().fetchall(
                "SELECT x.json FROM sites x JOIN snapshots s ON s.id = x.snapshot_id WHERE s.key = ?"
                " ORDER BY x.path, x.line, x.id",
                (snapshot_key,),
            )
        else:
            rows = self._db().fetchall(
                f"SELECT x.json FROM sites x JOIN snapshots s ON s.id = x.snapshot_id WHERE x.snapshot_id IN"
                f" ({LATEST_IDS}) ORDER BY s.repo, x.path, x.line, x.id",
                (repo, repo),
            )
        for (text,) in rows:
            yield site_from_json(text)

    def site_json(self, snapshot_key: str) -> Iterator[str]:
        """The stored JSON of a snapshot's sites, undecoded (the global match index reads 10^6 of
        them and needs a few fields of each, ``match/global_index.py``)."""
        rows = self._db().fetchall(
            "SELECT x.json FROM sites x JOIN snapshots s ON s.id = x.snapshot_id WHERE s.key = ?"
            " ORDER BY x.path, x.line, x.id",
            (snapshot_key,),
        )
        for (text,) in rows:
            yield str(text)

    def site_count(self) -> int:
        row = self._db().fetchone("SELECT count(*) FROM sites")
        return int(row[0]) if row else 0

    def get_error(self, error_id: str) -> ErrorRecord | None:
        rows = self._db().fetchall(
            f"SELECT s.json, x.json FROM sites x JOIN snapshots s ON s.id = x.snapshot_id"
            f" WHERE x.error_id = ? ORDER BY {NEWEST}, x.id",
            (error_id,),
        )
        if not rows:
            return None
        pairs = tuple((decode(Snapshot, json.loads(sj)), site_from_json(xj)) for sj, xj in rows)
        return ErrorRecord(error_id=error_id, sites=pairs)

    def search(self, query: str, limit: int = 50, repo: str | None = None) -> list[tuple[Snapshot, ErrorSite]]:
        import re

        words = re.findall(r"\w+", query)
        if not words:
            return []
        out: list[tuple[Snapshot, ErrorSite]] = []
        seen: set[str] = set()
        for eid, sj, xj in self._search_rows(words, repo):
            if eid in seen:
                continue  # the newest snapshot's site of each error
            seen.add(eid)
            out.append((decode(Snapshot, json.loads(sj)), site_from_json(xj)))
            if len(out) >= limit:
                break
        return out

    # ------------------------------------------------------------------ facts

    def stats(self, snapshot_key: str | None = None) -> list[SnapshotStats]:
        rows = self._db().fetchall(
            f"SELECT s.stats_json FROM snapshots s WHERE (CAST(? AS TEXT) IS NULL OR s.key = ?) ORDER BY {NEWEST}",
            (snapshot_key, snapshot_key),
        )
        return [stats_from_json(json.loads(r[0])) for r in rows]

    def _facts(self, table: str, column: str, snapshot_key: str) -> list[tuple[Any, ...]]:
        return self._db().fetchall(
            f"SELECT t.{column} FROM {table} t JOIN snapshots s ON s.id = t.snapshot_id WHERE s.key = ?"
            f" ORDER BY t.{self.fact_order}",
            (snapshot_key,),
        )

    def classes(self, snapshot_key: str) -> list[ClassInfo]:
        return [decode(ClassInfo, json.loads(r[0])) for r in self._facts("classes", "json", snapshot_key)]

    def config_options(self, snapshot_key: str) -> list[ConfigOption]:
        return [decode(ConfigOption, json.loads(r[0])) for r in self._facts("config_options", "json", snapshot_key)]

    def tests(self, snapshot_key: str) -> list[TestExpectation]:
        rows = self._facts("test_expectations", "json", snapshot_key)
        return [decode(TestExpectation, json.loads(r[0])) for r in rows]

    def symbols(self, snapshot_key: str) -> dict[str, tuple[str, ...]]:
        rows = self._db().fetchall(
            "SELECT t.module, t.names FROM symbols t JOIN snapshots s ON s.id = t.snapshot_id WHERE s.key = ?"
            " ORDER BY t.module",
            (snapshot_key,),
        )
        return {str(m): tuple(json.loads(n)) for m, n in rows}

    def calls(self, snapshot_key: str) -> list[CallEdge]:
        rows = self._db().fetchall(
            "SELECT t.caller, t.json FROM calls t JOIN snapshots s ON s.id = t.snapshot_id WHERE s.key = ?",
            (snapshot_key,),
        )
        return [CallEdge(caller=str(c), callee=str(callee), kind=kind, line=int(line))
                for c, js in rows for callee, kind, line in json.loads(js)]

    def line_digests(self, repo: str, paths: Sequence[str]) -> dict[str, dict[str, bytes]]:
        """For each snapshot of ``repo`` indexed with line digests: ``paths``' digests in it (those it has)."""
        wanted = sorted(set(paths))[:200]
        marks = ", ".join("?" for _ in wanted)
        cond = f"f.path = '' OR f.path IN ({marks})" if wanted else "f.path = ''"
        rows = self._db().fetchall(
            f"SELECT s.key, f.path, f.digests FROM file_lines f JOIN snapshots s ON s.id = f.snapshot_id"
            f" WHERE s.repo = ? AND ({cond})",
            (repo, *wanted),
        )
        out: dict[str, dict[str, bytes]] = {}
        for key, path, digests in rows:
            files = out.setdefault(str(key), {})
            if path:
                files[str(path)] = bytes(digests)
        return out

    def get_analysis(self, error_id: str, snapshot_key: str | None = None) -> Analysis | None:
        if snapshot_key is not None:
            row = self._db().fetchone(
                "SELECT json FROM analyses WHERE error_id = ? AND snapshot = ?", (error_id, snapshot_key)
            )
        else:
            # The analysis of the newest snapshot that has one; analyses of
            # snapshots no longer in the catalog come last.
            row = self._db().fetchone(
                "SELECT a.json FROM analyses a LEFT JOIN snapshots s ON s.key = a.snapshot WHERE a.error_id = ?"
                " ORDER BY CASE WHEN s.id IS NULL THEN 1 ELSE 0 END, s.sort_date DESC, s.seq DESC LIMIT 1",
                (error_id,),
            )
        return decode(Analysis, json.loads(row[0])) if row else None

    def generation(self) -> str:
        rows = self._db().fetchall("SELECT key, value FROM meta WHERE key IN ('catalog_id', 'generation')")
        values = {str(k): str(v) for k, v in rows}
        return f"{values.get('catalog_id', '')}:{values.get('generation', '0')}"

    def as_json(self) -> dict[str, Any]:
        return {"backend": self.backend, "generation": self.generation(),
                "snapshots": [to_json(s) for s in self.snapshots()]}
