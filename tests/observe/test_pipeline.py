"""``pipeline.observe_files``, the path local and cluster observe share: records, resuming, and the
catalog written in batches while files finish.

The files run for real in the sandbox with this interpreter as the environment (as in
test_recorder.py); the executor is the local one or one that replays records as a worker sends them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from errdex.catalog import open_catalog
from errdex.extract import extract_tree
from errdex.observe import pipeline
from errdex.observe.pipeline import ObserveOptions, observe_files
from errdex.observe.run import (
    FileOutcome,
    FileRecord,
    events_path,
    fingerprint,
    in_threads,
    install_plugin,
    save_sent,
)
from errdex.observe.target import TestTree
from errdex.sources import open_source
from observe.test_recorder import SHOP, plan_for

FILES = ("tests/test_prices.py", "tests/test_cart.py")


@pytest.fixture
def catalog(tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    cat = open_catalog(str(tmp_path / "c.sqlite"))
    with open_source(str(SHOP)) as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
        snapshot = tree.snapshot
    yield cat, snapshot
    cat.close()


def test_each_finished_file_is_in_the_catalog_before_the_run_ends(catalog: tuple[Any, Any], tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    cat, snapshot = catalog
    monkeypatch.setattr(pipeline, "BATCH_FILES", 1)
    plan = plan_for(tmp_path / "ws", FILES)
    install_plugin(plan.workspace)
    st = fingerprint(plan)
    stored_files: list[int] = []

    def progress(outcome: FileOutcome) -> None:
        run = cat.observe_run(snapshot.key)
        stored_files.append(run.files if run else 0)

    tree = TestTree(root=SHOP, files=FILES, origin="checkout")
    result = observe_files(cat, snapshot, tree, plan.workspace, ObserveOptions(jobs=1), in_threads(plan, st),
                           st, progress=progress)
    assert stored_files == [1, 2]  # written as each file finished, not only at the end
    assert result.run.files == 2 and result.run.sites == len({o.error_id for o in result.observations
                                                              if o.kind == "site"}) > 0
    assert cat.observe_run(snapshot.key) == result.run


def test_records_sent_by_workers_map_as_local_ones(catalog: tuple[Any, Any], tmp_path: Path) -> None:
    """A worker's FileRecord saved by the client gives the observations of the same file run here,
    and a re-run resumes it like a local record."""
    cat, snapshot = catalog
    plan = plan_for(tmp_path / "ws", FILES)
    install_plugin(plan.workspace)
    st = fingerprint(plan)
    tree = TestTree(root=SHOP, files=FILES, origin="checkout")
    here = observe_files(cat, snapshot, tree, plan.workspace, ObserveOptions(), in_threads(plan, st), st)

    sent = [FileRecord(o, events_path(plan.workspace / "results", o.file).read_text()) for o in here.outcomes]
    client = tmp_path / "client"

    def replay(todo: list[str]) -> Iterator[FileOutcome]:
        for record in sent:
            if record.outcome.file in todo:
                save_sent(client / "results", st, 60, record)
                yield record.outcome

    there = observe_files(cat, snapshot, tree, client, ObserveOptions(), replay, st)
    assert set(there.observations) == set(here.observations) and there.run.sites == here.run.sites == 8
    again = observe_files(cat, snapshot, tree, client, ObserveOptions(), replay, st)
    assert all(o.resumed for o in again.outcomes) and set(again.observations) == set(here.observations)
