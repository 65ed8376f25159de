"""``errdex observe --cluster local[:N] | --scheduler ADDRESS``: one Dask task per test file.

The client resolves what local ``observe`` resolves (the artifact, the tests,
the environment's inputs: ``pipeline.resolve``) and sends every worker the
same two things once: an ``ObserveSetup`` (small) and a bundle, a tar.gz of
the workspace's ``project/`` copy and, unless the source is ``pypi:`` (then
the worker fetches the very file from the index itself and checks its
sha256), the artifact.  A task, on its worker:

1. prepares this run's plan once per worker process (``_plan_here``): the
   bundle unpacked under the worker's own data directory, the environment for
   (library, version, Python) built or reused there (``sandbox.ensure_environment``);
2. runs the test file with ``run.run_file``, exactly what local observe runs;
3. returns the outcome and the recorder's lines (``FileRecord``).

The client saves each one as the same record local observe keeps
(``run.save_sent``), so resuming, batch writes, mapping and the stored run
are those of ``pipeline.observe_files``.  A task that fails (an environment
that cannot be built, a worker that died) is one failed file, not kept as
done: a re-run tries it again.  Workers need only ``pip install errdex[dask]``.
"""

from __future__ import annotations

import io
import os
import shutil
import tarfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from errdex.cluster import ClusterSpec, open_mapper
from errdex.observe.pipeline import ObserveOptions, Resolved, workspace_for
from errdex.observe.run import (
    Executor,
    FileOutcome,
    FileRecord,
    RunPlan,
    events_path,
    forget,
    install_plugin,
    run_file,
    save_sent,
)
from errdex.observe.target import TargetError
from errdex.sandbox import EnvSpec, Limits, ensure_environment, locked
from errdex.sources.unpack_cache import archive_digest

STALE_S = 2 * 24 * 3600  # a worker removes other runs' copies unused for this long
# Left out of the bundle: caches everywhere; in a project folder, what a build writes and tool folders
# (what ``sandbox.envs`` leaves out when it builds a folder).
_CACHES = frozenset({"__pycache__", ".git"})
_BUILT = frozenset({"build", "dist", ".tox", ".venv", "node_modules"})


@dataclass(frozen=True, slots=True)
class ObserveSetup:
    """What every task of one run shares (sent once per worker with the bundle)."""

    snapshot_key: str
    token: str  # this run's: its copy of the project on each worker
    stamp: str  # the records' stamp (``Resolved.record_stamp``)
    name: str
    version: str
    requires_python: str | None
    python: str | None
    test_requirements: tuple[str, ...]
    extra_requirements: tuple[str, ...]
    roots: tuple[str, ...]
    timeout_s: float
    memory_bytes: int
    mode: str
    artifact_name: str  # file or folder name of the artifact in the bundle, or of the fetched file
    artifact_sha256: str  # of a file artifact ("" for a folder)
    pypi: bool  # the worker fetches NAME==VERSION from the index instead of unpacking it



