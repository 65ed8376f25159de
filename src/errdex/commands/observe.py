"""``errdex observe`` and ``errdex report untested``: the presentation of the observe stage."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from errdex.catalog.base import Catalog
from errdex.commands.index import _extract, _result_cache
from errdex.commands.output import error, open_or_report, print_json, stdout
from errdex.sources import SourceError, open_source


def _index_if_needed(catalog: Catalog, spec: str, json_out: bool) -> tuple[Any, list[str]]:
    """The snapshot of ``spec`` and its package files, indexing it first when the catalog lacks it."""
    with open_source(spec) as tree:
        snapshot = tree.snapshot
        files = [f.path for f in tree.files if not f.is_test]
        if not catalog.stats(snapshot.key):
            if not json_out:
                sys.stderr.write(f"errdex: {snapshot.key} is not indexed yet: indexing it first\n")
            result = _extract(tree, None, _result_cache(True))
            if result.files_read == 0:
                raise SourceError(f"{spec}: nothing indexable")
            catalog.replace_snapshot(snapshot, result)
    return snapshot, files


def run_observe(spec: str, *, tests: list[str], python: str | None, jobs: int, timeout: float,
                memory_gb: float, db: str | None, json_out: bool, fresh: bool, with_requirements: list[str],
                cluster: str | None = None, scheduler: str | None = None) -> int:
    from errdex.cluster import ClusterError, parse_spec
    from errdex.observe.pipeline import ObserveOptions, run_json
    from errdex.observe.target import TargetError
    from errdex.sandbox import EnvError, PythonNotFound

    if jobs < 1 or timeout <= 0:
        error("--jobs and --timeout must be positive")
        return 2
    distributed = cluster is not None or scheduler is not None
    try:
        cluster_spec = parse_spec(cluster, scheduler) if distributed else None
    except ValueError as exc:
        error(str(exc))
        return 2
    catalog = open_or_report(db)
    if catalog is None:
        return 1
    options = ObserveOptions(tests=tuple(Path(t) for t in tests), python=python, jobs=jobs, timeout_s=timeout,
                             memory_bytes=int(memory_gb * 1024**3), resume=not fresh,
                             extra_requirements=tuple(with_requirements))
    try:
        snapshot, files = _index_if_needed(catalog, spec, json_out)
        start = _on_cluster(catalog, spec, snapshot, files, options, cluster_spec) if cluster_spec is not None \
            else _here(catalog, spec, snapshot, files, options)
        if json_out or not sys.stderr.isatty():
            result = start(None if json_out else _plain_progress)
        else:
            result = _with_progress(catalog, snapshot, len(start.files), start)
    except (SourceError, TargetError, EnvError, PythonNotFound, ClusterError) as exc:
        error(str(exc))
        return 1
    except KeyboardInterrupt:
        error("interrupted: finished test files are kept; run the same command again to resume")
        return 130
    finally:
        catalog.close()
    if json_out:
        doc = run_json(result)
        doc["cluster"] = cluster_spec.describe() if cluster_spec is not None else None
        print_json(doc)
        return 0
    _summary(result)
    return 0


class _Start:
    """A resolved observe run, started with a progress callback: here or on a cluster."""

    def __init__(self, files: tuple[str, ...], workspace: Path, run: Callable[[Any], Any]) -> None:
        self.files, self.workspace, self._run = files, workspace, run

    def __call__(self, progress: Any) -> Any:
        return self._run(progress)


def _here(catalog: Catalog, spec: str, snapshot: Any, files: list[str], options: Any) -> _Start:
    """Local observe: the environment built here, ``--jobs`` files at a time."""
    from errdex.observe.pipeline import observe_prepared, prepare

    prepared = prepare(catalog, spec, snapshot, files, options)
    return _Start(prepared.plan.files, prepared.plan.workspace,
                  lambda progress: observe_prepared(catalog, prepared, options, progress=progress))


def _on_cluster(catalog: Catalog, spec: str, snapshot: Any, files: list[str], options: Any,
                cluster_spec: Any) -> _Start:
    """One task per test file on a Dask cluster (``observe/tasks.py``); each worker builds or reuses
    the environment in its own data directory."""
    from errdex.observe.pipeline import observe_files, resolve
    from errdex.observe.tasks import make_setup, on_cluster

    resolved = resolve(spec, snapshot, files, options)
    setup, data = make_setup(spec, resolved, options)
    execute = on_cluster(cluster_spec, setup, data, resolved.workspace)
    sys.stderr.write(f"errdex: observing {len(resolved.tests.files)} test file(s) of {snapshot.key} on "
                     f"{cluster_spec.describe()}\n")
    return _Start(resolved.tests.files, resolved.workspace,
                  lambda progress: observe_files(catalog, snapshot, resolved.tests, resolved.workspace, options,
                                                 execute, setup.stamp, progress=progress))


def _plain_progress(outcome: Any) -> None:
    mark = "" if outcome.status in ("ok", "tests-failed", "no-tests") else f" [{outcome.status}: {outcome.reason}]"
    sys.stderr.write(f"  {outcome.file}: {outcome.tests} tests, {outcome.events} events"
                     f"{' (resumed)' if outcome.resumed else ''}{mark}\n")


def _with_progress(catalog: Catalog, snapshot: Any, total: int, start: _Start) -> Any:
    """Rich progress on stderr: files done of the total, events, indexed sites seen, failed files."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from errdex.observe.mapping import SiteIndex, classify, read_output
    from errdex.observe.run import events_path

    index = SiteIndex(catalog.sites(snapshot.key))
    seen: set[str] = set()
    totals = {"events": 0, "failed": 0}
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[detail]}"), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=False) as bar:
        task = bar.add_task(f"observing {snapshot.repo}", total=total, detail="")

        def progress(outcome: Any) -> None:
            events, _, _ = read_output(events_path(start.workspace / "results", outcome.file))
            for ev in events:
                kind, eid = classify(index, ev)
                if kind == "site":
                    seen.add(eid)
            totals["events"] += outcome.events
            totals["failed"] += outcome.status in ("timeout", "crash", "error")
            bar.update(task, advance=1, detail=f"{totals['events']} events, {len(seen)} sites seen, "
                                                f"{totals['failed']} failed files")

        return start(progress)


