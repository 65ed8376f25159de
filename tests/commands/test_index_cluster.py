"""``errdex index --from-list / --cluster / --scheduler``: many sources as tasks, run as a user runs them.

Real components throughout: a process pool, a Dask LocalCluster errdex starts itself, a Dask
scheduler and workers started separately (``dask scheduler`` / ``dask worker``), a real
PostgreSQL server (``tests/catalog/pg_server.py``) and real SQLite files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import cluster_helpers as H

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "catalog"))
import pg_server

from errdex.catalog import open_catalog
from errdex.cluster import parse_spec
from errdex.commands.index_batch import run_many
from errdex.extract.groups import IndexOptions

FIXTURES = H.FIXTURES


def run(env: dict[str, str], *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "errdex", *args], env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    e = H.worker_env(tmp_path / "home")
    e.pop("ERRDEX_DB", None)
    return e


@pytest.fixture(scope="module")
def pg_base() -> Iterator[str]:
    reason = pg_server.available()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is needed in CI: {reason}")
        pytest.skip(reason)
    with pg_server.server() as base:
        yield base


@pytest.fixture
def wheels(tmp_path: Path) -> list[Path]:
    """Three small real-looking packages as wheels (the fixtures the other tests index)."""
    d = tmp_path / "wheels"
    return [
        H.make_wheel(d, "tinylib", "1.2.3", FIXTURES / "src_tinylib" / "src" / "tinylib"),
        H.make_wheel(d, "shop", "0.4.0", FIXTURES / "web_shop" / "shopcart"),
        H.make_wheel(d, "dispatchlib", "2.0.0", FIXTURES / "an_dispatch" / "lowering"),
    ]


def _list(tmp_path: Path, lines: list[str]) -> Path:
    p = tmp_path / "sources.txt"
    p.write_text("# sources to index\n" + "\n".join(lines) + "\n\n", encoding="utf-8")
    return p


def _error_ids(db: str) -> dict[str, set[str]]:
    cat = open_catalog(db)
    try:
        return {s.key: {x.error_id for x in cat.sites(s.key)} for s in cat.snapshots()}
    finally:
        cat.close()


def test_from_list_on_a_pool_records_failures_and_skips_on_rerun(tmp_path: Path, env: dict[str, str],
                                                                  wheels: list[Path]) -> None:
    garbage = tmp_path / "broken-1.0-py3-none-any.whl"
    garbage.write_bytes(b"not a zip at all")
    db = str(tmp_path / "catalog.sqlite")
    listing = _list(tmp_path, [str(w) for w in wheels] + [str(garbage), str(tmp_path / "missing")])
    first = run(env, "index", "--from-list", str(listing), "--jobs", "2", "--db", db, "--json")
    assert first.returncode == 1, first.stderr
    doc = json.loads(first.stdout)
    assert sorted(s["snapshot_key"] for s in doc["indexed"]) == [
        "example-org/dispatchlib@v2.0.0", "example-org/shop@v0.4.0", "example-org/tinylib@v1.2.3"]
    assert {f["source"] for f in doc["failed"]} == {str(garbage), str(tmp_path / "missing")}
    assert doc["sites"] == sum(s["sites"] for s in doc["indexed"]) > 0
    cat = open_catalog(db)
    try:
        failures = cat.source_failures()  # type: ignore[attr-defined]
    finally:
        cat.close()
    assert set(failures) == {str(garbage), str(tmp_path / "missing")}
    assert "SourceError" in failures[str(tmp_path / "missing")]["reason"]

    # the same list again: the three releases are skipped without a task, the two failures retried
    second = run(env, "index", "--from-list", str(listing), "--db", db, "--json")
    doc2 = json.loads(second.stdout)
    assert second.returncode == 1
    assert doc2["indexed"] == [] and len(doc2["skipped"]) == 3 and len(doc2["failed"]) == 2
    # and without --json: the human summary
    third = run(env, "index", "--from-list", str(listing), "--db", db)
    assert "indexed 0, skipped 3" in third.stdout and "failed 2 of 5" in third.stdout


def test_bad_cluster_options_exit_2(tmp_path: Path, env: dict[str, str]) -> None:
    db = str(tmp_path / "c.sqlite")
    assert run(env, "index", "x", "--cluster", "remote", "--db", db).returncode == 2
    assert run(env, "index", "x", "--cluster", "local", "--scheduler", "tcp://h:1", "--db", db).returncode == 2
    empty = _list(tmp_path, [])
    r = run(env, "index", "--from-list", str(empty), "--db", db)
    assert r.returncode == 2 and "empty" in r.stderr
    r = run(env, "index", "--from-list", str(tmp_path / "nope.txt"), "--db", db)
    assert r.returncode == 2 and "nope.txt" in r.stderr


@pytest.mark.slow
def test_separately_started_cluster_into_postgres(tmp_path: Path, env: dict[str, str], wheels: list[Path],
                                                   pg_base: str) -> None:
    """A scheduler and two workers started as an operator would; the catalog a PostgreSQL server;
    what lands there is exactly what a plain ``errdex index`` stores."""
    pg = pg_server.fresh_database(pg_base)
    listing = _list(tmp_path, [str(w) for w in wheels])
    with H.dask_cluster(tmp_path / "cluster", workers=2) as address:
        r = run(env, "index", "--from-list", str(listing), "--scheduler", address, "--db", pg, "--json")
        assert r.returncode == 0, r.stderr
        doc = json.loads(r.stdout)
        assert doc["cluster"] == f"Dask scheduler {address}" and len(doc["indexed"]) == 3
        again = run(env, "index", "--from-list", str(listing), "--scheduler", address, "--db", pg, "--json")
        assert len(json.loads(again.stdout)["skipped"]) == 3
    plain = str(tmp_path / "plain.sqlite")
    assert run(env, "index", *map(str, wheels), "--db", plain).returncode == 0
    assert _error_ids(pg) == _error_ids(plain)


@pytest.mark.slow
def test_local_cluster_splits_a_large_source_into_file_groups(tmp_path: Path, env: dict[str, str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A source over the threshold runs as file-group tasks on the workers; phase 2 over their
    results stores the same sites, with the same ids, as one task (and as ``errdex index``)."""
    for key in ("ERRDEX_HOME", "PYTHONPATH"):
        monkeypatch.setenv(key, env[key])
    big = H.make_wheel(tmp_path / "w", "bigpkg", "1.0", tmp_path / "none", extra=H.many_modules(60))
    split_db, whole_db = str(tmp_path / "split.sqlite"), str(tmp_path / "whole.sqlite")
    for db, options in ((split_db, IndexOptions(group_min_files=20, group_bytes=2_000)),
                        (whole_db, IndexOptions(group_min_files=0))):
        cat = open_catalog(db)
        try:
            events = list(run_many(cat, [str(big)], parse_spec("local:2"), options))
        finally:
            cat.close()
        tally = events[-1][1]
        assert [e for e, _ in events] == ["indexed", "done"] and tally.sites == 120
        assert (tally.groups > 1) if db == split_db else (tally.groups == 1)
    plain = str(tmp_path / "plain.sqlite")
    assert run(env, "index", str(big), "--db", plain).returncode == 0
    assert _error_ids(split_db) == _error_ids(whole_db) == _error_ids(plain)


@pytest.mark.network
@pytest.mark.slow
def test_five_pypi_packages_through_a_separately_started_scheduler(tmp_path: Path, env: dict[str, str],
                                                                    pg_base: str) -> None:
    """The issue's done-means: workers fetch the packages themselves; the client only writes."""
    pg = pg_server.fresh_database(pg_base)
    specs = ["pypi:six==1.17.0", "pypi:idna==3.10", "pypi:attrs==25.3.0", "pypi:packaging==25.0",
             "pypi:click==8.1.8"]
    with H.dask_cluster(tmp_path / "cluster", workers=2) as address:
        r = run(env, "index", *specs, "--scheduler", address, "--db", pg, "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert {s["snapshot"]["version"] for s in doc["indexed"]} == {"1.17.0", "3.10", "25.3.0", "25.0", "8.1.8"}
    assert {s["snapshot"]["repo"] for s in doc["indexed"]} >= {"benjaminp/six", "pallets/click", "pypa/packaging"}
    assert all(s["sites"] > 0 for s in doc["indexed"])
    stats = run(env, "stats", "--db", pg, "--json")
    assert len(json.loads(stats.stdout)) == 5
