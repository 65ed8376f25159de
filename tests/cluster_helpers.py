"""Helpers for the tests that start real clusters: task functions the workers import by name,
wheels of real-looking packages built from the fixtures, and a Dask scheduler + workers started
as separate processes (``dask scheduler`` / ``dask worker``), as an operator runs them.

This module must be importable by the worker processes: the tests put ``tests/`` on their
``PYTHONPATH``.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TESTS = Path(__file__).resolve().parent


def square(x: int) -> int:
    return x * x


def square_unless(x: int, bad: int) -> int:
    if x == bad:
        raise ValueError(f"refusing {x}")
    return x * x


def die_on(x: int, bad: int) -> int:
    """Kills its own worker process on ``bad`` (a segfault or the OOM killer, as far as the pool sees)."""
    if x == bad:
        os._exit(13)
    time.sleep(0.05)
    return x * x


def make_wheel(dest: Path, name: str, version: str, package: Path, *, extra: dict[str, str] | None = None) -> Path:
    """A wheel of the Python files under ``package`` (laid out as the package ``package.name``)."""
    dest.mkdir(parents=True, exist_ok=True)
    wheel = dest / f"{name}-{version}-py3-none-any.whl"
    meta = (f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
            f"Project-URL: Source, https://github.com/example-org/{name}\n")
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in sorted(package.rglob("*.py")):
            zf.writestr(f"{package.name}/{p.relative_to(package).as_posix()}", p.read_bytes())
        for rel, text in (extra or {}).items():
            zf.writestr(rel, text)
        zf.writestr(f"{name}-{version}.dist-info/METADATA", meta)
        zf.writestr(f"{name}-{version}.dist-info/WHEEL", "Wheel-Version: 1.0\n")
        zf.writestr(f"{name}-{version}.dist-info/RECORD", "")
    return wheel


def many_modules(n: int) -> dict[str, str]:
    """``n`` modules of a package ``bigpkg``, each raising its own errors (a large source)."""
    out = {"bigpkg/__init__.py": "from bigpkg.mod0 import check0\n"}
    for i in range(n):
        out[f"bigpkg/mod{i}.py"] = (
            f"class Mod{i}Error(ValueError):\n    pass\n\n\n"
            f"def check{i}(value, limit):\n"
            f"    if value > limit:\n"
            f"        raise Mod{i}Error(f\"module {i}: value {{value}} is above the limit {{limit}}\")\n"
            f"    if value < 0:\n"
            f"        raise ValueError(\"module {i} needs a non-negative value, got %r\" % (value,))\n"
            f"    return value\n")
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def worker_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["ERRDEX_HOME"] = str(home)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")]).strip(os.pathsep)
    return env


@contextlib.contextmanager
def dask_cluster(home: Path, workers: int = 2, timeout: float = 90.0) -> Iterator[str]:
    """``dask scheduler`` and ``dask worker`` processes on 127.0.0.1; yields the scheduler address."""
    bindir = Path(sys.executable).parent
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = worker_env(home)
    logs = home / "dask-logs"
    logs.mkdir(parents=True, exist_ok=True)
    procs: list[subprocess.Popen[bytes]] = []
    try:
        procs.append(subprocess.Popen(
            [str(bindir / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
             "--dashboard-address", ":0", "--no-dashboard"],
            env=env, stdout=subprocess.DEVNULL, stderr=(logs / "scheduler.log").open("wb")))
        for i in range(workers):
            procs.append(subprocess.Popen(
                [str(bindir / "dask"), "worker", address, "--nworkers", "1", "--nthreads", "1",
                 "--no-dashboard", "--memory-limit", "2GiB", "--local-directory", str(home / f"w{i}")],
                env=env, stdout=subprocess.DEVNULL, stderr=(logs / f"worker{i}.log").open("wb")))
        _wait_for_workers(address, workers, timeout, logs)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def _wait_for_workers(address: str, n: int, timeout: float, logs: Path) -> None:
    from distributed import Client

    deadline = time.monotonic() + timeout
    while True:
        try:
            with Client(address, timeout=10) as client:
                client.wait_for_workers(n, timeout=max(1.0, deadline - time.monotonic()))
                return
        except (OSError, TimeoutError) as exc:
            if time.monotonic() > deadline:
                text = "\n".join(p.read_text(errors="replace")[-2000:] for p in sorted(logs.glob("*.log")))
                raise RuntimeError(f"the Dask cluster at {address} did not start: {exc}\n{text}") from exc
            time.sleep(1)
