"""Turn a directory on disk into the SourceFiles that extraction reads.

One walker for every source kind (directories, git checkouts, unpacked
archives, installed distributions) so that the rules for what counts as code
and what counts as a test live in one place.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path, PurePosixPath

from errdex.sources.base import SourceFile

# Folders that never hold the library's own code: caches, VCS metadata and
# virtual environments a developer may keep inside a checkout.
SKIP_DIRS = frozenset({
    "__pycache__", ".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", "node_modules", ".eggs",
})
TEST_DIRS = frozenset({"tests", "test"})


def is_test_path(path: str) -> bool:
    """True for files under a ``tests``/``test`` folder, ``conftest.py`` and ``test_*.py`` modules.

    Tests are evidence of when an error happens, never error sites themselves.
    This judges one path alone; a ``*_test.py`` module outside a test folder is
    decided with the rest of the tree by ``colocated_tests`` (``tree_tests``
    applies both, and every source builds its SourceFiles through it).
    """
    parts = PurePosixPath(path).parts
    name = parts[-1] if parts else ""
    if any(p in TEST_DIRS for p in parts[:-1]):
        return True
    return name.startswith("test_") or name == "conftest.py"


def colocated_tests(paths: Iterable[str]) -> frozenset[str]:
    """The ``X_test.py`` modules of ``paths`` that test a module beside them (Go/Google style).

    A module ``X_test.py`` whose sibling ``X.py`` is in the same folder of the
    tree is that module's test (cirq's ``cirq/work/sampler.py`` and
    ``sampler_test.py``, fire's ``fire/core.py`` and ``core_test.py``).  In a
    folder where at least two ``*_test.py`` modules have such a sibling and they
    are most of its ``*_test.py`` modules, the others are tests too: the same
    suite's tests of the folder itself or of several modules (cirq's
    ``contrib/qcircuit/qcircuit_test.py``, ``protocols/hash_from_pickle_test.py``).
    A ``*_test.py`` with no sibling in a folder without such a suite stays library
    code: SciPy's ``stats/_bws_test.py`` and ``_page_trend_test.py`` are
    statistical tests (there is no ``_bws.py``), deal's ``_mem_test.py`` and
    ``_cli/_test.py`` are its ``deal test`` command.
    """
    by_folder: dict[str, set[str]] = {}
    for path in paths:
        folder, _, name = path.rpartition("/")
        by_folder.setdefault(folder, set()).add(name)
    found: set[str] = set()
    for folder, names in by_folder.items():
        tests = [n for n in names if n.endswith("_test.py") and len(n) > len("_test.py")]
        paired = [n for n in tests if n.removesuffix("_test.py") + ".py" in names]
        suite = len(paired) >= 2 and 2 * len(paired) > len(tests)
        found.update(f"{folder}/{n}" if folder else n for n in (tests if suite else paired))
    return frozenset(found)


def tree_tests(paths: Iterable[str]) -> frozenset[str]:
    """The paths of a tree that are tests: ``is_test_path`` alone, or ``colocated_tests`` over all of them."""
    listed = list(paths)
    return frozenset(p for p in listed if is_test_path(p)) | colocated_tests(listed)


def with_tests(files: Iterable[SourceFile]) -> tuple[SourceFile, ...]:
    """``files`` with ``is_test`` decided over the whole tree by ``tree_tests``."""
    listed = tuple(files)
    tests = tree_tests(f.path for f in listed)
    return tuple(f if f.is_test == (f.path in tests) else replace(f, is_test=f.path in tests) for f in listed)


def walk_python_files(root: Path) -> tuple[SourceFile, ...]:
    """Every ``.py`` file under ``root``, sorted by package-relative path.

    Symbolic links are not followed (a link could point anywhere on the
    machine), so a tree can never make extraction read outside ``root``.
    """
    root = root.resolve()
    found: list[SourceFile] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.endswith(".egg-info"))
        here = Path(dirpath)
        for name in filenames:
            if not name.endswith(".py"):
                continue
            full = here / name
            if full.is_symlink() or not full.is_file():
                continue
            rel = full.relative_to(root).as_posix()
            found.append(SourceFile(path=rel, abspath=full))
    found.sort(key=lambda f: f.path)
    return with_tests(found)


def keep_python_path(posix: PurePosixPath) -> bool:
    """A relative ``.py`` path inside the root and outside the folders that never hold library code."""
    if posix.is_absolute() or ".." in posix.parts or posix.suffix != ".py":
        return False
    return not any(p in SKIP_DIRS or p.endswith(".egg-info") for p in posix.parts[:-1])


def files_from_list(root: Path, relpaths: Iterable[str]) -> tuple[SourceFile, ...]:
    """SourceFiles for an explicit list of paths under ``root`` (installed distributions).

    Paths that leave ``root`` (``../../bin/x``) or are not regular ``.py``
    files are dropped: a distribution's RECORD is data, not a promise.
    """
    root = root.resolve()
    out: dict[str, SourceFile] = {}
    for rel in relpaths:
        posix = PurePosixPath(rel.replace(os.sep, "/"))
        if not keep_python_path(posix):
            continue
        full = root.joinpath(*posix.parts)
        if full.is_symlink() or not full.is_file():
            continue
        key = posix.as_posix()
        out[key] = SourceFile(path=key, abspath=full)
    return with_tests(out[k] for k in sorted(out))


def package_layout(root: Path) -> tuple[tuple[SourceFile, ...], str]:
    """The files of a project tree and the prefix that maps their paths back to the repo.

    In a ``src/`` layout the importable package lives at ``src/pkg``; sites
    use the package-relative path (``pkg/mod.py``, the same as a wheel of the
    project) and the snapshot's ``path_prefix`` (``src/``) restores the repo
    path for links.  Only the code under ``src/`` and the tests are kept:
    ``setup.py``, ``docs/conf.py`` and the like are not the library.
    """
    src = root / "src"
    is_project = any((root / n).is_file() for n in ("pyproject.toml", "setup.py", "setup.cfg"))
    if is_project and src.is_dir() and not src.is_symlink() and any(src.glob("*/__init__.py")):
        inner = walk_python_files(src)
        outer = [f for f in walk_python_files(root) if f.is_test and not f.path.startswith("src/")]
        return tuple(sorted([*inner, *outer], key=lambda f: f.path)), "src/"
    return walk_python_files(root), ""
