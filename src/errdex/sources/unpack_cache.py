"""Unpacked archives kept in the cache, keyed by the archive's content.

Creating hundreds of small files is a large share of indexing a wheel
(about 0.5 s of the jax wheel on this machine), and the same archive is
often indexed again (``pypi:`` downloads are cached already).  An archive is
unpacked once into ``cache_dir()/unpacked/<sha256>-<kind>``: first into a
temporary sibling, then renamed into place, so a reader never sees a
half-unpacked tree and two processes racing both end with one complete copy.

The cache is bounded in bytes (``Limits.unpack_cache_bytes``): each use
touches the copy's marker, and after every unpack the least recently used
copies are removed until the rest fit.  A refused archive leaves nothing:
its temporary directory is removed before the error propagates, and
temporary directories left by a killed process are removed once stale.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from errdex import paths
from errdex.limits import Limits, current
from errdex.model import SourceKind
from errdex.sources.archives import Unpacked, unpack_tar, unpack_zip

# Bump when what we unpack (wanted_member) or how changes, so old copies are not reused.
LAYOUT_VERSION = "1"
MARKER = ".errdex-unpacked.json"
STALE_TMP_SECONDS = 3600  # a ".tmp-" directory this old belongs to a process that died mid-unpack


def archive_digest(archive: Path) -> str:
    h = hashlib.sha256()
    with archive.open("rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _unpack(archive: Path, kind: SourceKind, target: Path, limits: Limits) -> Unpacked:
    if kind == "sdist":
        return unpack_tar(archive, target, limits=limits)
    return unpack_zip(archive, target, limits=limits)


def unpack_cached(archive: Path, kind: SourceKind, limits: Limits | None = None) -> Unpacked:
    """The archive unpacked (safely) under the cache; reused when already there."""
    limits = limits or current()
    base = paths.cache_dir() / "unpacked"
    base.mkdir(parents=True, exist_ok=True)
    dest = base / f"{archive_digest(archive)[:40]}-{kind}-v{LAYOUT_VERSION}"
    marker = dest / MARKER
    if marker.is_file():
        with contextlib.suppress(OSError, ValueError, KeyError):
            info = json.loads(marker.read_text())
            touch(marker)  # most recently used: pruned last
            return Unpacked(dest, int(info["members"]), int(info["written_bytes"]), info.get("newest"))
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=base))
    try:
        unpacked = _unpack(archive, kind, tmp, limits)
        (tmp / MARKER).write_text(json.dumps(
            {"members": unpacked.members, "written_bytes": unpacked.written_bytes, "newest": unpacked.newest,
             "archive": str(archive)}
        ))
        try:
            os.rename(tmp, dest)
        except OSError:
            # Another process finished first (dest exists and is complete) or
            # an incomplete copy is in the way: keep a complete one.
            if not marker.is_file():
                shutil.rmtree(dest, ignore_errors=True)
                os.rename(tmp, dest)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    prune(base, limits.unpack_cache_bytes, keep=dest)
    return Unpacked(dest, unpacked.members, unpacked.written_bytes, unpacked.newest)


def touch(path: Path) -> None:
    """Mark ``path`` as used now, to the nanosecond: ``os.utime(path)`` alone takes the kernel's
    coarse clock, which gives two uses a few milliseconds apart the same time (and the pruning
    order to chance)."""
    now = time.time_ns()
    os.utime(path, ns=(now, now))


def _entry_bytes(entry: Path, marker: str) -> int:
    """The bytes a complete copy holds, as its marker recorded them (a walk when it cannot say)."""
    try:
        return int(json.loads((entry / marker).read_text())["written_bytes"])
    except (OSError, ValueError, KeyError, TypeError):
        return sum(p.stat().st_size for p in entry.rglob("*") if p.is_file() and not p.is_symlink())


def prune(base: Path, max_bytes: int, *, keep: Path | None = None, marker: str = MARKER) -> int:
    """Remove the least recently used copies until the others hold at most ``max_bytes``;
    also temporary directories older than an hour.  ``keep`` (the copy in use) is never removed.
    A copy's last use is the time of its ``marker`` file (the ``pypi:`` download cache passes
    its own); a copy without one is incomplete and goes first.  Returns the bytes removed."""
    now = time.time()
    entries: list[tuple[float, int, Path]] = []
    removed = 0
    try:
        listing = list(base.iterdir())
    except OSError:
        return 0
    for entry in listing:
        if not entry.is_dir() or entry.is_symlink():
            continue
        if entry.name.startswith(".tmp-"):
            with contextlib.suppress(OSError):
                if now - entry.stat().st_mtime > STALE_TMP_SECONDS:
                    shutil.rmtree(entry, ignore_errors=True)
            continue
        try:
            used = (entry / marker).stat().st_mtime
        except OSError:
            used = 0.0  # no marker: incomplete, first to go
        entries.append((used, _entry_bytes(entry, marker), entry))
    total = sum(size for _, size, _ in entries)
    for _, size, entry in sorted(entries, key=lambda e: e[0]):
        if total <= max_bytes:
            break
        if keep is not None and entry == keep:
            continue
        shutil.rmtree(entry, ignore_errors=True)
        total -= size
        removed += size
    return removed
