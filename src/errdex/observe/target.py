"""What to observe: the distribution behind a SOURCE, and where its tests are.

From the SOURCE of ``errdex index`` we need what the sandbox installs (the
indexed artifact itself, its name and version, its Requires-Python and
metadata) and a project tree holding tests: ``--tests PATH`` (a tests
folder, test files, or a checkout of the repository), else the sdist's or
checkout's tests folder, else tests shipped inside a wheel, else, for a
``pypi:`` wheel without tests, the sdist of the same version (downloaded as
a file, never built).  Nothing here runs the library's code.
"""

from __future__ import annotations

import email.parser
import re
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

from errdex.sources.local import archive_kind

CONFIG_FILES = ("pyproject.toml", "setup.cfg", "pytest.ini", "tox.ini", "conftest.py")
TEST_DIRS = ("tests", "test", "testing")


class TargetError(Exception):
    """The SOURCE or its tests cannot be used: the message says what to pass instead."""


@dataclass(frozen=True, slots=True)
class Distribution:
    """The installable thing the snapshot was indexed from."""

    name: str
    version: str
    artifact: Path | None  # wheel, sdist or project directory; None: install name==version
    requires_python: str | None = None
    metadata: str = ""  # METADATA / PKG-INFO text


@dataclass(frozen=True, slots=True)
class TestTree:
    """A project root (config files, conftest) and the test files to run, relative to it."""

    __test__ = False

    root: Path
    files: tuple[str, ...]
    origin: str  # for the record: "sdist", "checkout", "--tests", "wheel"


def _split_archive_name(path: Path) -> tuple[str, str]:
    name = path.name
    if name.endswith(".whl"):
        parts = name.split("-")
        return parts[0], parts[1] if len(parts) > 1 else ""
    for suffix in (".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip", ".tar"):
        if name.endswith(suffix):
            stem = name[: -len(suffix)]
            base, _, version = stem.rpartition("-")
            return base, version
    return name, ""


def _wheel_metadata(path: Path) -> str:
    try:
        with zipfile.ZipFile(path) as zf:
            for member in zf.namelist():
                if member.count("/") == 1 and member.endswith(".dist-info/METADATA"):
                    return zf.read(member).decode("utf-8", "replace")
    except (zipfile.BadZipFile, OSError, KeyError):
        return ""
    return ""


def _header(metadata: str, field: str) -> str | None:
    if not metadata:
        return None
    value = email.parser.HeaderParser().parsestr(metadata).get(field)
    return str(value) if value else None


def distribution_of(artifact: Path, sdist_root: Path | None, fallback_version: str | None) -> Distribution:
    """Name, version and Requires-Python of an archive (its metadata) or a project directory."""
    if artifact.is_dir():
        data: dict[str, object] = {}
        with_pyproject = artifact / "pyproject.toml"
        if with_pyproject.is_file():
            try:
                data = tomllib.loads(with_pyproject.read_text(encoding="utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError):
                data = {}
        project = data.get("project") if isinstance(data.get("project"), dict) else {}
        assert isinstance(project, dict)
        name = str(project.get("name") or artifact.name)
        version = str(project.get("version") or fallback_version or "0")
        rp = project.get("requires-python")
        return Distribution(name=name, version=version, artifact=artifact,
                            requires_python=str(rp) if rp else None)
    metadata = ""
    if archive_kind(artifact) == "wheel":
        metadata = _wheel_metadata(artifact)
    elif sdist_root is not None and (sdist_root / "PKG-INFO").is_file():
        metadata = (sdist_root / "PKG-INFO").read_text(encoding="utf-8", errors="replace")
    name, version = _split_archive_name(artifact)
    name = _header(metadata, "Name") or name
    version = _header(metadata, "Version") or fallback_version or version
    return Distribution(name=name, version=version, artifact=artifact,
                        requires_python=_header(metadata, "Requires-Python"), metadata=metadata)


def is_test_file(name: str) -> bool:
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def _test_files(folder: Path, root: Path) -> list[str]:
    out = []
    for p in sorted(folder.rglob("*.py")):
        rel = p.relative_to(root)
        if is_test_file(p.name) and not any(part.startswith(".") or part in ("__pycache__", "node_modules")
                                            for part in rel.parts):
            out.append(rel.as_posix())
    return out


def _project_root(start: Path) -> Path:
    """The nearest folder at or above ``start`` with a project or pytest configuration."""
    for folder in (start, *start.parents):
        if any((folder / c).is_file() for c in CONFIG_FILES[:4]):
            return folder
    return start


def tests_in(paths: list[Path]) -> TestTree:
    """``--tests``: folders and files; a checkout's root means its tests folder."""
    resolved = [p.expanduser().resolve() for p in paths]
    for p in resolved:
        if not p.exists():
            raise TargetError(f"--tests {p}: no such file or directory")
    first = resolved[0]
    if first.is_dir() and any((first / d).is_dir() for d in TEST_DIRS) and len(resolved) == 1:
        root = first
        folders = [first / d for d in TEST_DIRS if (first / d).is_dir()]
        found = [f for folder in folders for f in _test_files(folder, root)]
        return TestTree(root=root, files=tuple(found), origin="--tests")
    root = _project_root(first if first.is_dir() else first.parent)
    files: list[str] = []
    for p in resolved:
        if not p.is_relative_to(root):
            raise TargetError(f"--tests {p}: not inside the project at {root} (give test paths of one project)")
        files += _test_files(p, root) if p.is_dir() else [p.relative_to(root).as_posix()]
    return TestTree(root=root, files=tuple(dict.fromkeys(files)), origin="--tests")


def tests_of_project(root: Path, origin: str) -> TestTree | None:
    """The tests folder(s) of an sdist or checkout, or test modules shipped in a package."""
    files: list[str] = []
    for d in TEST_DIRS:
        if (root / d).is_dir():
            files += _test_files(root / d, root)
    if not files:
        # Tests inside the package (``pkg/tests/test_x.py``).
        for p in sorted(root.rglob("test*/")):
            if p.is_dir() and p.name in TEST_DIRS and ".errdex" not in p.as_posix():
                files += _test_files(p, root)
    if not files:
        return None
    return TestTree(root=root, files=tuple(dict.fromkeys(files)), origin=origin)


def package_roots(paths: list[str]) -> tuple[str, ...]:
    """Top-level packages (``click``) or modules (``six.py``) of the indexed, non-test files."""
    tops = set()
    for p in paths:
        top = p.split("/", 1)[0]
        if re.fullmatch(r"[A-Za-z_][\w]*(\.py)?", top):
            tops.add(top)
    return tuple(sorted(tops))