def _keep_tests(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    parts = Path(info.name).parts
    return None if any(p in _CACHES for p in parts) or info.name.endswith(".pyc") else info


def _keep_source(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    parts = Path(info.name).parts[2:]  # below artifact/<name>
    if any(p in _BUILT or p.endswith(".egg-info") for p in parts):
        return None
    return _keep_tests(info)


def bundle(resolved: Resolved, *, ship_artifact: bool) -> bytes:
    """The workspace's ``project/`` (config files and test folders) and, if asked, the artifact."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        tar.add(resolved.project, arcname="project", filter=_keep_tests)
        artifact = resolved.dist.artifact
        if ship_artifact and artifact is not None:
            tar.add(artifact, arcname=f"artifact/{artifact.name}", filter=_keep_source)
    return buf.getvalue()


def make_setup(spec: str, resolved: Resolved, options: ObserveOptions) -> tuple[ObserveSetup, bytes]:
    """The setup and bundle of one run of ``spec`` on a cluster."""
    artifact = resolved.dist.artifact
    if artifact is None:
        raise TargetError(f"{spec}: nothing to install on the workers")
    pypi = spec.startswith("pypi:")
    env = resolved.env_spec
    setup = ObserveSetup(
        snapshot_key=resolved.snapshot.key, token=uuid.uuid4().hex[:16], stamp=resolved.record_stamp(options),
        name=env.name, version=env.version, requires_python=env.requires_python, python=env.python,
        test_requirements=env.test_requirements, extra_requirements=env.extra_requirements,
        roots=resolved.roots, timeout_s=options.timeout_s, memory_bytes=options.memory_bytes, mode=options.mode,
        artifact_name=artifact.name, artifact_sha256=archive_digest(artifact) if artifact.is_file() else "", pypi=pypi,
    )
    return setup, bundle(resolved, ship_artifact=not pypi)


# --------------------------------------------------------------------------- on a worker

_PLANS: dict[str, RunPlan] = {}
_PLANS_LOCK = threading.Lock()


def _artifact_here(setup: ObserveSetup, unpacked: Path) -> Path:
    if not setup.pypi:
        return unpacked / "artifact" / setup.artifact_name
    from errdex.sources.packages import fetch_pypi

    path = fetch_pypi(setup.name, setup.version)
    if path.name != setup.artifact_name or archive_digest(path) != setup.artifact_sha256:
        raise TargetError(f"pypi:{setup.name}=={setup.version}: this worker fetched {path.name}, not the "
                          f"{setup.artifact_name} the client indexed (same pip configuration on the workers?)")
    return path


def _unpack(setup: ObserveSetup, data: bytes) -> Path:
    """This run's copy of the bundle in this machine's data directory (once per machine)."""
    runs = workspace_for(setup.snapshot_key) / "cluster"
    runs.mkdir(parents=True, exist_ok=True)
    here = runs / setup.token
    with locked(runs / f"{setup.token}.lock"):
        if not (here / ".ready").is_file():
            shutil.rmtree(here, ignore_errors=True)
            here.mkdir()
            with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
                tar.extractall(here, filter="data")
            install_plugin(here)
            (here / "results").mkdir()
            (here / ".ready").write_text(setup.snapshot_key)
            _remove_stale(runs, keep=setup.token)
    return here


def _remove_stale(runs: Path, keep: str) -> None:
    now = time.time()
    for other in runs.iterdir():
        if other.is_dir() and other.name != keep:
            ready = other / ".ready"  # touched by every task; a copy being unpacked has none yet
            try:
                used = (ready if ready.is_file() else other).stat().st_mtime
            except OSError:
                continue
            if now - used > STALE_S:
                shutil.rmtree(other, ignore_errors=True)
                (runs / f"{other.name}.lock").unlink(missing_ok=True)


def _plan_here(setup: ObserveSetup, data: bytes) -> RunPlan:
    """This run's plan on this worker: the bundle unpacked, the environment built or reused."""
    with _PLANS_LOCK:
        plan = _PLANS.get(setup.token)
        if plan is None:
            here = _unpack(setup, data)
            env = ensure_environment(EnvSpec(
                name=setup.name, version=setup.version, artifact=_artifact_here(setup, here),
                test_requirements=setup.test_requirements, extra_requirements=setup.extra_requirements,
                requires_python=setup.requires_python, python=setup.python,
            ))
            plan = RunPlan(workspace=here, project=here / "project", files=(), env=env, roots=setup.roots,
                           limits=Limits(timeout_s=setup.timeout_s, memory_bytes=setup.memory_bytes),
                           mode=setup.mode)
            _PLANS.clear()  # one run at a time per worker process is the common case: keep only it
            _PLANS[setup.token] = plan
    os.utime(plan.workspace / ".ready")
    return plan


def observe_test_file(rel: str, setup: ObserveSetup, data: bytes) -> FileRecord:
    """The Dask task: observe one test file on this worker, as local observe does, and send it back."""
    plan = _plan_here(setup, data)
    outcome = run_file(plan, rel, setup.stamp)
    results = plan.workspace / "results"
    path = events_path(results, rel)
    lines = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
    forget(results, rel)  # the client keeps the record
    return FileRecord(outcome=outcome, lines=lines)


# --------------------------------------------------------------------------- on the client


def on_cluster(spec: ClusterSpec, setup: ObserveSetup, data: bytes, workspace: Path) -> Executor:
    """The executor of ``pipeline.observe_files`` for a cluster; the cluster is started (or joined)
    only when some file is left to run.  ClusterError when it cannot be."""
    results = workspace / "results"

    def execute(todo: list[str]) -> Iterator[FileOutcome]:
        if not todo:
            return
        with open_mapper(spec) as mapper:
            for out in mapper.map_unordered(observe_test_file, todo, setup, data):
                if out.value is not None:
                    save_sent(results, setup.stamp, setup.timeout_s, out.value)
                    yield out.value.outcome
                    continue
                forget(results, out.item)
                error = out.error or "the task returned nothing"
                died = "KilledWorker" in error or "died" in error
                yield FileOutcome(file=out.item, status="crash" if died else "error", returncode=-1,
                                  duration_s=0.0, reason=f"on the cluster: {error}")

    return execute
