"""Persistent workers per environment: ``worker_script.py --serve`` started once in the sandbox.

A worker imports the library once and stays up for the whole ``prove`` run; batches are handed over
as files in its inbox (``<n>.req.json`` in, ``<n>.res.json`` and ``<n>.done`` out), each script still
run in a child forked from the imported parent (fresh module state per example).  One worker per
job; each runs under ``sandbox.run`` (limits, no network) in a background thread.  When a worker is
gone (it crashed or hit its limit) ``submit`` says so and the caller falls back to a batch process.
"""

from __future__ import annotations

import itertools
import json
import shutil
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from errdex.prove.harness import run_env
from errdex.sandbox import Environment, Limits, RunRequest, run

WORKER_SCRIPT = Path(__file__).with_name("worker_script.py")
LIFETIME_S = 6 * 3600.0


class _Worker:
    def __init__(self, env: Environment, package: str, root: Path, extra: Mapping[str, str]) -> None:
        self.inbox = root / "inbox"
        self.inbox.mkdir(parents=True)
        self.lock = threading.Lock()
        self.alive = True
        self._counter = itertools.count()
        self.thread = threading.Thread(target=self._serve, args=(env, package, root, extra), daemon=True)
        self.thread.start()

    def _serve(self, env: Environment, package: str, root: Path, extra: Mapping[str, str]) -> None:
        try:
            run(RunRequest(argv=(str(env.python), str(WORKER_SCRIPT), "--serve", package, str(self.inbox)),
                           limits=Limits(timeout_s=LIFETIME_S, memory_bytes=4 * 1024**3),
                           env={"PYTHONDONTWRITEBYTECODE": "1", **run_env(package), **extra}, scratch=root / "run"))
        finally:
            self.alive = False

    def submit(self, items: Sequence[dict[str, Any]], timeout_s: float) -> list[dict[str, Any]] | None:
        """The batch's results in order, or None when the worker is gone or too slow."""
        with self.lock:
            n = next(self._counter)
            tmp = self.inbox / f"{n:08d}.tmp"
            tmp.write_text(json.dumps(list(items)))
            tmp.rename(self.inbox / f"{n:08d}.req.json")
            done = self.inbox / f"{n:08d}.done"
            deadline = time.monotonic() + timeout_s
            while not done.exists():
                if not self.alive or time.monotonic() > deadline:
                    return None
                time.sleep(0.005)
            res = self.inbox / f"{n:08d}.res.json"
            out: list[dict[str, Any]] = json.loads(res.read_text()) if res.is_file() else []
            return out

    def stop(self) -> None:
        (self.inbox / "stop").touch()
        self.thread.join(timeout=30)


class WorkerPool:
    """``size`` persistent workers for one environment; a thread takes a free one per batch."""

    def __init__(self, env: Environment, package: str, size: int, extra: Mapping[str, str] | None = None) -> None:
        self._root = Path(tempfile.mkdtemp(prefix="errdex-pool-"))
        self._workers = [_Worker(env, package, self._root / f"w{i}", dict(extra or {})) for i in range(max(1, size))]
        self._free: list[_Worker] = list(self._workers)
        self._cond = threading.Condition()

    def submit(self, items: Sequence[dict[str, Any]], timeout_s: float) -> list[dict[str, Any]] | None:
        with self._cond:
            while not self._free:
                self._cond.wait()
            w = self._free.pop()
        try:
            return w.submit(items, timeout_s) if w.alive else None
        finally:
            with self._cond:
                self._free.append(w)
                self._cond.notify()

    def close(self) -> None:
        for w in self._workers:
            w.stop()
        shutil.rmtree(self._root, ignore_errors=True)
