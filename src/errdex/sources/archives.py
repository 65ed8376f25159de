"""Safe unpacking of wheels, sdists and zip files.

An archive is untrusted input: a member may try to write outside the target
(``../../etc/x``, ``/abs/path``), a link may point out of the tree, and a few
kilobytes may claim gigabytes (a zip bomb).  We refuse the archive with a
``SourceError`` naming the member rather than extract something half-safe,
never create links, and count the bytes actually written as well as the
sizes the headers declare (headers can lie).
"""

from __future__ import annotations

import os
import stat
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import IO

from errdex.limits import Limits, current, hint, size_text
from errdex.sources.base import SourceError

# What we need from an archive: code, and the metadata that names the repo.
Wanted = Callable[[str], bool]


def wanted_member(name: str) -> bool:
    """Python files and distribution metadata; the rest (data, binaries) stays packed."""
    base = name.rsplit("/", 1)[-1]
    return name.endswith(".py") or base in ("METADATA", "PKG-INFO", "pyproject.toml", "setup.cfg")


@dataclass(frozen=True, slots=True)
class Unpacked:
    """Where an archive went and what it told us about itself."""

    root: Path
    members: int
    written_bytes: int
    newest: str | None  # ISO date of the newest member, None when the archive has no real dates


def safe_member_path(name: str, archive: Path) -> PurePosixPath:
    """The member's relative path, or SourceError if it would land outside the target."""
    norm = name.replace("\\", "/")
    p = PurePosixPath(norm)
    if p.is_absolute() or norm.startswith("/") or (len(norm) > 1 and norm[1] == ":"):
        raise SourceError(f"{archive}: refusing member with an absolute path: {name!r}")
    if ".." in p.parts:
        raise SourceError(f"{archive}: refusing member that escapes the archive root: {name!r}")
    if "\x00" in norm:
        raise SourceError(f"{archive}: refusing member with a NUL byte in its name: {name!r}")
    return p


class _Budget:
    """Counts members and bytes across the whole archive and raises as soon as a limit is crossed.

    Three totals are checked on every member header and every chunk written:
    the member count, the uncompressed bytes (declared by the headers, and
    actually written: headers can lie) and the expansion ratio of everything
    so far against the archive's size on disk.  A bomb of many members each
    just under a per-member limit (280 x 7 MiB in a 4 MB zip) is refused by
    the total ratio before a byte is written.
    """

    def __init__(self, archive: Path, limits: Limits, compressed: int) -> None:
        self.archive = archive
        self.limits = limits
        self.compressed = max(compressed, 1)
        self.members = 0
        self.declared = 0
        self.written = 0

    def member(self, name: str, declared_size: int, compressed_size: int | None) -> None:
        lim = self.limits
        self.members += 1
        if self.members > lim.archive_members:
            raise SourceError(f"{self.archive}: more than {lim.archive_members} members; refusing to unpack "
                              f"({hint('archive_members', lim.archive_members)})")
        if declared_size > lim.archive_member_bytes:
            raise SourceError(
                f"{self.archive}: member {name!r} unpacks to {declared_size} bytes "
                f"({hint('archive_member_bytes', size_text(lim.archive_member_bytes))}); refusing a possible zip bomb"
            )
        if compressed_size is not None and declared_size > lim.archive_ratio_floor:
            ratio = declared_size / max(compressed_size, 1)
            if ratio > lim.archive_ratio:
                raise SourceError(
                    f"{self.archive}: member {name!r} expands {ratio:.0f}x "
                    f"({compressed_size} -> {declared_size} bytes; {hint('archive_ratio', f'{lim.archive_ratio:g}x')}); "
                    "refusing a zip bomb"
                )
        self.declared += declared_size
        if self.declared > lim.archive_bytes:
            raise SourceError(
                f"{self.archive}: members unpack to more than {lim.archive_bytes} bytes "
                f"({hint('archive_bytes', size_text(lim.archive_bytes))}); refusing a zip bomb"
            )
        self._ratio(self.declared, "its members unpack to")

    def _ratio(self, total: int, what: str) -> None:
        lim = self.limits
        if total > lim.archive_ratio_floor and total / self.compressed > lim.archive_ratio:
            raise SourceError(
                f"{self.archive}: expands more than {lim.archive_ratio:g}x ({what} {total}+ bytes from "
                f"{self.compressed} on disk; {hint('archive_ratio', f'{lim.archive_ratio:g}x')}); "
                "refusing a compression bomb"
            )

    def wrote(self, n: int, name: str) -> None:
        self.written += n
        if self.written > self.limits.archive_bytes:
            raise SourceError(
                f"{self.archive}: unpacking {name!r} exceeded {self.limits.archive_bytes} bytes "
                f"(sizes in the headers were false; {hint('archive_bytes', size_text(self.limits.archive_bytes))}); "
                "refusing a zip bomb"
            )
        self._ratio(self.written, "unpacking wrote")


