"""kill -9 in the middle of writing a snapshot leaves the catalog exactly as it was.

The writer is a real separate process, killed with SIGKILL while its
transaction is open (after every row of the new snapshot has been inserted
and before COMMIT): the earlier snapshot must be intact, the new one absent,
and (SQLite) the file's integrity check clean.  Run on both backends.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from catalog_data import BAD_UNIT, EMPTY_SIZE, result, snapshot

from errdex.catalog import SqliteCatalog, open_catalog

OLD = snapshot("a", "2024-01-01T10:00:00+00:00")

CHILD = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, {tests!r})
    from catalog_data import result, site, snapshot
    from errdex.catalog import open_catalog
    from errdex.catalog.sql import SqlCatalog

    original = SqlCatalog._insert_facts

    def insert_then_hang(self, db, sid, res):
        original(self, db, sid, res)
        assert db.fetchone("SELECT count(*) FROM sites")[0] >= 20000
        print("inserted", flush=True)
        time.sleep(120)

    SqlCatalog._insert_facts = insert_then_hang
    cat = open_catalog({url!r})
    many = tuple(site(f"generated failure {{i}}", line=i + 1) for i in range(20000))
    which = snapshot("a", "2024-01-01T10:00:00+00:00") if sys.argv[1] == "same" else snapshot("b", "2025-01-01T00:00:00+00:00")
    cat.replace_snapshot(which, result(*many))
    """
)


def _kill_mid_write(tmp_path: Path, url: str, mode: str) -> None:
    script = tmp_path / "writer.py"
    script.write_text(CHILD.format(tests=str(Path(__file__).parent), url=url))
    proc = subprocess.Popen([sys.executable, str(script), mode], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "inserted"
        if "://" not in url:
            assert Path(url + "-wal").exists()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL


def _assert_intact(url: str, generation: str) -> None:
    cat = open_catalog(url)
    try:
        if isinstance(cat, SqliteCatalog):
            assert cat.integrity_check() == "ok"
        assert [s.key for s in cat.snapshots()] == [OLD.key]
        assert sorted(s.line for s in cat.sites(OLD.key)) == [14, 19]
        assert cat.site_count() == 2
        assert [s.line for _, s in cat.search("unknown size unit")] == [19]
        assert cat.search("generated failure") == []
        (stats,) = cat.stats()
        assert stats.sites == 2
        assert cat.generation() == generation
    finally:
        cat.close()


def _seed(url: str) -> str:
    cat = open_catalog(url)
    try:
        cat.replace_snapshot(OLD, result(EMPTY_SIZE, BAD_UNIT))
        return cat.generation()
    finally:
        cat.close()


def test_kill_while_replacing_the_same_snapshot(tmp_path: Path, catalog_url: str) -> None:
    generation = _seed(catalog_url)
    _kill_mid_write(tmp_path, catalog_url, "same")
    _assert_intact(catalog_url, generation)


def test_kill_while_adding_another_snapshot(tmp_path: Path, catalog_url: str) -> None:
    generation = _seed(catalog_url)
    _kill_mid_write(tmp_path, catalog_url, "other")
    _assert_intact(catalog_url, generation)
    # And the catalog is writable again afterwards (no stale lock).
    cat = open_catalog(catalog_url)
    try:
        cat.replace_snapshot(snapshot("b", "2025-01-01T00:00:00+00:00"), result(EMPTY_SIZE))
        assert len(cat.snapshots()) == 2
    finally:
        cat.close()
