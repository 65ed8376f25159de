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
A corrupt or truncated entry is a miss, and writes are atomic (a temporary
file renamed into place), so a run killed mid-write leaves no half entry.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import shutil
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from errdex.extract.strict import strict_enabled
from errdex.extract.summary import FileResult

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


@dataclass(frozen=True, slots=True)
class ResultCache:
    """The entries of one extractor version under ``root`` (``<cache>/extract/<version>``)."""

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
        return cls(root, max_bytes)

    def key(self, path: str, data: bytes, is_test: bool, max_file_bytes: int) -> str:
        h = hashlib.sha256(data)
        h.update(f"\0{path}\0{int(is_test)}\0{max_file_bytes}\0{int(strict_enabled())}".encode())
        return h.hexdigest()

    def _entry(self, key: str) -> Path:
        return self.root / key[:2] / key

    def get(self, key: str) -> bytes | None:
        """The stored pickle of a ``FileResult``, or None when there is none (``load`` checks it)."""
        try:
            return self._entry(key).read_bytes()
        except OSError:
            return None

    def put(self, key: str, blob: bytes) -> None:
        """Store a pickled ``FileResult`` atomically; a full disk only loses the entry."""
        entry = self._entry(key)
        tmp: str | None = None
        try:
            entry.parent.mkdir(exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-")
            with os.fdopen(fd, "wb") as fh:
                fh.write(blob)
            os.replace(tmp, entry)
        except OSError:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)

    def prune(self) -> int:
        """Remove the least recently written entries until the version's size is under ``max_bytes``."""
        entries: list[tuple[float, int, Path]] = []
        for sub in self.root.iterdir():
            if sub.is_dir():
                for e in sub.iterdir():
                    with contextlib.suppress(OSError):
                        st = e.stat()
                        entries.append((st.st_mtime, st.st_size, e))
        total = sum(size for _, size, _ in entries)
        removed = 0
        for _, size, e in sorted(entries):
            if total <= self.max_bytes:
                break
            with contextlib.suppress(OSError):
                e.unlink()
                total -= size
                removed += 1
        return removed


def load(blob: bytes) -> FileResult | None:
    """A ``FileResult`` from a worker's or the cache's pickle; None for a truncated or stale one."""
    try:
        result = pickle.loads(blob)
    except Exception:  # a corrupt entry is a miss, never an error: the file is extracted again
        return None
    return result if isinstance(result, FileResult) else None
