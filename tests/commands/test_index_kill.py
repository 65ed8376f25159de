"""kill -9 of a real ``errdex index`` while it writes: the catalog stays as it was.

A generated package large enough that writing its snapshot takes a while is
indexed once; then ``errdex index`` runs again (same snapshot, and a new
commit) and is killed with SIGKILL as soon as it starts writing the catalog
(the moment its write-ahead log, truncated beforehand, grows).  The earlier
snapshot must be intact, the interrupted one absent, and SQLite's integrity
check clean.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from errdex.catalog import SqliteCatalog

MODULES = 150
FUNCS = 40

pytestmark = pytest.mark.slow


def _git(cwd: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "T",
           "GIT_COMMITTER_EMAIL": "t@example.org", "HOME": str(cwd), "PATH": "/usr/bin:/bin"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()


def _make_package(root: Path) -> None:
    pkg = root / "biglib"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text('"""biglib: generated to make indexing take a while."""\n')
    for m in range(MODULES):
        lines = [f'"""Module {m} of biglib."""', ""]
        for f in range(FUNCS):
            lines += [
                f"def check_{f}(value, limit):",
                f'    """Check number {f} of module {m}."""',
                "    if value > limit:",
                f'        raise ValueError(f"value {{value}} exceeds the limit {{limit}} in check {f} of module {m}")',
                "    return value",
                "",
            ]
        (pkg / f"mod_{m}.py").write_text("\n".join(lines))


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, ERRDEX_HOME=str(tmp_path / "home"), ERRDEX_DB=str(tmp_path / "catalog.sqlite"))
    env.pop("ERRDEX_STRICT", None)
    return env


def _truncate_wal(db: Path) -> None:
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def _index_and_kill_when_writing(env: dict[str, str], repo: Path, db: Path) -> None:
    _truncate_wal(db)
    wal = db.with_name(db.name + "-wal")
    proc = subprocess.Popen([sys.executable, "-m", "errdex", "index", str(repo)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            if wal.exists() and wal.stat().st_size > 0:
                os.kill(proc.pid, signal.SIGKILL)
                break
            time.sleep(0.002)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL, "errdex index finished before it could be killed mid-write"


def test_kill_minus_9_mid_index_leaves_catalog_as_it_was(tmp_path: Path) -> None:
    repo = tmp_path / "biglib"
    _make_package(repo)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "v1")
    _git(repo, "remote", "add", "origin", "https://github.com/example-org/biglib.git")
    first = _git(repo, "rev-parse", "HEAD")
    env = _env(tmp_path)
    db = Path(env["ERRDEX_DB"])

    done = subprocess.run([sys.executable, "-m", "errdex", "index", str(repo)], env=env, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    with SqliteCatalog(db) as cat:
        generation = cat.generation()
        count = cat.site_count()
    assert count == MODULES * FUNCS

    def assert_as_before() -> None:
        with SqliteCatalog(db) as cat:
            assert cat.integrity_check() == "ok"
            assert [s.key for s in cat.snapshots()] == [f"example-org/biglib@{first}"]
            assert cat.site_count() == count
            assert sum(1 for _ in cat.sites()) == count
            assert cat.generation() == generation
            assert len(cat.search("exceeds the limit check 39 module 149")) == 1

    # 1. Re-indexing the same snapshot, killed while replacing it.
    _index_and_kill_when_writing(env, repo, db)
    assert_as_before()

    # 2. A new commit, killed while adding its snapshot.
    (repo / "biglib" / "mod_0.py").write_text('def f():\n    raise KeyError("brand new error")\n')
    _git(repo, "commit", "-q", "-am", "v2")
    _index_and_kill_when_writing(env, repo, db)
    assert_as_before()

    # The catalog is usable afterwards: the new commit indexes normally.
    done = subprocess.run([sys.executable, "-m", "errdex", "index", str(repo)], env=env, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    with SqliteCatalog(db) as cat:
        assert len(cat.snapshots()) == 2
        assert len(cat.search("brand new error")) == 1
