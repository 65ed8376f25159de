"""``errdex index`` writes the same catalog whether extraction runs inline or on the pool, cached or not.

The fixture package is errdex's own source (some 190 real modules, well
over the size below which the runner skips the pool), indexed as a
directory and as a wheel read in place.  Every table the index writes is
compared row by row, except the snapshot's ``sort_date``, which falls back
to the time of writing when a source has no date.
"""

from __future__ import annotations

import shutil
import sqlite3
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import cluster_helpers as H
import errdex
from errdex.catalog.sql import FACT_TABLES
from errdex.commands.index import run_index
from errdex.extract import runner

PACKAGE = Path(errdex.__file__).resolve().parent


def dump(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    conn = sqlite3.connect(db)
    try:
        out = {"snapshots": conn.execute("SELECT id, key, repo, seq, json, stats_json FROM snapshots ORDER BY id").fetchall(),
               "sites_fts": conn.execute("SELECT rowid, text FROM sites_fts ORDER BY rowid").fetchall()}
        for table in FACT_TABLES:
            out[table] = conn.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()
        return out
    finally:
        conn.close()


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("src") / "errdex"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "static", "templates"))
    return root


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["dir", "wheel"])
def test_inline_pool_and_cache_write_identical_catalogs(kind: str, package: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    source = package.parent if kind == "dir" else H.make_wheel(tmp_path / "dist", "errdex", "1.0", package)
    pools: list[int] = []
    real_pool = runner._pool

    def counting_pool(workers: int) -> Any:
        pools.append(workers)
        return real_pool(workers)

    monkeypatch.setattr(runner, "_pool", counting_pool)
    monkeypatch.setenv("ERRDEX_HOME", str(tmp_path / "home"))  # the result cache lives under it
    monkeypatch.delenv("ERRDEX_DB", raising=False)
    runs = {  # name: (jobs, result cache)
        "inline": (1, False), "pool": (2, False), "pool-cold-cache": (2, True), "pool-warm-cache": (2, True),
        "inline-warm-cache": (1, True),
    }
    catalogs: dict[str, dict[str, list[tuple[Any, ...]]]] = {}
    for name, (jobs, cache) in runs.items():
        db = tmp_path / f"{name}.sqlite"
        pools.clear()
        code = run_index([str(source)], repo="acme/errdex", commit=None, ref="1.0", db=str(db), jobs=jobs,
                         json_out=True, use_cache=cache)
        assert code == 0, capsys.readouterr().err
        assert pools == ([2] if jobs == 2 else []), f"{name}: the pool was {'not ' if jobs == 2 else ''}used"
        catalogs[name] = dump(db)
    capsys.readouterr()

    reference = catalogs["inline"]
    assert len(reference["sites"]) > 100 and len(reference["calls"]) > 1000
    assert len(reference["file_lines"]) > runner.INLINE_BELOW  # every file's line digests, from the one read
    assert len(reference["symbols"]) > runner.INLINE_BELOW
    for name, got in catalogs.items():
        for table, rows in reference.items():
            assert got[table] == rows, f"{name}: table {table} differs from the inline run's"


def test_the_progress_bar_starts_no_thread_so_the_pool_can_fork(package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal ``index`` draws a progress bar; a refresh thread would make the pool start a
    forkserver (fork is unsafe with threads), which re-imports the extractor before any parse."""
    from errdex.commands import index as cmd
    from errdex.model import Snapshot
    from errdex.sources.base import SourceTree
    from errdex.sources.files import walk_python_files

    threads: list[int] = []
    real_pool = runner._pool

    def watching_pool(workers: int) -> Any:
        threads.append(threading.active_count())
        return real_pool(workers)

    monkeypatch.setattr(runner, "_pool", watching_pool)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    before = threading.active_count()
    tree = SourceTree(Snapshot(repo="acme/errdex"), package.parent, walk_python_files(package.parent))
    result = cmd._extract(tree, 2, None)
    assert result.files_read == len(tree.files) > runner.INLINE_BELOW
    assert threads == [before]
