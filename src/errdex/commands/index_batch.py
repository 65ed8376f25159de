"""``errdex index --cluster local[:N] | --scheduler ADDRESS | --from-list FILE``: many sources at once.

Each source is one task (``extract/groups.py``) on a worker: a local process
pool, a Dask cluster errdex starts, or an existing Dask scheduler.  Results
stream back and this process — the only writer — stores them in batches
(one transaction per batch: ``SqlCatalog.replace_snapshots``).  A source that
fails is recorded in the catalog (``source_failures()``) and the run goes on;
a snapshot already in the catalog (a release or a commit) is skipped, so a
re-run of the same list only does what is missing or failed.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from errdex.catalog.base import Catalog, SnapshotStats
from errdex.catalog.rows import stats_to_json
from errdex.cluster import ClusterError, ClusterSpec, open_mapper
from errdex.extract.groups import Indexed, IndexOptions, index_source
from errdex.model import ExtractResult, Snapshot

BATCH_SNAPSHOTS = 16  # snapshots per write transaction ...
BATCH_SITES = 20_000  # ... or fewer, when they hold this many sites
BATCH_SECONDS = 5.0  # ... or whatever arrived within this time, so a slow run still shows progress


def read_list(path: str) -> list[str]:
    """One source per line (``-``: stdin); blank lines and ``#`` comments are ignored. OSError if unreadable."""
    text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if line:
            out.append(line)
    return out


def unique(sources: list[str]) -> list[str]:
    """In order, each once (two tasks fetching the same package into one cache would race)."""
    seen: set[str] = set()
    return [s for s in sources if not (s in seen or seen.add(s))]  # type: ignore[func-returns-value]


@dataclass
class RunTally:
    """What the run did, for the summary, ``--json`` and the benchmark."""

    indexed: list[SnapshotStats] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (source, snapshot key)
    failed: list[tuple[str, str]] = field(default_factory=list)  # (source, reason)
    sites: int = 0
    seconds: float = 0.0
    write_seconds: float = 0.0
    groups: int = 0
    startup_seconds: float = 0.0  # until the pool or cluster was ready (a LocalCluster's start)
    received: int = 0  # results back from the workers (written, or in the batch being filled)
    received_sites: int = 0

    def as_json(self, spec: ClusterSpec) -> dict[str, Any]:
        done = len(self.indexed)
        return {
            "cluster": spec.describe(),
            "indexed": [stats_to_json(s) for s in self.indexed],
            "skipped": [{"source": s, "snapshot_key": k} for s, k in self.skipped],
            "failed": [{"source": s, "reason": r} for s, r in self.failed],
            "sites": self.sites,
            "seconds": round(self.seconds, 3),
            "write_seconds": round(self.write_seconds, 3),
            "startup_seconds": round(self.startup_seconds, 3),
            "file_groups": self.groups,
            "packages_per_hour": round(3600 * done / self.seconds, 1) if self.seconds > 0 else None,
        }


class _Writer:
    """Collects workers' results and writes them in batches; one write per transaction."""

    def __init__(self, catalog: Catalog, tally: RunTally, previously_failed: set[str]) -> None:
        self.catalog = catalog
        self.tally = tally
        self.previously_failed = previously_failed
        self.batch: list[tuple[str, Snapshot, ExtractResult]] = []
        self.sites = 0
        self.since = time.perf_counter()

    def add(self, done: Indexed) -> None:
        assert done.result is not None
        self.batch.append((done.spec, done.snapshot, done.result))
        self.sites += len(done.result.sites)
        if (len(self.batch) >= BATCH_SNAPSHOTS or self.sites >= BATCH_SITES
                or time.perf_counter() - self.since >= BATCH_SECONDS):
            self.flush()

    def flush(self) -> None:
        if self.batch:
            started = time.perf_counter()
            stats = _replace_many(self.catalog, [(s, r) for _, s, r in self.batch])
            record = getattr(self.catalog, "record_sources", None)
            if record is not None:
                record({spec: snap.key for spec, snap, _ in self.batch if pinned(spec) or spec in self.previously_failed})
            self.tally.write_seconds += time.perf_counter() - started
            self.tally.indexed.extend(stats)
            self.tally.sites += sum(s.sites for s in stats)
        self.batch, self.sites, self.since = [], 0, time.perf_counter()


def _replace_many(catalog: Catalog, batch: list[tuple[Snapshot, ExtractResult]]) -> list[SnapshotStats]:
    many = getattr(catalog, "replace_snapshots", None)
    if many is not None:
        return list(many(batch))
    return [catalog.replace_snapshot(s, r) for s, r in batch]


def _record_failure(catalog: Catalog, source: str, reason: str) -> None:
    record = getattr(catalog, "record_source_failure", None)
    if record is not None:
        record(source, reason)


def pinned(source: str) -> bool:
    """A source that names one immutable release: ``pypi:NAME==VERSION`` or an archive file."""
    if source.startswith("pypi:"):
        return "==" in source
    return source.endswith((".whl", ".tar.gz", ".tgz", ".zip", ".tar.bz2", ".tar.xz"))


def _already(catalog: Catalog) -> dict[str, str]:
    get = getattr(catalog, "indexed_sources", None)
    return dict(get()) if get is not None else {}


