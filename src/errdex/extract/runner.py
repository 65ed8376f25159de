"""``extract_tree``: phase 1 over every file (in parallel), then phase 2 in the parent.

Files are sorted largest first and dealt into chunks so that two cores stay
busy to the end, and a chunk's results cross the process boundary once.
``jobs=1`` (or a tiny tree) runs inline with no pool at all.  With a
``ResultCache`` the workers take each unchanged file's phase-1 result from
the cache instead of parsing it (``cache.py``), and the parent stores the
new ones as their chunks arrive: it is the cache's only writer.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from errdex.extract import attrtexts, forwarded
from errdex.extract.bounds import cut_warnings, snapshot_cap
from errdex.extract.cache import ResultCache, load
from errdex.extract.calls import tables_read
from errdex.extract.forwardcalls import passed_caught
from errdex.extract.ids import assign_ids
from errdex.extract.imports import module_name
from errdex.extract.ir import Hole
from errdex.extract.resolve import Resolver
from errdex.extract.summary import FileResult
from errdex.extract.worker import (
    Item,
    no_cyclic_gc,
    process_chunk,
    process_chunk_lookup,
    process_file,
)
from errdex.limits import ENV_PREFIX, current
from errdex.model import CallEdge, ConfigOption, ErrorSite, ExtractResult, FileFailure, TestExpectation
from errdex.sources.base import SourceFile, SourceTree

INLINE_BELOW = 24  # files: below this a pool costs more than it saves
INLINE_CHUNK = 16  # files per step inline: one cache transaction each, and a progress tick
GUIDED_MIN_SHARE = 48  # the smallest pool chunk: this many times fewer bytes than one worker's share


def _size(f: SourceFile) -> int:
    if f.member:
        return f.size
    try:
        return f.abspath.stat().st_size
    except OSError:
        return 0


def _chunks(files: tuple[SourceFile, ...], jobs: int) -> list[list[Item]]:
    """Largest files first, in chunks that shrink with the work left (guided self-scheduling).

    Each chunk holds about a ``2 * jobs``-th of the bytes not yet dealt: the first
    chunks are big (few round trips, few pickles), the last ones small, so that
    the workers run out of work at nearly the same moment instead of one core
    idling while the other finishes a full-size chunk.
    """
    sized = sorted(((f, _size(f)) for f in files), key=lambda p: p[1], reverse=True)
    left = sum(size for _, size in sized)
    floor = max(1, left // (jobs * GUIDED_MIN_SHARE))
    chunks: list[list[Item]] = []
    chunk: list[Item] = []
    filled = 0
    for f, size in sized:
        chunk.append(Item.of(f))
        filled += size
        if filled >= max(floor, left // (2 * jobs)):
            chunks.append(chunk)
            left -= filled
            chunk, filled = [], 0
    if chunk:
        chunks.append(chunk)
    return chunks


def _context() -> multiprocessing.context.BaseContext:
    """``fork`` when this process has a single thread (cheapest, no re-import of ``__main__``);
    ``forkserver`` when other threads exist (a Rich progress bar has one), where fork is unsafe."""
    if _single_threaded() and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["errdex.extract.worker"])
    return ctx


def _pool(workers: int) -> ProcessPoolExecutor:
    """Workers that see this process's ``ERRDEX_STRICT`` and ``ERRDEX_LIMIT_*``: a forkserver's
    children inherit the environment the server started with, not the one of the moment."""
    seen = {k: v for k, v in os.environ.items() if k == "ERRDEX_STRICT" or k.startswith(ENV_PREFIX)}
    return ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=_set_env, initargs=(seen,))


def _set_env(seen: dict[str, str]) -> None:
    for k in [k for k in os.environ if k == "ERRDEX_STRICT" or k.startswith(ENV_PREFIX)]:
        del os.environ[k]
    os.environ.update(seen)


def _single_threaded() -> bool:
    """No other thread, counting those that ``threading`` does not know of (pytest-xdist's
    execnet starts some): on Linux the kernel's list of this process's tasks."""
    if threading.active_count() != 1:
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return True  # no /proc: what ``threading`` says


def _results(out: list[Any], chunk: list[Item], max_bytes: int, cache: ResultCache | None) -> list[FileResult]:
    """What a chunk's task returned as results: the objects, or (through the cache) their pickles,
    of which those extracted now are stored in the cache here, one transaction per chunk."""
    if cache is None:
        return out
    cache.put_many([(key, blob) for blob, key in out if key is not None])
    return [_loaded(blob, item, max_bytes) for (blob, _), item in zip(out, chunk, strict=True)]


def _loaded(blob: bytes, item: Item, max_bytes: int) -> FileResult:
    r = load(blob)
    return r if r is not None else process_file(item, max_bytes)  # a corrupt entry: extract again


def _task(chunk: list[Item], max_bytes: int, cache: ResultCache | None) -> tuple[Callable[..., list[Any]], tuple[Any, ...]]:
    """The worker function and its arguments for one chunk."""
    if cache is None:
        return process_chunk, (chunk, max_bytes)
    return process_chunk_lookup, (chunk, max_bytes, cache)


def _run_phase1(tree: SourceTree, jobs: int, max_bytes: int,
                progress: Callable[[int], None] | None, cache: ResultCache | None) -> Iterator[FileResult]:
    items = [Item.of(f) for f in tree.files]
    if jobs <= 1 or len(items) < INLINE_BELOW:
        for i in range(0, len(items), INLINE_CHUNK):
            chunk = items[i : i + INLINE_CHUNK]
            fn, args = _task(chunk, max_bytes, cache)
            out = fn(*args)
            if progress is not None:
                progress(len(out))
            yield from _results(out, chunk, max_bytes, cache)
        return
    lost: list[Item] = []
    with _pool(jobs) as pool:
        futures: dict[Future[list[Any]], list[Item]] = {}
        for chunk in _chunks(tree.files, jobs):
            fn, args = _task(chunk, max_bytes, cache)
            futures[pool.submit(fn, *args)] = chunk
        for fut in as_completed(futures):
            try:
                out = fut.result()
            except BrokenProcessPool:
                lost.extend(futures[fut])
                continue
            if progress is not None:
                progress(len(out))
            yield from _results(out, futures[fut], max_bytes, cache)
    if lost:
        yield from _retry_one_by_one(sorted(lost), max_bytes, progress)


def _retry_one_by_one(items: list[Item], max_bytes: int,
                      progress: Callable[[int], None] | None) -> Iterator[FileResult]:
    """After a worker died (a file crashed the parser, or the OOM killer struck): one worker, one
    file per task, in order; the file being read when the worker dies again is recorded as a
    failure and the rest go on in a fresh pool."""
    while items:
        done = 0
        with _pool(1) as pool:
            futures = [pool.submit(process_chunk, [item], max_bytes) for item in items]
            for fut in futures:
                try:
                    (r,) = fut.result()
                except BrokenProcessPool:
                    break
                done += 1
                if progress is not None:
                    progress(1)
                yield r
        if done == len(items):
            return
        culprit = items[done]
        if progress is not None:
            progress(1)
        yield FileResult(path=culprit.path, failure=FileFailure(culprit.path, "the worker process died while reading it"))
        items = items[done + 1 :]


def extract_tree(tree: SourceTree, *, jobs: int | None = None,
                 progress: Callable[[int], None] | None = None,
                 max_file_bytes: int | None = None, cache: ResultCache | None = None) -> ExtractResult:
    """Every error site, class, config option and test expectation of ``tree``.

    ``progress(n)`` is called with the number of files just finished.  Files
    that cannot be read or parsed are in ``failures`` with their reason.
    ``cache`` (the CLI passes one) lets unchanged files skip phase 1.
    ``max_file_bytes`` defaults to ``Limits.file_bytes``; the other bounds
    (``errdex.limits``) apply too, and what they cut is in ``warnings``.
    """
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    if max_file_bytes is None:
        max_file_bytes = current().file_bytes
    with no_cyclic_gc():
        return _extract(tree, jobs, progress, max_file_bytes, cache)


def _extract(tree: SourceTree, jobs: int, progress: Callable[[int], None] | None,
             max_file_bytes: int, cache: ResultCache | None) -> ExtractResult:
    results = list(_run_phase1(tree, jobs, max_file_bytes, progress, cache))
    digests = {r.path: r.digests for r in results if r.digests is not None}  # from the same read as the parse
    return finish_phase2(results, tree.snapshot.repo, skipped=tree.skipped, line_digests=digests)


def finish_phase2(phase1: list[FileResult], repo: str, *, skipped: Sequence[FileFailure] = (),
                  line_digests: dict[str, bytes] | None = None) -> ExtractResult:
    """Phase 2 over every file's phase-1 result, wherever phase 1 ran (here, a pool, or the file
    groups of a large source on a Dask cluster, ``extract/groups.py``)."""
    limits = current()
    results = sorted(phase1, key=lambda r: r.path)
    resolver = Resolver(results, repo, limits.template_chars)
    failures: list[FileFailure] = list(skipped)
    warnings: list[FileFailure] = []
    config: list[ConfigOption] = []
    tests: list[TestExpectation] = []
    calls: list[CallEdge] = []
    raise_statements = raise_sites = 0
    for r in results:
        if r.failure is not None:
            failures.append(r.failure)
            continue
        if r.facts_failure is not None:
            failures.append(r.facts_failure)
        raise_statements += r.raise_statements
        raise_sites += r.raise_sites
        config.extend(r.config)
        tests.extend(r.tests)
        warnings.extend(r.warnings)
        calls.extend(r.calls)

    def resolved() -> Iterator[tuple[str, ErrorSite, forwarded.Caught]]:
        for r in results:
            if r.failure is None:
                module = r.summary.module if r.summary is not None else module_name(r.path)
                yield from ((r.path, resolver.site(s, r.path, module),
                             forwarded.Caught(s.forwards, s.try_lines, s.caught, s.caught_via, s.caught_anywhere,
                                              s.caught_iterates))
                            for s in r.sites)

    calls = tables_read(calls, resolver.tables.canonical)
    found = list(resolved())
    passed = passed_caught(found, resolver.callers(), resolver.tables.functions)  # `self.error(str(ex))`
    with_caught = forwarded.attach(found, calls, resolver.tables.canonical, resolver.tables.bases_chain,
                                   _current_helpers(results), passed)
    # `rep.problem_msg = "..."` on an instance whose class raises `self.error(self.problem_msg)` (nibabel)
    with_caught = attrtexts.attach(with_caught, resolver.summaries, resolver.tables.canonical,
                                   resolver.tables.bases_chain, resolver.templates_of)
    sites = list(snapshot_cap(iter(with_caught), limits.sites_per_snapshot, warnings))
    warnings.extend(cut_warnings(resolver.cut, limits.template_chars))
    return ExtractResult(
        sites=tuple(assign_ids(repo, sites)),
        warnings=tuple(sorted(warnings, key=lambda w: w.path)),
        failures=tuple(failures),
        files_read=sum(1 for r in results if r.failure is None),
        classes=resolver.classes(),
        config=tuple(config),
        tests=tuple(tests),
        symbols=resolver.symbols(),
        raise_statements=raise_statements,
        raise_sites=raise_sites,
        calls=tuple(calls),
        line_digests=line_digests or {},
    )



def _current_helpers(results: Sequence[FileResult]) -> frozenset[str]:
    """The package functions that return the exception being handled (``return sys.exc_info()[1]``)."""
    return frozenset(f"{r.summary.module}.{key}" if r.summary.module else key
                     for r in results if r.summary is not None
                     for key, f in r.summary.functions.items()
                     if any(isinstance(x, Hole) and x.expr == forwarded.CURRENT for x in f.returns))
