"""The phase-1 result cache: the same result as a fresh extraction, and only changed files parsed."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from extract_helpers import FIXTURES, tree_of

from errdex.extract import extract_tree, worker
from errdex.extract.cache import ResultCache, extractor_version
from errdex.model import ExtractResult

SHAPES = FIXTURES / "extract_shapes"


def _corrupt_all(cache: ResultCache) -> None:
    db = sqlite3.connect(cache.path)
    with db:
        db.execute("UPDATE results SET blob = substr(blob, 1, 20) WHERE rowid % 2 = 0")
        db.execute("UPDATE results SET blob = CAST('not a pickle' AS BLOB) WHERE rowid % 2 = 1")
    db.close()


def _extract(root: Path, cache: ResultCache | None, jobs: int = 1) -> ExtractResult:
    return extract_tree(tree_of(root), jobs=jobs, cache=cache)


@pytest.fixture
def pkg(tmp_path: Path) -> Path:
    root = tmp_path / "pkg"
    shutil.copytree(SHAPES, root)
    return root


@pytest.fixture
def cache(tmp_path: Path) -> ResultCache:
    return ResultCache.open(tmp_path / "cache")


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths phase 1 really parses (inline runs only: a pool's workers are other processes)."""
    seen: list[str] = []
    real = worker.process_data

    def spy(path: str, data: bytes, is_test: bool) -> object:
        seen.append(path)
        return real(path, data, is_test)

    monkeypatch.setattr(worker, "process_data", spy)
    return seen


def test_a_cached_run_gives_the_result_of_a_fresh_one(pkg: Path, cache: ResultCache, parsed: list[str]) -> None:
    fresh = _extract(pkg, None)
    first = _extract(pkg, cache)
    n_files = len(tree_of(pkg).files)
    assert len(parsed) == 2 * n_files  # the uncached run, then the first cached run: every file
    assert cache.count() == n_files
    parsed.clear()
    second = _extract(pkg, cache)
    assert parsed == []  # every file came from the cache
    assert first == fresh
    assert second == fresh


def test_only_the_changed_file_is_parsed_again(pkg: Path, cache: ResultCache, parsed: list[str]) -> None:
    _extract(pkg, cache)
    target = next(f for f in tree_of(pkg).files if not f.is_test and f.path.endswith(".py"))
    target.abspath.write_text(target.abspath.read_text() + "\n\ndef added():\n    raise KeyError('a new raise')\n")
    parsed.clear()
    again = _extract(pkg, cache)
    assert parsed == [target.path]
    assert any(s.qualname == "added" and s.path == target.path for s in again.sites)
    assert again == _extract(pkg, None)


def test_the_pool_reads_and_writes_the_same_cache(pkg: Path, cache: ResultCache) -> None:
    for i in range(30):  # over the inline threshold, so the workers do the caching
        (pkg / "shapes" / f"extra_{i}.py").write_text(f"def f{i}(x):\n    raise ValueError(f'extra {i}: {{x}}')\n")
    pooled = _extract(pkg, cache, jobs=2)
    assert cache.count() == len(tree_of(pkg).files)
    assert _extract(pkg, cache, jobs=2) == pooled == _extract(pkg, None, jobs=1)


def test_a_corrupt_entry_is_a_miss(pkg: Path, cache: ResultCache, parsed: list[str]) -> None:
    fresh = _extract(pkg, cache)
    _corrupt_all(cache)
    parsed.clear()
    assert _extract(pkg, cache) == fresh
    assert len(parsed) == len(tree_of(pkg).files)


def test_strict_mode_and_the_path_are_part_of_the_key(pkg: Path, cache: ResultCache,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ERRDEX_STRICT", raising=False)
    lenient = cache.key("a.py", b"raise X\n", False, 100)
    monkeypatch.setenv("ERRDEX_STRICT", "1")
    assert cache.key("a.py", b"raise X\n", False, 100) != lenient
    assert cache.key("b.py", b"raise X\n", False, 100) != cache.key("a.py", b"raise X\n", False, 100)
    assert cache.key("a.py", b"raise X\n", True, 100) != cache.key("a.py", b"raise X\n", False, 100)


def test_other_extractor_versions_are_removed_and_size_is_capped(tmp_path: Path, pkg: Path) -> None:
    base = tmp_path / "c"
    stale = base / "0123456789abcdef" / "ab"
    stale.mkdir(parents=True)
    (stale / "old").write_bytes(b"x")
    cache = ResultCache.open(base, max_bytes=1)
    assert [p.name for p in base.iterdir()] == [extractor_version()]
    _extract(pkg, cache)
    assert cache.count() > 1
    assert cache.prune() > 0
    assert cache.count() <= 1
