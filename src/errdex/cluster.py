"""Map work over a local process pool or a Dask cluster (DESIGN.md: ``cluster.py``).

Every stage that fans work out over many units (``index`` over sources and
file groups, ``analyze`` over error groups, ``observe`` over test files) does
it through ``open_mapper(spec)`` and ``Mapper.map_unordered``:

- ``pool`` (the default): a ``ProcessPoolExecutor`` on this machine;
- ``local[:N]``: a Dask ``LocalCluster`` of N worker processes that errdex
  starts and stops itself (the same code path as a real cluster, on one box);
- ``--scheduler ADDRESS``: an existing Dask scheduler (dask-jobqueue,
  dask-kubernetes, ``dask ssh``, ``dask scheduler``/``dask worker``...).

The function mapped must be importable by name on the workers (a module-level
function of errdex): Dask and the pool pickle it by reference, so a worker
needs only ``pip install errdex[dask]``.  Results come back as they finish,
one ``Outcome`` per item, in completion order; a task that raises (or whose
worker dies) is an ``Outcome`` with ``error`` set, never the end of the run.

``dask``/``distributed`` are imported only here and only when a Dask mapper is
opened: ``explain`` and the plain ``index`` never pay for them.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import re
import traceback
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar, cast

T = TypeVar("T")
R = TypeVar("R")

Kind = Literal["pool", "local", "scheduler"]
WINDOW_PER_WORKER = 4  # tasks in flight per worker: enough to keep it busy, few results waiting


class ClusterError(Exception):
    """The cluster cannot be reached or started (the message says which and why)."""


@dataclass(frozen=True, slots=True)
class ClusterSpec:
    """Where tasks run: ``pool`` (this machine), ``local`` (a LocalCluster errdex starts) or ``scheduler``."""

    kind: Kind = "pool"
    workers: int | None = None  # pool/local: worker processes (None: every core)
    address: str | None = None  # scheduler: tcp://host:8786, or a scheduler file's path

    @property
    def distributed(self) -> bool:
        return self.kind != "pool"

    def describe(self) -> str:
        if self.kind == "scheduler":
            return f"Dask scheduler {self.address}"
        n = self.workers or os.cpu_count() or 1
        return f"local Dask cluster of {n} worker(s)" if self.kind == "local" else f"{n} local process(es)"


_LOCAL = re.compile(r"^local(?::(\d+))?$")


def parse_spec(cluster: str | None = None, scheduler: str | None = None, jobs: int | None = None) -> ClusterSpec:
    """``--cluster local[:N]`` / ``--scheduler ADDRESS`` / ``--jobs N`` as a ClusterSpec; ValueError when bad."""
    if cluster is not None and scheduler is not None:
        raise ValueError("--cluster and --scheduler exclude each other (a scheduler is a cluster already)")
    if scheduler is not None:
        address = scheduler.strip()
        if not address:
            raise ValueError("--scheduler: expected an address such as tcp://host:8786")
        return ClusterSpec(kind="scheduler", address=address)
    if cluster is not None:
        m = _LOCAL.match(cluster.strip())
        if m is None:
            raise ValueError(f"--cluster {cluster!r}: expected local or local:N (N worker processes)")
        n = int(m.group(1)) if m.group(1) else jobs
        if n is not None and n < 1:
            raise ValueError(f"--cluster {cluster!r}: expected at least one worker")
        return ClusterSpec(kind="local", workers=n)
    return ClusterSpec(kind="pool", workers=jobs)


@dataclass(frozen=True, slots=True)
class Outcome[T, R]:
    """What became of one item: its value, or the error that stopped it (``Type: message``)."""

    item: T
    value: R | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class Mapper(Protocol):
    """What a stage uses: run ``fn(item, *common)`` for every item, results as they finish."""

    spec: ClusterSpec

    @property
    def workers(self) -> int:
        """How many tasks run at once (sizes file groups and in-flight windows)."""

    def map_unordered(self, fn: Callable[..., R], items: Iterable[T], *common: Any) -> Iterator[Outcome[T, R]]: ...


def _describe_error(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(exc).__name__}: {first}"[:500] if first else type(exc).__name__


# --------------------------------------------------------------------------- process pool


def _pool_context() -> multiprocessing.context.BaseContext:
    """``forkserver``: the client may run a Rich progress thread, and fork with threads is unsafe."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _run_caught[R](fn: Callable[..., R], item: Any, common: tuple[Any, ...]) -> tuple[R | None, str | None]:
    """In the worker: the value, or the error as text (an exception object may not unpickle)."""
    try:
        return fn(item, *common), None
    except Exception as exc:
        if os.environ.get("ERRDEX_DEBUG"):
            traceback.print_exc()
        return None, _describe_error(exc)


