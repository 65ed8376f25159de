"""Observations in the catalog, on every backend: stored per snapshot, replaced whole, queried
by error and snapshot, kept across a re-index of the same snapshot."""

from __future__ import annotations

import pytest
from catalog_data import BAD_UNIT, EMPTY_SIZE, result, snapshot

from errdex.catalog.sql import SqlCatalog
from errdex.model import FileFailure, Observation, ObservedArg, ObserveRun

SNAP = snapshot("c", "2024-05-01T10:00:00+00:00")


def obs(error_id: str, message: str, count: int = 1, *, kind: str = "site", test: str = "tests/t.py::test_a",
        line: int = 14) -> Observation:
    return Observation(snapshot=SNAP.key, kind=kind, path="tinylib/core.py", line=line,  # type: ignore[arg-type]
                       exception="ValueError", message=message, test=test, error_id=error_id,
                       test_path="tests/t.py", test_line=3, entry="tinylib.parse_size",
                       entry_args=(ObservedArg(name="text", type="str", repr="''"),),
                       chain=("tests.t.test_a (tests/t.py:4)", "tinylib.core.parse_size (tinylib/core.py:14)"),
                       escaped=True, count=count)


def run_of(events: int, failed: tuple[FileFailure, ...] = ()) -> ObserveRun:
    return ObserveRun(snapshot=SNAP.key, python="3.12.1", mode="monitoring", files=2, failed_files=failed,
                      tests=5, events=events, sites=1, duration_s=1.5, date="2024-05-02")


def test_round_trip_and_queries(catalog: SqlCatalog) -> None:
    catalog.replace_snapshot(SNAP, result(EMPTY_SIZE, BAD_UNIT))
    a = obs(EMPTY_SIZE.error_id, "empty size string; expected something like '10k'", 3)
    native = obs("", "invalid literal for int() with base 10: 'x'", 7, kind="native", line=40)
    catalog.replace_observations(run_of(10), [a, native])
    assert catalog.observations(error_id=EMPTY_SIZE.error_id) == [a]
    assert catalog.observations(snapshot_key=SNAP.key) == [native, a]  # most frequent first
    assert catalog.observations(snapshot_key=SNAP.key, kind="native") == [native]
    assert catalog.observed_site_ids(SNAP.key) == frozenset({EMPTY_SIZE.error_id})
    assert catalog.observe_run(SNAP.key) == run_of(10)
    assert catalog.observe_run("other/repo@x") is None


def test_observing_again_replaces(catalog: SqlCatalog) -> None:
    catalog.replace_snapshot(SNAP, result(EMPTY_SIZE, BAD_UNIT))
    catalog.replace_observations(run_of(1), [obs(EMPTY_SIZE.error_id, "m")])
    failed = (FileFailure(path="tests/test_hang.py", reason="timed out after 5s"),)
    b = obs(BAD_UNIT.error_id, "unknown size unit 'q'", line=19)
    catalog.replace_observations(run_of(4, failed), [b])
    assert catalog.observations(snapshot_key=SNAP.key) == [b]
    assert catalog.observed_site_ids(SNAP.key) == frozenset({BAD_UNIT.error_id})
    got = catalog.observe_run(SNAP.key)
    assert got is not None and got.failed_files == failed and got.events == 4


def test_reindex_keeps_observations(catalog: SqlCatalog) -> None:
    catalog.replace_snapshot(SNAP, result(EMPTY_SIZE))
    catalog.replace_observations(run_of(1), [obs(EMPTY_SIZE.error_id, "m")])
    catalog.replace_snapshot(SNAP, result(EMPTY_SIZE))
    assert catalog.observed_site_ids(SNAP.key) == frozenset({EMPTY_SIZE.error_id})


def test_failed_write_keeps_the_old_observations(catalog: SqlCatalog) -> None:
    catalog.replace_snapshot(SNAP, result(EMPTY_SIZE))
    catalog.replace_observations(run_of(1), [obs(EMPTY_SIZE.error_id, "m")])
    bad = [obs(BAD_UNIT.error_id, "n"), None]
    with pytest.raises(AttributeError):
        catalog.replace_observations(run_of(2), bad)  # type: ignore[list-item]
    assert [o.message for o in catalog.observations(snapshot_key=SNAP.key)] == ["m"]
    run = catalog.observe_run(SNAP.key)
    assert run is not None and run.events == 1
