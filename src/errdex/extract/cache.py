"""A content-addressed cache of phase-1 results, so re-indexing parses only what changed.

Indexing the next commit or version of a library finds most of its files
unchanged; parsing is most of the cost of indexing, and phase 1 of a file
depends on nothing but the file.  So each file's ``FileResult`` is stored
under a key that covers everything it depends on: its bytes, its path (the
module name comes from it), whether it is a test, the size limit, strict
mode, the Python version (its ``ast`` differs between versions) and the
extractor's own source (any change to the extractor is a new version whose
entries are stored apart; older versions are removed when a new one is
first used).  Phase 2 always runs over every file, cached or not.

Entries are pickles that errdex itself wrote under the per-user cache
directory; nothing of the indexed code is ever unpickled from the source.
A corrupt entry is a miss, and each chunk's entries are written in one
SQLite transaction, so a run killed mid-write leaves no half entry.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import shutil
import sqlite3
import sys
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from errdex.extract.strict import strict_enabled
from errdex.extract.summary import FileResult
from errdex.limits import current

MAX_BYTES_DEFAULT = 1 << 30  # a version's entries beyond this are pruned, oldest first
_PACKAGE = Path(__file__).resolve().parent


@cache
def extractor_version() -> str:
    """A hash of the extractor's code and of the model it produces, and of the Python running it."""
    h = hashlib.sha256(f"{sys.version_info.major}.{sys.version_info.minor}".encode())
    for path in sorted([*_PACKAGE.rglob("*.py"), _PACKAGE.parent / "model.py"]):
        h.update(str(path.relative_to(_PACKAGE.parent)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


_SCHEMA = "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, blob BLOB NOT NULL, at REAL NOT NULL)"
_CONNECTIONS: dict[str, tuple[int, sqlite3.Connection]] = {}  # database -> (pid that opened it, connection)


@dataclass(frozen=True, slots=True)
class ResultCache:
    """The entries of one extractor version, in ``<cache>/extract/<version>/results.sqlite``.

    One SQLite file rather than a file per entry: creating hundreds of small
    files costs the first (cold) run of a large package more than the cache
    saves on it.  Each worker writes a chunk's entries in one transaction
    (WAL, so the other worker's reads and writes wait for nothing long).
    """

    root: Path
    max_bytes: int = MAX_BYTES_DEFAULT

    @classmethod
    def open(cls, base: Path, max_bytes: int = MAX_BYTES_DEFAULT) -> ResultCache:
        """The cache of this extractor version under ``base``; other versions' entries are removed."""
        version = extractor_version()
        base.mkdir(parents=True, exist_ok=True)
        for old in base.iterdir():
            if old.is_dir() and old.name != version:
                shutil.rmtree(old, ignore_errors=True)
        root = base / version
        root.mkdir(exist_ok=True)
        cache = cls(root, max_bytes)
        cache._db()  # create the table now: a cache that cannot be created is reported once, up front
        return cache

    @property
    def path(self) -> Path:
        return self.root / "results.sqlite"

    def _db(self) -> sqlite3.Connection:
        """This process's connection (a forked worker opens its own rather than share the parent's)."""
        pid = os.getpid()
        held = _CONNECTIONS.get(str(self.path))
        if held is None or held[0] != pid:
            try:
                conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute(_SCHEMA)
            except sqlite3.Error as exc:
                raise OSError(f"cannot open the result cache {self.path}: {exc}") from exc
            held = _CONNECTIONS[str(self.path)] = (pid, conn)
        return held[1]

    def key(self, path: str, data: bytes, is_test: bool, max_file_bytes: int) -> str:
        h = hashlib.sha256(data)
        limits = current()  # the limits applied in phase 1 besides the file size
        h.update(f"\0{path}\0{int(is_test)}\0{max_file_bytes}\0{int(strict_enabled())}\0{limits.sites_per_file}"
                 f"\0{limits.text_steps_per_file}".encode())
        return h.hexdigest()

    def get(self, key: str) -> bytes | None:
        """The stored pickle of a ``FileResult``, or None when there is none (``load`` checks it)."""
        try:
            row = self._db().execute("SELECT blob FROM results WHERE key = ?", (key,)).fetchone()
        except (sqlite3.Error, OSError):
            return None
        return bytes(row[0]) if row is not None else None

    def put_many(self, entries: list[tuple[str, bytes]]) -> None:
        """Store pickled ``FileResult`` s in one transaction; a locked or full cache only loses them."""
        if not entries:
            return
        now = time.time()
        try:
            db = self._db()
            with contextlib.closing(db.cursor()) as cur:
                cur.execute("BEGIN IMMEDIATE")
                try:
                    cur.executemany("INSERT OR REPLACE INTO results (key, blob, at) VALUES (?, ?, ?)",
                                    [(k, b, now) for k, b in entries])
                    cur.execute("COMMIT")
                except sqlite3.Error:
                    cur.execute("ROLLBACK")
                    raise
        except (sqlite3.Error, OSError):
            pass  # the cache is an optimisation: the results themselves are already in hand

    def count(self) -> int:
        row = self._db().execute("SELECT count(*) FROM results").fetchone()
        return int(row[0]) if row else 0

    def prune(self) -> int:
        """Remove the least recently written entries until the version's size is under ``max_bytes``."""
        db = self._db()
        row = db.execute("SELECT coalesce(sum(length(blob)), 0) FROM results").fetchone()
        excess = int(row[0]) - self.max_bytes if row else 0
        if excess <= 0:
            return 0
        doomed: list[str] = []
        for key, size in db.execute("SELECT key, length(blob) FROM results ORDER BY at, key"):
            if excess <= 0:
                break
            doomed.append(key)
            excess -= int(size)
        db.executemany("DELETE FROM results WHERE key = ?", [(k,) for k in doomed])
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return len(doomed)


def load(blob: bytes) -> FileResult | None:
    """A ``FileResult`` from a worker's or the cache's pickle; None for a truncated or stale one."""
    try:
        result = pickle.loads(blob)
    except Exception:  # a corrupt entry is a miss, never an error: the file is extracted again
        return None
    return result if isinstance(result, FileResult) else None
