"""``errdex.cluster``: the same mapping on a process pool, a LocalCluster and a separately started
Dask cluster, with failures that stay one item's and never the run's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import cluster_helpers as H
from errdex.cluster import ClusterError, ClusterSpec, open_mapper, parse_spec


@pytest.fixture(autouse=True)
def _importable_helpers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers (forkserver children, Dask worker processes) import ``cluster_helpers`` by name."""
    for key, value in H.worker_env(tmp_path / "home").items():
        if key in ("ERRDEX_HOME", "PYTHONPATH"):
            monkeypatch.setenv(key, value)


@pytest.mark.parametrize(("cluster", "scheduler", "jobs", "expected"), [
    (None, None, None, ClusterSpec("pool")),
    (None, None, 3, ClusterSpec("pool", workers=3)),
    ("local", None, None, ClusterSpec("local")),
    ("local", None, 2, ClusterSpec("local", workers=2)),
    ("local:4", None, 2, ClusterSpec("local", workers=4)),
    (None, "tcp://10.0.0.5:8786", None, ClusterSpec("scheduler", address="tcp://10.0.0.5:8786")),
])
def test_parse_spec(cluster: str | None, scheduler: str | None, jobs: int | None, expected: ClusterSpec) -> None:
    assert parse_spec(cluster, scheduler, jobs) == expected


@pytest.mark.parametrize(("cluster", "scheduler"), [("local:0", None), ("remote", None), ("local:x", None),
                                                    ("local", "tcp://h:1"), (None, " ")])
def test_parse_spec_refuses(cluster: str | None, scheduler: str | None) -> None:
    with pytest.raises(ValueError):
        parse_spec(cluster, scheduler)


def test_pool_maps_and_keeps_failures_per_item() -> None:
    with open_mapper(ClusterSpec("pool", workers=2)) as mapper:
        out = {o.item: o for o in mapper.map_unordered(H.square_unless, range(12), 5)}
    assert sorted(out) == list(range(12))
    assert out[5].error == "ValueError: refusing 5" and out[5].value is None
    assert {i: o.value for i, o in out.items() if o.ok} == {i: i * i for i in range(12) if i != 5}


def test_pool_survives_a_worker_that_dies() -> None:
    """The item that kills its worker fails; the tasks that died with the pool run again and succeed."""
    with open_mapper(ClusterSpec("pool", workers=2)) as mapper:
        out = {o.item: o for o in mapper.map_unordered(H.die_on, range(10), 3)}
    assert sorted(out) == list(range(10))
    assert out[3].error is not None and "died" in out[3].error
    assert all(out[i].value == i * i for i in range(10) if i != 3)


@pytest.mark.slow
def test_local_dask_cluster_maps_with_failures() -> None:
    with open_mapper(parse_spec("local:2")) as mapper:
        assert mapper.workers == 2
        out = {o.item: o for o in mapper.map_unordered(H.square_unless, range(20), 7)}
    assert {i: o.value for i, o in out.items() if o.ok} == {i: i * i for i in range(20) if i != 7}
    assert out[7].error == "ValueError: refusing 7"


def test_unreachable_scheduler_is_a_clear_error() -> None:
    port = H.free_port()  # nothing listens there
    with pytest.raises(ClusterError, match=f"127.0.0.1:{port}"), \
            open_mapper(ClusterSpec("scheduler", address=f"tcp://127.0.0.1:{port}")):
        pass
    assert os.environ["PYTHONPATH"]
