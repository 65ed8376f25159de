"""The budget across all members of an archive, for every archive type, and the bounded unpack cache.

The attack of issue 13: many members each under a per-member limit that
together expand a few megabytes into gigabytes (280 members of 7 MiB in a
4.3 MB zip).  Here the same shape at a size a test can afford (64 members
of 512 KiB of zeros: each under the ratio floor, together 32 MiB from a
few tens of kilobytes) is refused by the total expansion ratio before a
byte is written, and nothing is left in the unpack cache.
"""

from __future__ import annotations

import io
import os
import tarfile
import time
import zipfile
from pathlib import Path

import pytest
from src_builders import build_sdist, build_zip

from errdex import paths
from errdex.limits import Limits
from errdex.sources import SourceError, open_source
from errdex.sources.archives import unpack_tar, unpack_zip
from errdex.sources.unpack_cache import prune

MEMBERS = 64
MEMBER_BYTES = 512 * 1024


def _hostile(tmp_path: Path, suffix: str, members: int = MEMBERS, size: int = MEMBER_BYTES) -> Path:
    """``members`` Python files of ``size`` zero bytes in an archive of type ``suffix``."""
    archive = tmp_path / f"bomb-1.0.{suffix}"
    payload = b"\0" * size
    if suffix in ("zip", "whl"):
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
            for i in range(members):
                zf.writestr(f"pkg/m{i}.py", payload)
    else:
        mode = {"tar.gz": "w:gz", "tar.bz2": "w:bz2", "tar.xz": "w:xz"}[suffix]
        with tarfile.open(archive, mode) as tf:  # type: ignore[call-overload]
            for i in range(members):
                info = tarfile.TarInfo(f"bomb-1.0/pkg/m{i}.py")
                info.size = size
                tf.addfile(info, io.BytesIO(payload))
    return archive


def _unpacked_dir() -> Path:
    return paths.cache_dir() / "unpacked"


def _left_on_disk() -> int:
    base = _unpacked_dir()
    return sum(p.stat().st_size for p in base.rglob("*") if p.is_file()) if base.exists() else 0


@pytest.mark.parametrize("suffix", ["zip", "whl", "tar.gz", "tar.bz2", "tar.xz"])
def test_many_small_members_refused_by_the_total_ratio(tmp_path: Path, suffix: str) -> None:
    archive = _hostile(tmp_path, suffix)
    assert Limits().archive_ratio_floor > MEMBER_BYTES  # no member is large enough to be checked alone
    assert archive.stat().st_size * Limits().archive_ratio < MEMBERS * MEMBER_BYTES
    with pytest.raises(SourceError) as info, open_source(str(archive)):
        pass
    message = str(info.value)
    assert str(archive) in message and "expands more than 100x" in message
    assert "--limit archive_ratio=N" in message and "ERRDEX_LIMIT_ARCHIVE_RATIO" in message
    assert _left_on_disk() == 0  # refused before a byte was written, and no temporary directory left
    if _unpacked_dir().exists():
        assert list(_unpacked_dir().iterdir()) == []


@pytest.mark.parametrize("suffix", ["zip", "tar.gz", "tar.bz2", "tar.xz"])
def test_total_bytes_budget_while_streaming(tmp_path: Path, suffix: str) -> None:
    """Honest ratios, too many bytes in all: refused on the member that crosses the budget."""
    archive = _hostile(tmp_path, suffix, members=8, size=64 * 1024)
    limits = Limits(archive_bytes=200 * 1024)
    target = tmp_path / "out"
    target.mkdir()
    unpack = unpack_zip if suffix == "zip" else unpack_tar
    with pytest.raises(SourceError, match=r"more than 204800 bytes.*limit archive_bytes = 200 KiB"):
        unpack(archive, target, limits=limits)
    written = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
    assert written <= 200 * 1024


def test_the_ratio_is_configurable_by_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = _hostile(tmp_path, "tar.gz", members=4, size=MEMBER_BYTES)
    monkeypatch.setenv("ERRDEX_LIMIT_ARCHIVE_RATIO", "100000")
    with open_source(str(archive)) as tree:
        assert len(tree.files) == 4
    monkeypatch.setenv("ERRDEX_LIMIT_ARCHIVE_RATIO", "10")
    monkeypatch.setenv("ERRDEX_LIMIT_ARCHIVE_RATIO_FLOOR", "1k")
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(SourceError, match=r"expands \d+x.*limit archive_ratio = 10x"), open_source(str(_hostile(other, "zip", 4))):
        pass


def test_unpack_cache_keeps_the_most_recently_used_within_its_bytes(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    sdist_dir, zip_dir = tmp_path / "a", tmp_path / "b"
    sdist_dir.mkdir()
    zip_dir.mkdir()
    sdist, flat = build_sdist(sdist_dir), build_zip(zip_dir)
    with open_source(str(sdist)) as tree:
        sdist_copy = tree.root
    sdist_bytes = _left_on_disk()
    # Room for about one copy: unpacking the zip removes the sdist's (least recently used) copy.
    monkeypatch.setenv("ERRDEX_LIMIT_UNPACK_CACHE_BYTES", str(sdist_bytes + 64))
    with open_source(str(flat)) as tree:
        flat_copy = tree.root
    assert flat_copy.exists() and not sdist_copy.exists()
    # Used again, the zip's copy is the most recent: the sdist's new copy pushes nothing it needs.
    with open_source(str(flat)) as tree:
        assert tree.root == flat_copy
    with open_source(str(sdist)) as tree:
        assert tree.root.exists()
    assert not flat_copy.exists()


def test_prune_removes_stale_temporary_directories(tmp_path: Path) -> None:
    base = tmp_path / "unpacked"
    stale, fresh = base / ".tmp-dead", base / ".tmp-alive"
    for d in (stale, fresh):
        d.mkdir(parents=True)
        (d / "x.py").write_bytes(b"x" * 100)
    old = time.time() - 2 * 3600
    os.utime(stale, (old, old))
    prune(base, 1 << 30)
    assert not stale.exists() and fresh.exists()