class PoolMapper:
    """``ProcessPoolExecutor`` on this machine; a worker killed mid-task fails only its tasks."""

    def __init__(self, spec: ClusterSpec) -> None:
        self.spec = spec
        self._workers = spec.workers or os.cpu_count() or 1
        self._pool: ProcessPoolExecutor | None = None

    @property
    def workers(self) -> int:
        return self._workers

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self._workers, mp_context=_pool_context())
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def map_unordered(self, fn: Callable[..., R], items: Iterable[T], *common: Any) -> Iterator[Outcome[T, R]]:
        """Items in a window of ``WINDOW_PER_WORKER`` per worker.  When a worker dies, the pool is
        lost with every task in it: those tasks run again one at a time in a fresh pool, so the
        one that kills its worker again is known exactly and fails alone."""
        pending = iter(items)
        window = self._workers * WINDOW_PER_WORKER
        running: dict[Future[tuple[R | None, str | None]], tuple[T, bool]] = {}
        suspects: list[T] = []  # lost with a broken pool: each runs again on its own

        def fill() -> None:
            if suspects:
                if not running:
                    alone = suspects.pop(0)
                    running[self._executor().submit(_run_caught, fn, alone, common)] = (alone, True)
                return
            while len(running) < window:
                nxt = next(pending, _END)
                if nxt is _END:
                    return
                running[self._executor().submit(_run_caught, fn, nxt, common)] = (cast(T, nxt), False)

        fill()
        while running:
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            broken = False
            for fut in done:
                item, alone = running.pop(fut)
                try:
                    value, error = fut.result()
                except BrokenProcessPool:
                    broken = True
                    if alone:
                        yield Outcome(item, None, "the worker process died while running it")
                    else:
                        suspects.append(item)
                    continue
                yield Outcome(item, value, error)
            if broken:
                for fut, (item, _alone) in list(running.items()):
                    running.pop(fut)
                    finished = fut.done() and not isinstance(fut.exception(), BrokenProcessPool)
                    if finished:
                        value, error = fut.result()
                        yield Outcome(item, value, error)
                    else:
                        suspects.append(item)
                with contextlib.suppress(Exception):
                    assert self._pool is not None
                    self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
            fill()


_END = object()


# --------------------------------------------------------------------------- Dask


def _dask() -> Any:
    """``distributed``, or ClusterError saying how to install it."""
    try:
        import distributed
    except ImportError as exc:
        raise ClusterError(f"Dask is not installed ({exc}): pip install 'errdex[dask]'") from exc
    return distributed


class DaskMapper:
    """Tasks on a Dask cluster: one that errdex starts (``local[:N]``) or an existing scheduler."""

    def __init__(self, spec: ClusterSpec, *, timeout: float = 30.0) -> None:
        dd = _dask()
        self.spec = spec
        self._cluster: Any = None
        try:
            if spec.kind == "local":
                n = spec.workers or os.cpu_count() or 1
                # one single-threaded process per worker: extraction holds the GIL, and a crash
                # (or the OOM killer) takes one worker, not the run
                self._cluster = dd.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                                dashboard_address=":0", silence_logs=50)
                self.client = dd.Client(self._cluster, timeout=timeout)
            else:
                address = spec.address or ""
                if os.path.isfile(address):
                    self.client = dd.Client(scheduler_file=address, timeout=timeout)
                else:
                    self.client = dd.Client(address, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            self.close()
            raise ClusterError(f"{spec.describe()}: cannot connect ({_describe_error(exc)})") from exc

    @property
    def workers(self) -> int:
        info = self.client.scheduler_info()
        n = sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values())
        return max(1, n)

    def wait_for_workers(self, n: int = 1, timeout: float = 60.0) -> None:
        try:
            self.client.wait_for_workers(n, timeout=timeout)
        except TimeoutError as exc:
            raise ClusterError(f"{self.spec.describe()}: no worker joined within {timeout:.0f} s") from exc

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            with contextlib.suppress(Exception):
                client.close()
        if self._cluster is not None:
            with contextlib.suppress(Exception):
                self._cluster.close()
            self._cluster = None

    def _scatter(self, common: tuple[Any, ...]) -> list[Any]:
        """Large shared arguments go to the workers once, not with every task."""
        return [self.client.scatter(c, broadcast=True) if _large(c) else c for c in common]

    def map_unordered(self, fn: Callable[..., R], items: Iterable[T], *common: Any) -> Iterator[Outcome[T, R]]:
        dd = _dask()
        shared = self._scatter(common)
        pending = iter(items)
        window = max(2, self.workers * WINDOW_PER_WORKER)
        running: dict[Any, T] = {}
        queue = dd.as_completed()

        def fill() -> None:
            while len(running) < window:
                nxt = next(pending, _END)
                if nxt is _END:
                    return
                fut = self.client.submit(fn, nxt, *shared, pure=False)
                running[fut] = cast(T, nxt)
                queue.add(fut)

        fill()
        while running:
            fut = next(queue)
            item = running.pop(fut)
            try:
                value = fut.result()
            except Exception as exc:  # the task raised, or its worker died too often (KilledWorker)
                yield Outcome(item, None, _describe_error(exc))
            else:
                yield Outcome(item, value, None)
            fut.release()
            fill()


def _large(value: Any) -> bool:
    """Worth sending once: a collection of many items, or bytes (a bundle of files) over 64 KiB."""
    if isinstance(value, (bytes, bytearray)):
        return len(value) > 1 << 16
    return isinstance(value, (set, frozenset, dict, list, tuple)) and len(value) > 64


@contextlib.contextmanager
def open_mapper(spec: ClusterSpec) -> Iterator[PoolMapper | DaskMapper]:
    """The mapper for ``spec``, shut down (a LocalCluster stopped) when the block ends.

    This is the helper other stages use to fan out (``observe`` per test file,
    ``analyze`` per error group)::

        with open_mapper(parse_spec(cluster, scheduler, jobs)) as mapper:
            for out in mapper.map_unordered(work_on_one, items, shared_arg):
                ...
    """
    mapper: PoolMapper | DaskMapper = DaskMapper(spec) if spec.distributed else PoolMapper(spec)
    try:
        if isinstance(mapper, DaskMapper):
            mapper.wait_for_workers(1)
        yield mapper
    finally:
        mapper.close()
