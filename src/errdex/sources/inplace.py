"""Wheels read in place: each ``.py`` member is read from the archive by the worker that parses it.

Unpacking a wheel means creating hundreds of small files before the first
parse can start, which on this machine is a tenth of indexing the jax wheel,
and all of it in one process.  A wheel needs no layout detection (its
members are the package paths), so its files are listed from the central
directory after every header has passed the same checks as unpacking
(``archives.scan_zip``), and extraction reads each member with
``read_member`` in parallel.  A member whose data disagrees with its header
(a lying size, a bad CRC) fails that file only, with the reason.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from errdex.limits import hint
from errdex.sources.archives import open_zip, scan_zip
from errdex.sources.base import SourceError, SourceFile
from errdex.sources.files import keep_python_path, with_tests
from errdex.sources.metadata import DistMeta, parse_metadata_text

MAX_METADATA_BYTES = 4 * 1024 * 1024
_OPEN: dict[str, tuple[int, zipfile.ZipFile]] = {}  # archive -> (pid that opened it, the open zip)


def wheel_files(archive: Path) -> tuple[tuple[SourceFile, ...], DistMeta | None, str | None]:
    """The wheel's Python files (outside ``*.dist-info``), its metadata, and its newest member's date."""
    with open_zip(archive) as zf:
        plan, newest = scan_zip(zf, archive)
        files: dict[str, SourceFile] = {}
        meta: DistMeta | None = None
        for info, rel in plan:
            key = rel.as_posix()
            if len(rel.parts) == 2 and rel.parts[0].endswith(".dist-info") and rel.name == "METADATA":
                meta = meta or _metadata(zf, info, archive)
            elif ".dist-info" not in rel.parts[0] and keep_python_path(rel):
                files[key] = SourceFile(path=key, abspath=archive, member=info.filename, size=info.file_size)
    return with_tests(files[k] for k in sorted(files)), meta, newest


def _metadata(zf: zipfile.ZipFile, info: zipfile.ZipInfo, archive: Path) -> DistMeta | None:
    if info.file_size > MAX_METADATA_BYTES:
        return None
    try:
        return parse_metadata_text(zf.read(info).decode("utf-8", errors="replace"))
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise SourceError(f"{archive}: cannot read member {info.filename!r} ({exc})") from exc


def read_member(archive: str, member: str, max_bytes: int) -> bytes:
    """One member's bytes.  Raises ``ValueError`` naming the problem (too large, corrupt).

    The open archive is kept per process: a forked worker reopens it rather
    than share the parent's file offset.
    """
    pid = os.getpid()
    held = _OPEN.get(archive)
    if held is None or held[0] != pid:
        if len(_OPEN) >= 4:
            for _, old in _OPEN.values():
                old.close()  # in a forked worker this closes only the worker's copy of the descriptor
            _OPEN.clear()
        try:
            held = _OPEN[archive] = (pid, zipfile.ZipFile(archive))
        except (zipfile.BadZipFile, OSError) as exc:
            raise ValueError(f"cannot open the archive: {exc}") from None
    zf = held[1]
    try:
        info = zf.getinfo(member)
    except KeyError:
        raise ValueError(f"no member {member!r} in the archive") from None
    if info.file_size > max_bytes:
        raise ValueError(f"file too large: {info.file_size} bytes ({hint('file_bytes', max_bytes)})")
    try:
        return zf.read(info)  # bounded by the declared size, and CRC-checked
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError) as exc:
        raise ValueError(f"cannot read the archive member ({exc})") from None
