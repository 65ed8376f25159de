"""Indexing one source as a task of a worker (a pool process or a Dask worker).

``index_source`` is what ``errdex index --cluster/--scheduler/--from-list``
maps over its sources: it opens the source *on the worker* (a ``pypi:`` spec
is downloaded there, so workers need nothing but ``pip install errdex[dask]``
and access to the package index), extracts it, and returns the snapshot with
its ``ExtractResult`` for the client to write.  Nothing here writes to the
catalog: one writer (the client) keeps the catalog's transactions simple and
lets the workers run without database credentials.

A large source on a Dask cluster is split into **file groups**: the task
submits one ``phase1_group`` task per group (each re-opens the source where
it lands: a local path must be visible to every worker, a ``pypi:`` spec is
pinned to the version first resolved), waits for them without holding its
worker slot (``worker_client`` secedes), and runs phase 2 over all the
results.  On a process pool a source is one task.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from typing import Any

from errdex.extract.cache import ResultCache, load
from errdex.extract.runner import finish_phase2
from errdex.extract.summary import FileResult
from errdex.extract.worker import (
    MAX_FILE_BYTES,
    Item,
    no_cyclic_gc,
    process_chunk,
    process_chunk_cached,
    process_file,
)
from errdex.model import ExtractResult, Snapshot
from errdex.sources import SourceError, SourceFile, open_source

GROUP_MIN_FILES = 200  # a source with fewer files is one task: splitting costs more than it saves
GROUP_BYTES = 2 * 1024 * 1024  # about this much source per file group


@dataclass(frozen=True, slots=True)
class IndexOptions:
    """What the client asks of every source (the ``index`` options that reach the workers)."""

    repo: str | None = None
    commit: str | None = None
    ref: str | None = None
    use_cache: bool = True
    group_min_files: int = GROUP_MIN_FILES  # a source with fewer files is never split (0: never split)
    group_bytes: int = GROUP_BYTES  # target size of one file group


@dataclass(frozen=True, slots=True)
class Indexed:
    """A source's outcome on a worker: its snapshot, and the extraction (None: already indexed)."""

    spec: str
    snapshot: Snapshot
    result: ExtractResult | None
    files: int = 0
    groups: int = 1
    seconds: float = 0.0

    @property
    def skipped(self) -> bool:
        return self.result is None


def skippable(snapshot: Snapshot) -> bool:
    """A snapshot whose key pins its content (a release, a commit): indexed once is indexed.

    A plain directory's key does not change when its files do, so it is always indexed again.
    """
    return snapshot.source_kind != "dir" or snapshot.commit is not None


def index_source(spec: str, options: IndexOptions, known: frozenset[str] = frozenset()) -> Indexed:
    """Open ``spec`` here and extract it; SourceError when there is nothing to index.

    ``known`` holds the keys of snapshots already in the catalog: such a
    snapshot is skipped after opening (a ``pypi:NAME`` spec says its version
    only once resolved).
    """
    started = time.perf_counter()
    with open_source(spec, repo=options.repo, commit=options.commit, ref=options.ref) as tree:
        snap = tree.snapshot
        if snap.key in known and skippable(snap):
            return Indexed(spec, snap, None, len(tree.files), 0, time.perf_counter() - started)
        groups = _groups(tree.files, options)
        client = _worker_client() if len(groups) > 1 else None
        with no_cyclic_gc():
            if client is None:
                results = _phase1([Item.of(f) for f in tree.files], options.use_cache)
                groups = [list(tree.files)]
            else:
                results = _phase1_on_cluster(client, _pinned(spec, snap), options, groups)
            result = finish_phase2(results, snap.repo)
    if result.files_read == 0:
        reasons = "; ".join(f"{f.path}: {f.reason}" for f in result.failures[:3])
        raise SourceError(f"{spec}: nothing indexable ({len(tree.files)} Python files, none could be parsed"
                          + (f": {reasons}" if reasons else "") + ")")
    return Indexed(spec, snap, result, len(tree.files), len(groups), time.perf_counter() - started)


def phase1_group(spec: str, options: IndexOptions, paths: list[str]) -> list[FileResult]:
    """Phase 1 of some of a source's files (a file group), on whichever worker runs it."""
    wanted = set(paths)
    with open_source(spec, repo=options.repo, commit=options.commit, ref=options.ref) as tree, no_cyclic_gc():
        items = [Item.of(f) for f in tree.files if f.path in wanted]
        if len(items) != len(wanted):
            raise SourceError(f"{spec}: {len(wanted) - len(items)} file(s) of the group are not in the source here")
        return _phase1(items, options.use_cache)


def _phase1_on_cluster(client: Any, spec: str, options: IndexOptions, groups: list[list[SourceFile]]) -> list[FileResult]:
    with client as c:  # ``worker_client``: leaves the worker's slot to the group tasks while waiting
        futures = [c.submit(phase1_group, spec, options, [f.path for f in g], pure=False) for g in groups]
        results: list[FileResult] = []
        for part in c.gather(futures):
            results.extend(part)
        return results


def _groups(files: tuple[SourceFile, ...], options: IndexOptions) -> list[list[SourceFile]]:
    """Files dealt into groups of about ``group_bytes``, largest first (one group below the threshold)."""
    if options.group_min_files <= 0 or len(files) < options.group_min_files:
        return [list(files)]
    sized = sorted(files, key=_size, reverse=True)
    total = sum(_size(f) for f in sized)
    n = max(1, min(len(sized) // max(1, options.group_min_files // 4), -(-total // max(1, options.group_bytes))))
    groups: list[list[SourceFile]] = [[] for _ in range(n)]
    loads = [0] * n
    for f in sized:  # the least loaded group takes the next largest file
        i = loads.index(min(loads))
        groups[i].append(f)
        loads[i] += _size(f)
    return [g for g in groups if g]


def _size(f: SourceFile) -> int:
    if f.member:
        return f.size
    try:
        return f.abspath.stat().st_size
    except OSError:
        return 0


def _pinned(spec: str, snap: Snapshot) -> str:
    """``pypi:NAME`` as ``pypi:NAME==VERSION``: every group must read the release the task opened."""
    if spec.startswith("pypi:") and "==" not in spec and snap.version:
        return f"{spec}=={snap.version}"
    return spec


def _worker_client() -> Any:
    """A client for submitting tasks from inside a Dask task, or None outside Dask (a pool process)."""
    try:
        from distributed import get_worker, worker_client
    except ImportError:
        return None
    try:
        get_worker()
    except ValueError:
        return None
    return worker_client()


_CACHE: dict[int, ResultCache | None] = {}


def _cache() -> ResultCache | None:
    """This worker process's phase-1 result cache (its own ``$ERRDEX_HOME``), opened once."""
    pid = os.getpid()
    if pid not in _CACHE:
        from errdex import paths

        base = paths.extract_cache_dir()
        cache = None
        if base is not None:
            with contextlib.suppress(OSError):
                cache = ResultCache.open(base)
        _CACHE[pid] = cache
    return _CACHE[pid]


def _phase1(items: list[Item], use_cache: bool) -> list[FileResult]:
    cache = _cache() if use_cache else None
    if cache is None:
        return process_chunk(items, MAX_FILE_BYTES)
    blobs = process_chunk_cached(items, MAX_FILE_BYTES, cache)
    return [r if (r := load(b)) is not None else process_file(i, MAX_FILE_BYTES) for b, i in zip(blobs, items, strict=True)]
