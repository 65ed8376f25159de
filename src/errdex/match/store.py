"""The match index on disk: a small SQLite file beside the catalog, read lazily.

``errdex explain`` used to ``marshal.load`` the whole index (every template,
site and posting list) before answering: a fixed cost that grows with the
catalog (0.17 s for a large one) although one lookup reads a few posting lists
and a few dozen templates.  Here every part of the index is a table keyed the
way ``rank``/``explain`` ask for it (template number, site number, key, path,
whole text), opened read-only and ``immutable`` (no locking, no WAL), so a
lookup costs one primary-key probe per key, template and site it touches, and
nothing is read that the answer does not need.  Rows are ``marshal`` blobs of
the same plain tuples that ``index.build`` makes, written by errdex itself:
nothing from indexed code is ever unpickled or imported.

A file written by another errdex version (``FORMAT``), for another catalog
generation, or damaged, is refused (``load`` returns None) and rebuilt.
"""

from __future__ import annotations

import _thread
import marshal
import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence

from errdex.match.indexdata import MatchIndex

TYPE_CHECKING = False
if TYPE_CHECKING:  # no ``typing`` at run time (``errdex explain``'s start-up)
    from typing import Any

    _RowsBase = Sequence[Any]
    _TableBase = Mapping[str, Any]
else:
    _RowsBase = Sequence
    _TableBase = Mapping