def _write(src: IO[bytes], dest: Path, budget: _Budget, name: str, cap: int) -> None:
    """Copy one member, never following a link at ``dest`` and never past ``cap`` bytes."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(dest, flags, 0o644)
    total = 0
    with os.fdopen(fd, "wb") as out:
        while chunk := src.read(1 << 20):
            total += len(chunk)
            if total > cap:
                raise SourceError(
                    f"{budget.archive}: member {name!r} is larger than its header says; refusing a zip bomb"
                )
            budget.wrote(len(chunk), name)
            out.write(chunk)


def _inside(target: Path, rel: PurePosixPath) -> Path:
    dest = target.joinpath(*rel.parts)
    # The target was created empty by us and we never create links, but an
    # earlier member could have been a directory named like a later file's
    # parent: resolve and check anyway.
    if not dest.resolve().is_relative_to(target.resolve()):
        raise SourceError(f"refusing member outside the target: {rel}")
    return dest


def _disk_size(archive: Path) -> int:
    try:
        return archive.stat().st_size
    except OSError as exc:
        raise SourceError(f"{archive}: cannot read ({exc.strerror or exc})") from exc


def _iso(ts: datetime) -> str | None:
    return ts.isoformat() if ts.year >= 1990 else None


def scan_zip(
    zf: zipfile.ZipFile, archive: Path, *, limits: Limits | None = None, wanted: Wanted = wanted_member
) -> tuple[list[tuple[zipfile.ZipInfo, PurePosixPath]], str | None]:
    """The wanted regular members of an open zip with their safe paths, and the newest member's date.

    Every header is checked first (member count, paths, declared sizes and
    compression ratios), so a hostile archive is refused before any data is
    read, whether it is then unpacked or read in place.
    """
    limits = limits or current()
    budget = _Budget(archive, limits, _disk_size(archive))
    infos = zf.infolist()
    if len(infos) > limits.archive_members:
        raise SourceError(f"{archive}: {len(infos)} members (limit {limits.archive_members}); refusing to unpack "
                          f"({hint('archive_members', limits.archive_members)})")
    plan: list[tuple[zipfile.ZipInfo, PurePosixPath]] = []
    newest: datetime | None = None
    for info in infos:
        rel = safe_member_path(info.filename, archive)
        budget.member(info.filename, info.file_size, info.compress_size)
        mode = info.external_attr >> 16
        if info.is_dir() or stat.S_ISLNK(mode):
            continue  # directories are implied; links are never created
        if wanted(rel.as_posix()):
            plan.append((info, rel))
            try:
                ts = datetime(*info.date_time, tzinfo=UTC)
            except ValueError:
                continue
            newest = ts if newest is None or ts > newest else newest
    return plan, (_iso(newest) if newest else None)


def open_zip(archive: Path) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError) as exc:
        raise SourceError(f"{archive}: not a readable zip file ({exc})") from exc


def unpack_zip(
    archive: Path, target: Path, *, limits: Limits | None = None, wanted: Wanted = wanted_member
) -> Unpacked:
    """Unpack the wanted members of a zip (or wheel) into the empty directory ``target``."""
    limits = limits or current()
    budget = _Budget(archive, limits, _disk_size(archive))
    with open_zip(archive) as zf:
        plan, newest = scan_zip(zf, archive, limits=limits, wanted=wanted)
        for info, rel in plan:
            budget.members += 1
            dest = _inside(target, rel)
            try:
                with zf.open(info) as src:
                    _write(src, dest, budget, info.filename, info.file_size)
            except (zipfile.BadZipFile, OSError, EOFError) as exc:
                raise SourceError(f"{archive}: cannot read member {info.filename!r} ({exc})") from exc
    return Unpacked(target, budget.members, budget.written, newest)


def unpack_tar(
    archive: Path, target: Path, *, limits: Limits | None = None, wanted: Wanted = wanted_member
) -> Unpacked:
    """Unpack the wanted regular files of a (compressed) tar into the empty directory ``target``.

    Members are checked one by one as the stream is read, so a hostile header
    is refused before its data is decompressed.
    """
    limits = limits or current()
    budget = _Budget(archive, limits, _disk_size(archive))
    newest = 0.0
    try:
        tf = tarfile.open(archive, mode="r:*")  # noqa: SIM115 - closed by the with below
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise SourceError(f"{archive}: not a readable tar archive ({exc})") from exc
    try:
        with tf:
            for member in _iter_tar(tf, archive):
                rel = safe_member_path(member.name, archive)
                budget.member(member.name, member.size if member.isfile() else 0, None)
                if not member.isfile():
                    continue  # directories implied; symlinks, hardlinks, devices never created
                if not wanted(rel.as_posix()):
                    continue
                src = tf.extractfile(member)
                if src is None:
                    continue
                with src:
                    _write(src, _inside(target, rel), budget, member.name, member.size)
                newest = max(newest, float(member.mtime))
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise SourceError(f"{archive}: corrupt tar archive ({exc})") from exc
    date = _iso(datetime.fromtimestamp(newest, UTC)) if newest else None
    return Unpacked(target, budget.members, budget.written, date)


def _iter_tar(tf: tarfile.TarFile, archive: Path) -> Iterator[tarfile.TarInfo]:
    while True:
        try:
            member = tf.next()
        except tarfile.ReadError as exc:
            raise SourceError(f"{archive}: corrupt tar archive ({exc})") from exc
        if member is None:
            return
        yield member


def single_top_folder(root: Path) -> Path:
    """The sdist's ``name-version/`` folder when everything is inside one, else ``root``.

    A single top folder that is itself a package (has ``__init__.py``) is the
    code, not a wrapper, and is kept.
    """
    entries = [p for p in root.iterdir() if not p.name.startswith(".errdex-")]
    only = entries[0] if len(entries) == 1 else None
    if only is not None and only.is_dir() and not only.is_symlink() and not (only / "__init__.py").exists():
        return only
    return root
