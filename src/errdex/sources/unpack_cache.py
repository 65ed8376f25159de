"""Unpacked archives kept in the cache, keyed by the archive's content.

Creating hundreds of small files is a large share of indexing a wheel
(about 0.5 s of the jax wheel on this machine), and the same archive is
often indexed again (``pypi:`` downloads are cached already).  An archive is
unpacked once into ``cache_dir()/unpacked/<sha256>-<kind>``: first into a
temporary sibling, then renamed into place, so a reader never sees a
half-unpacked tree and two processes racing both end with one complete copy.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from errdex import paths
from errdex.model import SourceKind
from errdex.sources.archives import Unpacked, unpack_tar, unpack_zip

# Bump when what we unpack (wanted_member) or how changes, so old copies are not reused.
LAYOUT_VERSION = "1"
MARKER = ".errdex-unpacked.json"


def archive_digest(archive: Path) -> str:
    h = hashlib.sha256()
    with archive.open("rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _unpack(archive: Path, kind: SourceKind, target: Path) -> Unpacked:
    return unpack_tar(archive, target) if kind == "sdist" else unpack_zip(archive, target)


def unpack_cached(archive: Path, kind: SourceKind) -> Unpacked:
    """The archive unpacked (safely) under the cache; reused when already there."""
    base = paths.cache_dir() / "unpacked"
    base.mkdir(parents=True, exist_ok=True)
    dest = base / f"{archive_digest(archive)[:40]}-{kind}-v{LAYOUT_VERSION}"
    marker = dest / MARKER
    if marker.is_file():
        with contextlib.suppress(OSError, ValueError, KeyError):
            info = json.loads(marker.read_text())
            return Unpacked(dest, int(info["members"]), int(info["written_bytes"]), info.get("newest"))
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=base))
    try:
        unpacked = _unpack(archive, kind, tmp)
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
    return Unpacked(dest, unpacked.members, unpacked.written_bytes, unpacked.newest)