FORMAT = "errdex-match-42"  # bump when the stored layout changes (42: `*e.args` is the caught text, a rewrap; 41: templates of no word printing a `json.dumps(...)` last; 40: an exception object kept after it was raised is no received one; 39: loose raises of an exception object received whole; 38: wordless templates of a class with some literal text listed by that class; 37: the builtin classes the `except` around a caught-text template catches; 36: a `.with_traceback(tb)` of a local the handler bound to the caught traceback is an edited re-raise; 35: sites by their raise's keyword values; 34: rewraps of the name an `except ... as NAME` binds, and foreign classes' one-argument sites; 33: sites by their function's decorator keys; 32: a value compared with a number shaped; 31: a renderer's placeholders around a text cut no word of it; 30: a package class's bases by its printed name; 29: a site's class by the name Python prints, `IOError` as `OSError`; 28: templates of a list raised as it is; 27: sites by the classes they pick from a table; 26: templates of an arguments tuple; 25: Python 3-always version tests ungated; 24: class-built texts found past a quoted value; 23: keywords of a helper's returned exception; 22: raises that hand the caught traceback on are edited re-raises, class-text sites by their raise keywords; 20: two-mark wordless templates shaped; 19: try lines of caught-text re-raises; 18: raises of a value among class-built texts; 17: raises of a class a value holds; 16: KeyError subclasses unquoted; 15: loose raises with callers' texts; 14: class-built texts; 8: a !r placeholder ends with "!r"; rewraps; 9: by class caught; 10: version-gated; 11: loose raises; 12: any-class rewraps; 13: looked-up classes)

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE templates (n INTEGER PRIMARY KEY, row BLOB NOT NULL);
CREATE TABLE sites (n INTEGER PRIMARY KEY, row BLOB NOT NULL, templates BLOB NOT NULL);
CREATE TABLE keys (key TEXT PRIMARY KEY, df INTEGER NOT NULL, ids BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE locations (path TEXT PRIMARY KEY, row BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE exact (text TEXT PRIMARY KEY, row BLOB NOT NULL) WITHOUT ROWID;
"""


def _uri(path: str) -> str:
    """A read-only, immutable SQLite URI for ``path`` (``?`` and ``#`` would end the path)."""
    quoted = os.path.abspath(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    return f"file:{quoted}?mode=ro&immutable=1"


def read_only_uri(path: str) -> str:
    """A read-only SQLite URI for a catalog that may still change (not ``immutable``)."""
    return f"{_uri(path).split('?', 1)[0]}?mode=ro"


class _Db:
    """One read-only connection shared by the lazy views (queries serialised by a lock)."""

    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(_uri(path), uri=True, check_same_thread=False)
        self.lock = _thread.allocate_lock()

    def one(self, sql: str, arg: object) -> Any:
        with self.lock:
            row = self.conn.execute(sql, (arg,)).fetchone()
        return None if row is None else row[0]

    def column(self, sql: str) -> list[Any]:
        with self.lock:
            return [r[0] for r in self.conn.execute(sql).fetchall()]


class _Rows(_RowsBase):
    """``index.templates`` / ``sites`` / ``site_templates``: row ``n`` read (and kept) when asked for."""

    def __init__(self, db: _Db, table: str, column: str, size: int) -> None:
        self._db, self._size = db, size
        self._cache: dict[int, Any] = {}
        self._sql = f"SELECT {column} FROM {table} WHERE n = ?"
        self._many = f"SELECT n, {column} FROM {table} WHERE n IN"

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, n: Any) -> Any:
        if isinstance(n, slice):
            return [self[i] for i in range(*n.indices(self._size))]
        if n < 0:
            n += self._size
        hit = self._cache.get(n)
        if hit is None:
            blob = self._db.one(self._sql, n) if 0 <= n < self._size else None
            if blob is None:
                raise IndexError(n)
            hit = self._cache[n] = marshal.loads(blob)
        return hit

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(self._size))

    def prefetch(self, numbers: Iterable[int]) -> None:
        """Read the rows of ``numbers`` not read yet, a few hundred per query."""
        todo = [n for n in numbers if n not in self._cache and 0 <= n < self._size]
        for i in range(0, len(todo), 500):
            chunk = todo[i:i + 500]
            sql = f"{self._many} ({','.join('?' * len(chunk))})"
            with self._db.lock:
                rows = self._db.conn.execute(sql, chunk).fetchall()
            for n, blob in rows:
                self._cache[n] = marshal.loads(blob)


class _Table(_TableBase):
    """``index.postings`` / ``locations`` / ``exact`` / key counts: one key read (and kept) when asked for."""

    def __init__(self, db: _Db, table: str, key: str, column: str, decode: bool = True) -> None:
        self._db, self._decode = db, decode
        self._cache: dict[str, Any] = {}
        self._sql = f"SELECT {column} FROM {table} WHERE {key} = ?"
        self._keys_sql = f"SELECT {key} FROM {table}"
        self._missing = object()

    def __getitem__(self, key: str) -> Any:
        hit = self._cache.get(key, self._missing)
        if hit is self._missing:
            value = self._db.one(self._sql, key)
            hit = self._cache[key] = (marshal.loads(value) if self._decode else value) if value is not None else None
        if hit is None:
            raise KeyError(key)
        return hit

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._db.column(self._keys_sql))

    def __len__(self) -> int:
        return len(self._db.column(self._keys_sql))


def load(path: str, generation: str | None) -> MatchIndex | None:
    """The index stored at ``path`` for catalog ``generation`` (any, when None), or None (absent, stale,
    foreign, damaged)."""
    if not os.path.isfile(path):
        return None
    try:
        db = _Db(path)
        meta = {k: v for k, v in db.conn.execute("SELECT key, value FROM meta").fetchall()}
        if meta.get("format") != FORMAT or (generation is not None and meta.get("generation") != generation):
            db.conn.close()
            return None
        sizes = marshal.loads(meta["sizes"])
        snaps = marshal.loads(meta["snaps"])
        tops = marshal.loads(meta["tops"])
        rewraps = marshal.loads(meta["rewraps"])
        try_lines = marshal.loads(meta["try_lines"])
        bases = marshal.loads(meta["bases"])
    except (sqlite3.Error, KeyError, ValueError, EOFError, TypeError, OSError):
        return None
    n_templates, n_sites = sizes
    return MatchIndex(
        snaps=tuple(snaps),
        sites=_Rows(db, "sites", "row", n_sites),
        templates=_Rows(db, "templates", "row", n_templates),
        postings=_Table(db, "keys", "key", "ids", decode=False),
        locations=_Table(db, "locations", "path", "row"),
        tops=frozenset(tops),
        site_templates=_Rows(db, "sites", "templates", n_sites),
        exact=_Table(db, "exact", "text", "row"),
        counts=_Table(db, "keys", "key", "df", decode=False),
        rewraps=rewraps,
        try_lines=try_lines,
        bases=bases,
    )


def save(path: str, generation: str, idx: MatchIndex) -> None:
    """Write ``idx`` to ``path`` atomically; remove the files of this catalog's older generations.

    A catalog directory that cannot be written is no error: the index is
    then rebuilt (in memory) by the next process.
    """
    import tempfile
    from pathlib import Path

    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
        os.close(fd)
        try:
            _write(tmp, generation, idx)
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        stem = target.name.split(".match.", 1)[0] + ".match."
        gen_part = target.name[len(stem):].split(".", 1)[0]
        for old in target.parent.glob(stem + "*"):
            if old.name[len(stem):].split(".", 1)[0] != gen_part:
                old.unlink(missing_ok=True)
    except (OSError, sqlite3.Error):
        pass


def _write(tmp: str, generation: str, idx: MatchIndex) -> None:
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("PRAGMA page_size=4096")
        conn.executescript(_SCHEMA)
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO meta VALUES (?, ?)", [
            ("format", FORMAT), ("generation", generation),
            ("sizes", marshal.dumps((len(idx.templates), len(idx.sites)))),
            ("snaps", marshal.dumps(tuple(idx.snaps))), ("tops", marshal.dumps(tuple(sorted(idx.tops)))),
            ("rewraps", marshal.dumps({k: tuple(v) for k, v in idx.rewraps.items()})),
            ("try_lines", marshal.dumps(dict(idx.try_lines))),
            ("bases", marshal.dumps({k: tuple(v) for k, v in idx.bases.items()})),
        ])
        conn.executemany("INSERT INTO templates VALUES (?, ?)",
                         ((n, marshal.dumps(t)) for n, t in enumerate(idx.templates)))
        conn.executemany("INSERT INTO sites VALUES (?, ?, ?)",
                         ((n, marshal.dumps(s), marshal.dumps(tuple(idx.site_templates[n])))
                          for n, s in enumerate(idx.sites)))
        conn.executemany("INSERT INTO keys VALUES (?, ?, ?)",
                         ((k, len(ids) // 4, ids) for k, ids in idx.postings.items()))
        conn.executemany("INSERT INTO locations VALUES (?, ?)",
                         ((p, marshal.dumps(tuple(v))) for p, v in idx.locations.items()))
        conn.executemany("INSERT INTO exact VALUES (?, ?)",
                         ((k, marshal.dumps(tuple(v))) for k, v in idx.exact.items()))
        conn.execute("COMMIT")
    finally:
        conn.close()


def file_beside(catalog: Any) -> str | None:
    """The global index's file beside a SQLite catalog at its current generation (None for other
    catalogs), named with ``re`` and ``str`` alone: ``pathlib`` is not on explain's start-up path."""
    import re

    db = getattr(catalog, "path", None)
    if db is None or str(db) == ":memory:":
        return None
    gen = re.sub(r"[^A-Za-z0-9_-]", "_", catalog.generation())
    return f"{db}.global.{gen}"


def catalog_generation(db: str) -> str | None:
    """The generation of the SQLite catalog at ``db``, read without opening it as a ``Catalog``.

    ``Catalog.generation()`` is ``catalog_id:generation`` from the ``meta``
    table; reading those two rows read-only is all ``explain`` needs to find
    its stored index, without the catalog package (schema migration, the data
    model) on its start-up path.  None when the file is no readable catalog:
    the caller then opens it the ordinary way.
    """
    if not os.path.isfile(db):
        return None
    try:
        conn = sqlite3.connect(f"{_uri(db).split('?', 1)[0]}?mode=ro", uri=True)
        try:
            rows = conn.execute("SELECT key, value FROM meta WHERE key IN ('catalog_id', 'generation')").fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    values = {str(k): str(v) for k, v in rows}
    if "catalog_id" not in values:
        return None
    return f"{values['catalog_id']}:{values.get('generation', '0')}"


class CatalogFile:
    """A SQLite catalog named by its path, opened as a ``Catalog`` only if something needs more
    than its generation.

    ``index_for`` asks a catalog for its generation and path; when the index
    of that generation is on disk, nothing else is asked, so ``errdex explain``
    answers without importing the catalog package.  Any other attribute opens
    the real catalog (``open_catalog``) and is served by it.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._real: Any = None

    @property
    def opened(self) -> bool:
        """Whether the real catalog has been opened (then ask it, not the file)."""
        return self._real is not None

    def generation(self) -> str:
        if self._real is None:
            gen = catalog_generation(self.path)
            if gen is not None:
                return gen
        return str(self._open().generation())

    def first_solution(self, error_id: str) -> str | None:
        """The first solution of the error's newest analysis (``SqlCatalog.get_analysis`` without a
        snapshot), read directly like the generation: the runtime hook's note needs nothing else."""
        if self._real is None and os.path.isfile(self.path):
            try:
                conn = sqlite3.connect(f"{_uri(self.path).split('?', 1)[0]}?mode=ro", uri=True)
                try:
                    row = conn.execute(
                        "SELECT a.json FROM analyses a LEFT JOIN snapshots s ON s.key = a.snapshot WHERE a.error_id = ?"
                        " ORDER BY CASE WHEN s.id IS NULL THEN 1 ELSE 0 END, s.sort_date DESC, s.seq DESC LIMIT 1",
                        (error_id,)).fetchone()
                finally:
                    conn.close()
            except sqlite3.Error:
                row = None
            else:
                import json

                try:
                    solutions = json.loads(row[0]).get("solutions") if row else None
                    return str(solutions[0]["text"]) if solutions else None
                except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                    return None
        analysis = self._open().get_analysis(error_id)
        return str(analysis.solutions[0].text) if analysis is not None and analysis.solutions else None

    def _open(self) -> Any:
        if self._real is None:
            from errdex.catalog import open_catalog

            self._real = open_catalog(self.path)
        return self._real

    def __getattr__(self, name: str) -> Any:
        return getattr(self._open(), name)

    def close(self) -> None:
        if self._real is not None:
            self._real.close()
            self._real = None