def _known(catalog: Catalog) -> frozenset[str]:
    keys = getattr(catalog, "snapshot_keys", None)
    return frozenset(keys() if keys is not None else (s.key for s in catalog.snapshots()))


def _failures(catalog: Catalog) -> set[str]:
    get = getattr(catalog, "source_failures", None)
    return set(get()) if get is not None else set()


def _progress(total: int, spec: ClusterSpec) -> AbstractContextManager[Any]:
    """A Rich progress display on stderr when it is a terminal, else nothing."""
    if not sys.stderr.isatty():
        return nullcontext(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[sites]:,} sites · {task.fields[failed]} failed · {task.fields[skipped]} skipped"
                   " · {task.fields[rate]}"),
        TimeElapsedColumn(), console=Console(stderr=True), transient=False,
    )


def run_many(catalog: Catalog, sources: list[str], spec: ClusterSpec, options: IndexOptions, *,
             reindex: bool = False) -> Iterator[tuple[str, RunTally]]:
    """Index ``sources`` on ``spec``; yields ``(event, tally)`` after each source ("indexed",
    "skipped", "failed") and ("done", tally) at the end.  ClusterError when the cluster is unreachable."""
    tally = RunTally()
    known = frozenset() if reindex else _known(catalog)
    writer = _Writer(catalog, tally, _failures(catalog))
    started = time.perf_counter()
    if not reindex:  # pinned sources indexed before: skipped here, without a task or a download
        gave = _already(catalog)
        for source in [s for s in sources if pinned(s) and s in gave]:
            tally.skipped.append((source, gave[source]))
            yield "skipped", tally
        sources = [s for s in sources if not (pinned(s) and s in gave)]
    if not sources:
        yield "done", tally
        return
    with open_mapper(spec) as mapper:
        tally.startup_seconds = time.perf_counter() - started
        for out in mapper.map_unordered(index_source, sources, options, known):
            if out.error is not None or out.value is None:
                reason = out.error or "the task returned nothing"
                tally.failed.append((out.item, reason))
                _record_failure(catalog, out.item, reason)
                event = "failed"
            elif out.value.skipped:
                tally.skipped.append((out.item, out.value.snapshot.key))
                event = "skipped"
            else:
                tally.groups += out.value.groups
                tally.received += 1
                tally.received_sites += len(out.value.result.sites) if out.value.result else 0
                writer.add(out.value)
                event = "indexed"
            tally.seconds = time.perf_counter() - started
            yield event, tally
    writer.flush()
    tally.seconds = time.perf_counter() - started
    yield "done", tally


def _build_global_index(catalog: Catalog) -> None:
    """Build the global match index now, when ``explain`` will route through it, rather than on the
    first paste after the run (minutes at 10^6 templates)."""
    from errdex.match import route
    from errdex.match.global_index import global_index_for

    if route.should_route(catalog):
        started = time.perf_counter()
        with global_index_for(catalog) as gidx:
            sys.stderr.write(f"errdex: global match index of {gidx.templates:,} templates ready "
                             f"({time.perf_counter() - started:.1f} s)\n")


def run_index_many(catalog: Catalog, sources: list[str], spec: ClusterSpec, options: IndexOptions, *,
                   json_out: bool, reindex: bool = False) -> int:
    """The command: progress on stderr, a summary (or ``--json``) on stdout; exit 1 if any source failed."""
    sources = unique(sources)
    sys.stderr.write(f"errdex: indexing {len(sources)} source(s) on {spec.describe()}\n")
    tally = RunTally()
    try:
        with _progress(len(sources), spec) as bar:
            task = bar.add_task("indexing", total=len(sources), sites=0, failed=0, skipped=0,
                                rate="") if bar is not None else None
            for event, tally in run_many(catalog, sources, spec, options, reindex=reindex):
                if event == "failed":
                    source, reason = tally.failed[-1]
                    sys.stderr.write(f"errdex: {source}: {reason}\n")
                if bar is not None and event != "done":
                    done = tally.received + len(tally.failed) + len(tally.skipped)
                    rate = f"{3600 * done / tally.seconds:,.0f} pkg/h" if tally.seconds > 1 else ""
                    bar.update(task, completed=done, sites=tally.received_sites, failed=len(tally.failed),
                               skipped=len(tally.skipped), rate=rate)
    except ClusterError as exc:
        sys.stderr.write(f"errdex: {exc}\n")
        return 1
    if tally.indexed:
        _build_global_index(catalog)
    if json_out:
        sys.stdout.write(json.dumps(tally.as_json(spec), indent=2, ensure_ascii=False) + "\n")
    else:
        rate = f"{3600 * len(tally.indexed) / tally.seconds:,.0f} packages/hour" if tally.seconds > 0 else ""
        sys.stdout.write(
            f"indexed {len(tally.indexed)}, skipped {len(tally.skipped)} (already in the catalog), "
            f"failed {len(tally.failed)} of {len(sources)} source(s): {tally.sites:,} sites in "
            f"{tally.seconds:.1f} s ({rate}; writing {tally.write_seconds:.1f} s) on {spec.describe()}\n")
        for source, reason in tally.failed:
            sys.stdout.write(f"  failed {source}: {reason}\n")
    return 1 if tally.failed else 0
