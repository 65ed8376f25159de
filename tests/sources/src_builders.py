"""Builders for the archives the source tests read: made here from the fixture packages.

Wheels and sdists are written with zipfile/tarfile exactly as a build backend
lays them out (dist-info METADATA, PKG-INFO, a ``name-version/`` top folder),
so the tests do not depend on a build backend being installed.
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TINYLIB = FIXTURES / "src_tinylib"
FLATPKG = FIXTURES / "src_flatpkg"
COLOCATED = FIXTURES / "src_colocated"  # cirq-style tests beside their modules, SciPy-style statistical tests

METADATA = """Metadata-Version: 2.1
Name: tinylib
Version: 1.2.3
Summary: A tiny library used by errdex's source tests.
Project-URL: Homepage, https://tinylib.example.org
Project-URL: Source, https://github.com/example-org/tinylib
"""


def tree_files(root: Path) -> Iterator[tuple[str, bytes]]:
    for p in sorted(root.rglob("*")):
        if p.is_file():
            yield p.relative_to(root).as_posix(), p.read_bytes()


def build_wheel(dest: Path) -> Path:
    wheel = dest / "tinylib-1.2.3-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for rel, data in tree_files(TINYLIB / "src"):
            zf.writestr(rel, data)
        zf.writestr("tinylib-1.2.3.dist-info/METADATA", METADATA)
        zf.writestr("tinylib-1.2.3.dist-info/WHEEL", "Wheel-Version: 1.0\n")
        zf.writestr("tinylib-1.2.3.dist-info/RECORD", "")
    return wheel


def build_sdist(dest: Path) -> Path:
    sdist = dest / "tinylib-1.2.3.tar.gz"
    with tarfile.open(sdist, "w:gz") as tf:
        for rel, data in [*tree_files(TINYLIB), ("PKG-INFO", METADATA.encode())]:
            info = tarfile.TarInfo(f"tinylib-1.2.3/{rel}")
            info.size = len(data)
            info.mtime = 1_700_000_000
            tf.addfile(info, io.BytesIO(data))
    return sdist


def build_zip(dest: Path) -> Path:
    archive = dest / "flatpkg-0.1.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for rel, data in tree_files(FLATPKG):
            zf.writestr(f"flatpkg-0.1/{rel}", data)
    return archive


def tar_with(dest: Path, members: list[tarfile.TarInfo], data: dict[str, bytes] | None = None) -> Path:
    """A .tar.gz holding exactly ``members`` (hostile ones included)."""
    archive = dest / "hostile-1.0.tar.gz"
    data = data or {}
    with tarfile.open(archive, "w:gz") as tf:
        for m in members:
            payload = data.get(m.name)
            if payload is not None:
                m.size = len(payload)
                tf.addfile(m, io.BytesIO(payload))
            else:
                tf.addfile(m)
    return archive
