"""Wheels, sdists and zips: what they yield, and hostile archives refused with a clear error."""

from __future__ import annotations

import stat
import tarfile
import zipfile
from pathlib import Path

import pytest
from src_builders import build_sdist, build_wheel, build_zip, tar_with

from errdex.extract import extract_tree
from errdex.limits import Limits
from errdex.sources import SourceError, SourceTree, open_source
from errdex.sources.archives import unpack_tar, unpack_zip
from errdex.sources.inplace import read_member


def open_source_tree(path: Path) -> SourceTree:
    with open_source(str(path)) as tree:
        return tree


def test_wheel_gives_package_paths_and_github_ref(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    with open_source(str(wheel)) as tree:
        snap = tree.snapshot
        assert [f.path for f in tree.files] == ["tinylib/__init__.py", "tinylib/core.py", "tinylib/errors.py"]
        assert (snap.source_kind, snap.repo, snap.version, snap.ref) == ("wheel", "example-org/tinylib", "1.2.3", "v1.2.3")
        assert snap.url_base == "https://github.com/example-org/tinylib/blob/v1.2.3"
        assert snap.source == str(wheel.resolve())
        core = next(f for f in tree.files if f.path == "tinylib/core.py")
        assert (core.abspath, core.member) == (wheel.resolve(), "tinylib/core.py")
        assert read_member(str(core.abspath), core.member, 1 << 20).startswith(b'"""Parsing of sizes')


def test_a_wheel_is_read_in_place_not_unpacked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_HOME", str(tmp_path / "home"))
    wheel = build_wheel(tmp_path)
    result = extract_tree(open_source_tree(wheel), jobs=1)
    assert {s.path for s in result.sites} >= {"tinylib/core.py"}
    assert not (tmp_path / "home" / "cache" / "unpacked").exists()


def test_a_wheel_member_that_lies_about_its_size_fails_only_that_file(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel, "a") as zf:
        zf.writestr("tinylib/liar.py", "raise ValueError('x')\n" * 50)
    data = bytearray(wheel.read_bytes())
    # shrink the declared size in the central directory entry of the last member
    cd = data.rfind(b"PK\x01\x02", 0, data.rfind(b"tinylib/liar.py"))
    size_at = cd + 24  # uncompressed size field of the central directory header
    data[size_at:size_at + 4] = (10).to_bytes(4, "little")
    wheel.write_bytes(bytes(data))
    result = extract_tree(open_source_tree(wheel), jobs=1)
    (failure,) = result.failures
    assert failure.path == "tinylib/liar.py" and "archive member" in failure.reason
    assert {s.path for s in result.sites} >= {"tinylib/core.py"}


def test_too_large_member_is_a_file_failure(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    with open_source(str(wheel)) as tree:
        core = next(f for f in tree.files if f.path == "tinylib/core.py")
    with pytest.raises(ValueError, match="file too large"):
        read_member(str(core.abspath), core.member, 10)


def test_unpacked_copy_is_cached_by_content(tmp_path: Path) -> None:
    sdist = build_sdist(tmp_path)
    with open_source(str(sdist)) as tree:
        first = tree.root
        core = next(f.abspath for f in tree.files if f.path.endswith("core.py"))
        mtime = core.stat().st_mtime_ns
    with open_source(str(sdist)) as tree:
        assert tree.root == first and core.stat().st_mtime_ns == mtime  # reused, not rewritten
    # Same name, different content: a different copy.
    other = tmp_path / "other"
    other.mkdir()
    rebuilt = build_zip(other)
    with open_source(str(rebuilt)) as tree:
        assert tree.root != first
    assert not [p for p in first.parent.iterdir() if p.name.startswith(".tmp-")]


def test_sdist_strips_top_folder_and_src(tmp_path: Path) -> None:
    sdist = build_sdist(tmp_path)
    with open_source(str(sdist), ref="release-1.2.3") as tree:
        snap = tree.snapshot
        assert {f.path: f.is_test for f in tree.files} == {
            "tinylib/__init__.py": False, "tinylib/core.py": False, "tinylib/errors.py": False,
            "tests/conftest.py": True, "tests/test_core.py": True,
        }
        assert (snap.source_kind, snap.repo, snap.ref, snap.path_prefix) == (
            "sdist", "example-org/tinylib", "release-1.2.3", "src/",
        )
        assert snap.date == "2023-11-14T22:13:20+00:00"


def test_zip_without_metadata_is_local(tmp_path: Path) -> None:
    archive = build_zip(tmp_path)
    with open_source(str(archive)) as tree:
        assert tree.snapshot.source_kind == "zip"
        assert tree.snapshot.repo == "local/flatpkg"
        assert tree.snapshot.url_base == ""
        assert "flatpkg/sub/shapes.py" in {f.path for f in tree.files}
        assert not any(f.path.endswith(".txt") for f in tree.files)


@pytest.mark.parametrize("name", ["../evil.py", "pkg/../../evil.py", "/etc/evil.py", "C:/evil.py", "..\\evil.py"])
def test_zip_path_traversal_refused(tmp_path: Path, name: str) -> None:
    archive = tmp_path / "evil-1.0.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("pkg/ok.py", "x = 1\n")
        zf.writestr(name, "raise SystemExit('escaped')\n")
    with pytest.raises(SourceError, match=r"refusing member .*(absolute|escapes)") as info, open_source(str(archive)):
        pass
    assert str(archive) in str(info.value)
    assert not (tmp_path / "evil.py").exists()


def test_tar_path_traversal_refused(tmp_path: Path) -> None:
    archive = tar_with(tmp_path, [tarfile.TarInfo("hostile-1.0/../../evil.py")], {"hostile-1.0/../../evil.py": b"x=1\n"})
    with pytest.raises(SourceError, match="escapes the archive root"), open_source(str(archive)):
        pass


def test_tar_symlink_escape_not_followed(tmp_path: Path) -> None:
    """A link to / followed by a file "inside" it must not write through the link."""
    outside = tmp_path / "outside"
    outside.mkdir()
    link = tarfile.TarInfo("hostile-1.0/pkg/link")
    link.type = tarfile.SYMTYPE
    link.linkname = str(outside)
    hard = tarfile.TarInfo("hostile-1.0/pkg/passwd.py")
    hard.type = tarfile.LNKTYPE
    hard.linkname = "/etc/passwd"
    through = tarfile.TarInfo("hostile-1.0/pkg/link/planted.py")
    code = tarfile.TarInfo("hostile-1.0/pkg/__init__.py")
    archive = tar_with(tmp_path, [link, hard, through, code],
                       {"hostile-1.0/pkg/link/planted.py": b"x = 1\n", "hostile-1.0/pkg/__init__.py": b"y = 2\n"})
    with open_source(str(archive)) as tree:
        paths = {f.path for f in tree.files}
        assert paths == {"pkg/__init__.py", "pkg/link/planted.py"}
        assert not (tree.root / "pkg" / "link").is_symlink()
        assert not (tree.root / "pkg" / "passwd.py").exists()
    assert list(outside.iterdir()) == []


def test_zip_symlink_member_not_created(tmp_path: Path) -> None:
    archive = tmp_path / "links-1.0.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        info = zipfile.ZipInfo("pkg/escape.py")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, "/etc/passwd")
        zf.writestr("pkg/__init__.py", "")
        zf.writestr("pkg/real.py", "x = 1\n")
    with open_source(str(archive)) as tree:
        assert [f.path for f in tree.files] == ["pkg/__init__.py", "pkg/real.py"]
        assert not (tree.root / "pkg" / "escape.py").exists()


@pytest.mark.parametrize("suffix", ["zip", "whl"])  # unpacked, and read in place
def test_zip_bomb_refused(tmp_path: Path, suffix: str) -> None:
    archive = tmp_path / f"bomb-1.0.{suffix}"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("pkg/__init__.py", "x = 1\n")
        zf.writestr("pkg/huge.py", b"\0" * (64 * 1024**2))
    assert archive.stat().st_size < 1024**2
    with pytest.raises(SourceError, match=r"pkg/huge.py.*expands \d+x.*zip bomb"), open_source(str(archive)):
        pass


def test_tar_bomb_refused(tmp_path: Path) -> None:
    data = b"\0" * (64 * 1024**2)
    archive = tar_with(tmp_path, [tarfile.TarInfo("hostile-1.0/huge.py")], {"hostile-1.0/huge.py": data})
    with pytest.raises(SourceError, match="compression bomb"), open_source(str(archive)):
        pass


def test_total_size_and_member_limits(tmp_path: Path) -> None:
    archive = tmp_path / "many-1.0.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for i in range(30):
            zf.writestr(f"pkg/m{i}.py", f"x = {i}\n" * 100)
    with pytest.raises(SourceError, match=r"30 members \(limit 20\)"):
        unpack_zip(archive, tmp_path / "out1", limits=Limits(archive_members=20))
    with pytest.raises(SourceError, match="more than 5000 bytes"):
        unpack_zip(archive, tmp_path / "out2", limits=Limits(archive_bytes=5000))
    sdist = build_sdist(tmp_path)
    with pytest.raises(SourceError, match="more than 3 members"):
        unpack_tar(sdist, tmp_path / "out3", limits=Limits(archive_members=3))


def test_corrupt_archives_are_clear_errors(tmp_path: Path) -> None:
    bad = tmp_path / "broken-1.0.whl"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(SourceError, match="not a readable zip file"), open_source(str(bad)):
        pass
    bad_tar = tmp_path / "broken-1.0.tar.gz"
    bad_tar.write_bytes(b"\x1f\x8b\x08 truncated")
    with pytest.raises(SourceError, match="tar archive"), open_source(str(bad_tar)):
        pass
    with pytest.raises(SourceError, match="no such file"), open_source(str(tmp_path / "missing-1.0.whl")):
        pass
