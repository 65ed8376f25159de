"""``errdex index``, ``errdex show`` and ``errdex stats``: the presentation of indexing.

Each source is indexed on its own: one that cannot be opened, or that has
nothing indexable, is reported and the others still go into the catalog; the
exit code is non-zero when any failed.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from errdex import paths
from errdex.catalog.base import Catalog, SnapshotStats
from errdex.catalog.rows import stats_to_json
from errdex.commands.output import error, open_or_report, print_json, stdout
from errdex.extract.cache import ResultCache
from errdex.model import ExtractResult
from errdex.sources import SourceError, SourceTree, open_source

if TYPE_CHECKING:
    pass

_ID = re.compile(r"^[0-9a-f]{16}$")


# Rich is imported where something is rendered: `errdex index --json` in a pipe (scripts, the
# benchmark) renders nothing, and Rich's import is a tenth of a second of its start-up.









def _extract(tree: SourceTree, jobs: int | None, cache: ResultCache | None) -> ExtractResult:
    """Run the extractor with a progress bar on stderr (none when stderr is not a terminal)."""
    from errdex.extract import extract_tree

    if not sys.stderr.isatty():
        return extract_tree(tree, jobs=jobs, cache=cache)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    # Redrawn as files finish, not by Rich's refresh thread: with no other thread in the process
    # the pool forks its workers at once (runner._context) instead of starting a forkserver that
    # imports the extractor again before the first file is parsed (half a second on this machine).
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(stderr=True), transient=True, auto_refresh=False,
    ) as bar:
        task = bar.add_task(f"extracting {tree.snapshot.repo}", total=len(tree.files))

        def progress(finished: int) -> None:
            bar.advance(task, finished)
            bar.refresh()

        return extract_tree(tree, jobs=jobs, progress=progress, cache=cache)


def index_one(catalog: Catalog, spec: str, *, repo: str | None, commit: str | None, ref: str | None,
              jobs: int | None, cache: ResultCache | None = None, path_prefix: str | None = None,
              python: str | None = None, search_path: Sequence[str] | None = None) -> SnapshotStats:
    """Open, extract and store one source; SourceError when there is nothing to index.

    The cyclic garbage collector stays off until the snapshot is written: the results hold
    hundreds of thousands of objects, none in a cycle, that each collection would walk."""
    from errdex.extract.worker import no_cyclic_gc

    with open_source(spec, repo=repo, commit=commit, ref=ref, path_prefix=path_prefix, python=python,
                     search_path=search_path) as tree, no_cyclic_gc():
        result = _extract(tree, jobs, cache)
        if result.files_read == 0:
            reasons = "; ".join(f"{f.path}: {f.reason}" for f in result.failures[:3])
            raise SourceError(
                f"{spec}: nothing indexable ({len(tree.files)} Python files, none could be parsed"
                + (f": {reasons}" if reasons else "") + ")"
            )
        return catalog.replace_snapshot(tree.snapshot, result)


def _result_cache(use: bool) -> ResultCache | None:
    """The phase-1 result cache (``extract/cache.py``), unless disabled; a cache that cannot be
    created is only a slower run."""
    base = paths.extract_cache_dir() if use else None
    if base is None:
        return None
    try:
        return ResultCache.open(base)
    except OSError as exc:
        error(f"not caching extraction results ({base}: {exc.strerror or exc})")
        return None


def apply_limits(assignments: list[str]) -> str | None:
    """Set ``ERRDEX_LIMIT_*`` for this run (and its workers) from ``--limit NAME=VALUE``, then
    check every limit parses; the error message, or None."""
    from errdex import limits

    try:
        for text in assignments:
            name, value = limits.parse_assignment(text)
            os.environ[limits.env_var(name)] = str(value)
        limits.current()
    except limits.LimitError as exc:
        return str(exc)
    return None


def run_index(sources: list[str], *, repo: str | None, commit: str | None, ref: str | None,
              db: str | None, jobs: int | None, json_out: bool, use_cache: bool = True,
              limits: list[str] | None = None, path_prefix: str | None = None,
              python: str | None = None,
              from_list: str | None = None, cluster: str | None = None, scheduler: str | None = None,
              reindex: bool = False) -> int:
    if jobs is not None and jobs < 1:
        error(f"--jobs {jobs}: expected a positive number of worker processes")
        return 2
    if (problem := apply_limits(limits or [])) is not None:
        error(problem)
        return 2
    if from_list is not None or cluster is not None or scheduler is not None:
        return _run_many(sources, repo=repo, commit=commit, ref=ref, db=db, jobs=jobs, json_out=json_out,
                         use_cache=use_cache, from_list=from_list, cluster=cluster, scheduler=scheduler,
                         reindex=reindex)
    if not sources:
        error("no SOURCE given (or use --from-list FILE)")
        return 2
    catalog = open_or_report(db)
    if catalog is None:
        return 1
    out = None if json_out else stdout()
    cache = _result_cache(use_cache)
    done: list[SnapshotStats] = []
    failed = 0
    try:
        for spec in sources:
            try:
                stats = index_one(catalog, spec, repo=repo, commit=commit, ref=ref, jobs=jobs, cache=cache,
                                  path_prefix=path_prefix, python=python)
            except SourceError as exc:
                error(str(exc))
                failed += 1
                continue
            for w in stats.warnings:
                error(f"warning: {spec}: {w.path}: {w.reason}")
            done.append(stats)
            if out is not None:
                from errdex.commands.index_views import stats_view

                out.print(stats_view(stats))
    finally:
        catalog.close()
        if cache is not None:
            cache.prune()
    if json_out:
        print_json([stats_to_json(s) for s in done])
    if failed:
        error(f"{failed} of {len(sources)} source(s) failed; {len(done)} indexed")
        return 1
    return 0


def _run_many(sources: list[str], *, repo: str | None, commit: str | None, ref: str | None, db: str | None,
              jobs: int | None, json_out: bool, use_cache: bool, from_list: str | None, cluster: str | None,
              scheduler: str | None, reindex: bool) -> int:
    """Many sources as tasks on a pool or a Dask cluster (``index_batch.py``)."""
    from errdex.cluster import parse_spec
    from errdex.commands.index_batch import read_list, run_index_many
    from errdex.extract.groups import IndexOptions

    try:
        spec = parse_spec(cluster, scheduler, jobs)
    except ValueError as exc:
        error(str(exc))
        return 2
    if from_list is not None:
        try:
            sources = [*sources, *read_list(from_list)]
        except (OSError, UnicodeDecodeError) as exc:
            error(f"--from-list {from_list}: cannot read it ({exc})")
            return 2
    if not sources:
        error("no source to index (the list is empty)")
        return 2
    catalog = open_or_report(db)
    if catalog is None:
        return 1
    try:
        options = IndexOptions(repo=repo, commit=commit, ref=ref, use_cache=use_cache)
        return run_index_many(catalog, sources, spec, options, json_out=json_out, reindex=reindex)
    finally:
        catalog.close()


def run_show(error_id: str, *, db: str | None, json_out: bool) -> int:
    eid = error_id.strip().lower()
    if not _ID.match(eid):
        error(f"{error_id!r} is not an error id (16 hexadecimal characters, as in /errors/<id>)")
        return 2
    catalog = open_or_report(db)
    if catalog is None:
        return 1
    try:
        record = catalog.get_error(eid)
        if record is None:
            error(f"no error with id {eid} in the catalog (indexed snapshots: {len(catalog.snapshots())})")
            return 1
        if json_out:
            try:
                from errdex.documents import error_document
            except ImportError as exc:
                error(f"the JSON document of an error is not available in this build ({exc})")
                return 1
            document = error_document(catalog, eid)
            if document is None:
                error(f"no error with id {eid} in the catalog")
                return 1
            print_json(document)
        else:
            from errdex.commands.page_view import page_view
            from errdex.documents import absent_from
            from errdex.observe.evidence import raised_instead_of

            snap = record.latest[0]
            seen = catalog.observations(error_id=eid, snapshot_key=snap.key)
            stdout().print(page_view(record, catalog.get_analysis(eid, snap.key), absent_from(catalog, record),
                                     seen, raised_instead_of(catalog, snap.key, seen)))
    finally:
        catalog.close()
    return 0


def run_stats(*, db: str | None, json_out: bool) -> int:
    from errdex.commands.index_views import stats_view

    catalog = open_or_report(db)
    if catalog is None:
        return 1
    try:
        all_stats = catalog.stats()
        runs = {s.snapshot.key: catalog.observe_run(s.snapshot.key) for s in all_stats}
    finally:
        catalog.close()
    if json_out:
        from errdex.observe.evidence import observed_stats

        print_json([{**stats_to_json(s), "observed": observed_stats(runs.get(s.snapshot.key))} for s in all_stats])
        return 0
    out = stdout()
    if not all_stats:
        out.print("The catalog is empty: index something with `errdex index SOURCE`.")
        return 0
    for s in all_stats:
        out.print(stats_view(s))
    return 0
