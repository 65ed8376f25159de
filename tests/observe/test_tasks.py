"""``errdex observe --scheduler/--cluster``: one task per test file on a real Dask cluster.

The cluster is real: a ``dask scheduler`` and two ``dask worker`` processes
started here (with a data directory of their own, so each worker builds the
sandbox environment itself), or a LocalCluster that errdex starts.  The
library is the fixture shop of ``tests/observe`` with two more test files: one
that hangs and one that cannot import.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cluster_helpers as H
from errdex.catalog import open_catalog

SHOP = Path(__file__).resolve().parents[1] / "fixtures" / "obs_shop"


def errdex(home: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    env = H.worker_env(home)
    env.pop("ERRDEX_STRICT", None)
    return subprocess.run([sys.executable, "-m", "errdex", *args], env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def shop_with_bad_files(tmp_path: Path) -> Path:
    shop = tmp_path / "obs_shop"
    shutil.copytree(SHOP, shop, ignore=shutil.ignore_patterns("hostile", "__pycache__"))
    shutil.copy(SHOP / "hostile" / "test_hang.py", shop / "tests" / "test_hang.py")
    (shop / "tests" / "test_broken.py").write_text("from shop.no_such_module import thing\n\n\n"
                                                   "def test_never_runs():\n    assert thing\n")
    return shop


def observed(db: Path) -> tuple[str, set[tuple[Any, ...]]]:
    catalog = open_catalog(str(db))
    try:
        key = catalog.snapshots("local/obs_shop")[0].key
        found = {(o.kind, o.error_id, o.path, o.line, o.exception, o.message, o.test, o.test_path, o.test_line,
                  o.entry, o.entry_args, o.chain, o.escaped, o.raised_by, o.count)
                 for o in catalog.observations(snapshot_key=key)}
        return key, found
    finally:
        catalog.close()


@pytest.mark.network
@pytest.mark.slow
def test_scheduler_observes_what_local_observe_does(tmp_path: Path) -> None:
    shop = shop_with_bad_files(tmp_path)
    common = ("--timeout", "20", "--json")
    local = errdex(tmp_path / "local-home", "observe", str(shop), "--jobs", "2", "--db",
                   str(tmp_path / "local.sqlite"), *common)
    assert local.returncode == 0, local.stderr
    here = json.loads(local.stdout)

    workers_home = tmp_path / "workers-home"
    client_home = tmp_path / "client-home"
    with H.dask_cluster(workers_home, workers=2) as address:
        r = errdex(client_home, "observe", str(shop), "--scheduler", address, "--db",
                   str(tmp_path / "cluster.sqlite"), *common)
        assert r.returncode == 0, r.stderr
        there = json.loads(r.stdout)
        # Run again: every file is already observed for this snapshot; no task runs.
        again = errdex(client_home, "observe", str(shop), "--scheduler", address, "--db",
                       str(tmp_path / "cluster.sqlite"), *common)
    assert again.returncode == 0, again.stderr
    assert all(f["resumed"] for f in json.loads(again.stdout)["files"])

    # The same files, the same failures, the same observations.
    assert there["run"]["files"] == here["run"]["files"] == 4
    assert there["cluster"] == f"Dask scheduler {address}" and here["cluster"] is None
    status = {f["file"]: f["status"] for f in there["files"]}
    assert status == {f["file"]: f["status"] for f in here["files"]}
    assert status == {"tests/test_broken.py": "error", "tests/test_cart.py": "ok", "tests/test_hang.py": "timeout",
                      "tests/test_prices.py": "ok"}
    assert {f["path"] for f in there["run"]["failed_files"]} == {"tests/test_broken.py", "tests/test_hang.py"}
    assert there["sites_observed"] == here["sites_observed"] == 8
    assert there["run"]["tests"] == here["run"]["tests"] and there["events_by_kind"] == here["events_by_kind"]
    key_here, seen_here = observed(tmp_path / "local.sqlite")
    key_there, seen_there = observed(tmp_path / "cluster.sqlite")
    assert key_here == key_there and seen_there == seen_here and len(seen_here) >= 10
    assert any("unknown currency 'XYZ'" in o[5] for o in seen_there)

    # The workers built the environment in their own data directory; the client built none.
    envs = [p.name for p in (workers_home / "sandbox" / "envs").iterdir() if p.is_dir()]
    assert len(envs) == 1 and envs[0].startswith("obs-shop-1.0.0-py")
    assert not (client_home / "sandbox" / "envs").exists()
    assert (workers_home / "observe").is_dir() and not list((client_home / "observe").glob("*/cluster"))


@pytest.mark.slow
def test_a_task_that_fails_is_one_failed_file_and_is_tried_again(tmp_path: Path) -> None:
    """Workers that cannot build the environment (no such Python here): every file fails with the
    reason, the run completes, and nothing is kept as done."""
    shop = shop_with_bad_files(tmp_path)
    home = tmp_path / "home"
    args = ("observe", str(shop), "--cluster", "local:1", "--python", str(tmp_path / "no-such-python"),
            "--db", str(tmp_path / "c.sqlite"), "--json")
    r = errdex(home, *args)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["run"]["files"] == 4 and len(doc["run"]["failed_files"]) == 4
    assert all("on the cluster: PythonNotFound" in f["reason"] for f in doc["run"]["failed_files"])
    assert not any(f["resumed"] for f in doc["files"])
    again = json.loads(errdex(home, *args).stdout)
    assert not any(f["resumed"] for f in again["files"]) and len(again["run"]["failed_files"]) == 4


def test_cluster_options_are_checked(tmp_path: Path) -> None:
    for bad in (("--cluster", "remote"), ("--cluster", "local:0"), ("--cluster", "local", "--scheduler", "tcp://h:1")):
        r = errdex(tmp_path / "home", "observe", str(SHOP), *bad)
        assert r.returncode == 2 and "--cluster" in r.stderr, r.stderr
    assert os.environ.get("ERRDEX_HOME") != str(tmp_path / "home")


def test_the_bundle_holds_the_tests_and_the_source_but_no_build_output(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import tarfile

    from errdex.model import Snapshot
    from errdex.observe.pipeline import ObserveOptions, resolve
    from errdex.observe.tasks import _unpack, make_setup

    monkeypatch.setenv("ERRDEX_HOME", str(tmp_path / "home"))
    shop = shop_with_bad_files(tmp_path)
    for junk in ("build/lib/shop/cart.py", "shop/__pycache__/cart.cpython-313.pyc", "tests/__pycache__/x.pyc"):
        (shop / junk).parent.mkdir(parents=True, exist_ok=True)
        (shop / junk).write_text("junk")
    snap = Snapshot(repo="local/obs_shop")
    options = ObserveOptions(timeout_s=30)
    resolved = resolve(str(shop), snap, ["shop/cart.py", "shop/prices.py"], options)
    setup, data = make_setup(str(shop), resolved, options)
    assert not setup.pypi and setup.artifact_name == "obs_shop" and setup.roots == ("shop",)
    assert setup.stamp == resolved.record_stamp(options)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        names = set(tar.getnames())
    assert {"project/pyproject.toml", "project/tests/test_hang.py", "project/tests/test_broken.py",
            "artifact/obs_shop/shop/cart.py", "artifact/obs_shop/pyproject.toml"} <= names
    assert not [n for n in names if "__pycache__" in n or n.startswith("artifact/obs_shop/build")]
    here = _unpack(setup, data)
    assert (here / "project" / "tests" / "test_cart.py").read_bytes() == (shop / "tests" / "test_cart.py").read_bytes()
    assert (here / "plugin" / "errdex_recorder.py").is_file() and (here / "results").is_dir()
    assert _unpack(setup, data) == here  # once per machine and run


@pytest.mark.network
@pytest.mark.slow
def test_workers_fetch_a_pypi_source_themselves(tmp_path: Path) -> None:
    """six 1.16.0 (its tests are in the sdist): the client sends the tests; each worker downloads the
    wheel from the index into its own data directory, checks it is the client's, builds the environment."""
    workers_home = tmp_path / "workers-home"
    with H.dask_cluster(workers_home, workers=1) as address:
        r = errdex(tmp_path / "client-home", "observe", "pypi:six==1.16.0", "--scheduler", address,
                   "--db", str(tmp_path / "c.sqlite"), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["run"]["files"] == 1 and doc["run"]["failed_files"] == [] and doc["run"]["tests"] >= 150
    assert doc["sites_observed"] >= 2
    assert list((workers_home / "cache" / "pypi").glob("six-1.16.0/wheel/six-1.16.0-*.whl"))
    envs = [p.name for p in (workers_home / "sandbox" / "envs").iterdir() if p.is_dir()]
    assert len(envs) == 1 and envs[0].startswith("six-1.16.0-py")