def _summary(result: Any) -> None:
    run = result.run
    out = stdout()
    out.print(f"[bold]{run.snapshot}[/bold]: {run.files} test files ({len(run.failed_files)} failed), "
              f"{run.tests} tests, {run.events} events, {run.duration_s:.1f}s on Python {run.python} ({run.mode})")
    share = f"{run.sites / result.raise_statements:.1%}" if result.raise_statements else "n/a"
    out.print(f"raise sites observed: {run.sites} of {result.sites} indexed sites "
              f"({share} of {result.raise_statements} raise statements)")
    out.print(f"sandbox: network {run.network or 'unknown'}, processes {run.processes or 'unknown'}")
    for f in run.failed_files[:20]:
        out.print(f"  failed: {f.path}: {f.reason}", markup=False)


# --------------------------------------------------------------------------- report untested


def run_report_untested(*, repo: str | None, db: str | None, json_out: bool) -> int:
    from errdex.observe.report import untested_documents

    catalog = open_or_report(db)
    if catalog is None:
        return 1
    try:
        docs = untested_documents(catalog, repo)
    finally:
        catalog.close()
    if json_out:
        print_json(docs[0] if repo and docs else docs)
        return 0
    out = stdout()
    if not docs:
        out.print("Nothing to report: index a library and run `errdex observe` on it first.")
        return 0
    for doc in docs:
        if not doc["observed"]:
            out.print(f"[bold]{doc['repo']}[/bold] ({doc['snapshot']}): not observed yet; "
                      "run `errdex observe SOURCE`")
            continue
        out.print(f"[bold]{doc['repo']}[/bold] ({doc['snapshot']}): {doc['untested']} of {doc['total']} "
                  f"raise sites reached by no test")
        for mod in doc["modules"]:
            out.print(f"  {mod['path']}  ({len(mod['errors'])})", markup=False)
            for e in mod["errors"]:
                out.print(f"    {e['line']:>5}  {e['exception']}: {e['title']}  {e['id']}", markup=False)
    return 0


def dumps(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)
