"""``errdex observe SOURCE``: index if needed, build the sandbox, run the tests, store what was seen.

The steps, each in its own module: ``target`` (the artifact and the tests),
``sandbox`` (environment and limited runs), ``run`` (the files with the
recorder), ``mapping`` (events to sites by frames), the catalog (stored per
snapshot, replacing an earlier observation).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from errdex import paths
from errdex.catalog.base import Catalog
from errdex.model import ErrorSite, FileFailure, Observation, ObserveRun, Snapshot
from errdex.observe.mapping import SiteIndex, observations
from errdex.observe.run import (
    FAILED,
    Executor,
    FileOutcome,
    RunOutput,
    RunPlan,
    collect,
    fingerprint,
    in_threads,
    install_plugin,
    prepare_project,
    run_files,
    stamp,
)
from errdex.observe.target import (
    Distribution,
    TargetError,
    TestTree,
    distribution_of,
    given_tests,
    package_roots,
    project_tests,
)
from errdex.sandbox import EnvSpec, Limits, declared_test_requirements, ensure_environment, env_identity
from errdex.sandbox.runner import GiB

SIMPLE_JSON = "https://pypi.org/simple/{name}/"


@dataclass(frozen=True, slots=True)
class ObserveOptions:
    tests: tuple[Path, ...] = ()
    python: str | None = None
    jobs: int = 1
    timeout_s: float = 600.0
    memory_bytes: int = 8 * GiB
    resume: bool = True
    extra_requirements: tuple[str, ...] = ()
    mode: str = "auto"


@dataclass(frozen=True, slots=True)
class ObserveResult:
    run: ObserveRun
    outcomes: tuple[FileOutcome, ...]
    observations: tuple[Observation, ...]
    raise_statements: int
    sites: int


@dataclass(frozen=True, slots=True)
class Prepared:
    """Everything resolved before the first test runs (the bench reuses it for its baseline)."""

    snapshot: Snapshot
    dist: Distribution
    tests: TestTree
    plan: RunPlan


def workspace_for(snapshot: Snapshot | str) -> Path:
    """The snapshot's (or snapshot key's) observe workspace in this machine's data directory."""
    key = snapshot if isinstance(snapshot, str) else snapshot.key
    slug = re.sub(r"[^\w.-]+", "-", key)[:80]
    digest = hashlib.sha256(key.encode()).hexdigest()[:8]
    path = paths.data_dir() / "observe" / f"{slug}-{digest}"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _download_sdist(name: str, version: str, dest: Path) -> Path:
    """The sdist of name==version as a file, from the index's simple API (PEP 691 JSON, the API pip
    uses), checked against its sha256; never built."""
    import httpx

    norm = re.sub(r"[-_.]+", "-", name).lower()
    try:
        listing = httpx.get(SIMPLE_JSON.format(name=norm), timeout=60, follow_redirects=True,
                            headers={"Accept": "application/vnd.pypi.simple.v1+json"})
        listing.raise_for_status()
        stems = {f"{n}-{version}" for n in (name, norm, norm.replace("-", "_"))}
        files = [f for f in listing.json().get("files", [])
                 if any(str(f.get("filename", "")).lower() in (f"{s.lower()}.tar.gz", f"{s.lower()}.zip")
                        for s in stems)]
        if not files:
            raise TargetError(f"{name}=={version} has no sdist on the index; pass --tests PATH")
        info = files[0]
        target = dest / str(info["filename"]).replace("/", "_")
        if not target.is_file():
            data = httpx.get(str(info["url"]), timeout=300, follow_redirects=True)
            data.raise_for_status()
            if hashlib.sha256(data.content).hexdigest() != info.get("hashes", {}).get("sha256"):
                raise TargetError(f"{info['filename']}: sha256 does not match the index's")
            target.write_bytes(data.content)
    except httpx.HTTPError as exc:
        raise TargetError(f"cannot fetch the sdist of {name}=={version} ({exc}); pass --tests PATH") from exc
    return target


def _unpack_all(archive: Path, dest: Path) -> Path:
    """Every member of an sdist (tests need their data files), safely, once."""
    from errdex.sources.archives import single_top_folder, unpack_tar, unpack_zip

    marker = dest / ".errdex-complete"
    if not marker.is_file():
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir(parents=True)
        unpack = unpack_zip if archive.name.endswith(".zip") else unpack_tar
        unpack(archive, dest, wanted=lambda _: True)
        marker.write_text(archive.name)
    return single_top_folder(dest)


@contextlib.contextmanager
def _artifact(spec: str, snapshot: Snapshot) -> Iterator[Path]:
    """The file or directory the snapshot was indexed from."""
    if spec.startswith("pypi:"):
        from errdex.sources.packages import fetch_pypi, parse_pypi_spec

        name, version = parse_pypi_spec(spec)
        yield fetch_pypi(name, version or snapshot.version)
        return
    if spec.startswith("installed:"):
        raise TargetError(f"{spec}: observe needs an artifact to install (a wheel, sdist, pypi:NAME==VERSION "
                          "or a directory)")
    yield Path(spec).expanduser().resolve()


@dataclass(frozen=True, slots=True)
class Resolved:
    """What the client resolves before anything runs: the artifact, the tests (copied into the
    workspace's ``project/``) and the inputs of the environment, which is not built yet."""

    snapshot: Snapshot
    dist: Distribution
    tests: TestTree
    env_spec: EnvSpec
    workspace: Path
    project: Path
    roots: tuple[str, ...]

    def record_stamp(self, options: ObserveOptions) -> str:
        """The records' stamp, as ``fingerprint`` of the local plan computes it."""
        return stamp(env_identity(self.env_spec), True, self.roots, (), options.mode)


def resolve(spec: str, snapshot: Snapshot, package_files: list[str], options: ObserveOptions) -> Resolved:
    """Resolve the artifact and the tests, and what the environment must hold (TargetError if no tests)."""
    ws = workspace_for(snapshot)
    with _artifact(spec, snapshot) as artifact:
        sdist_root: Path | None = None
        if artifact.is_file() and not artifact.name.endswith(".whl"):
            sdist_root = _unpack_all(artifact, ws / "sdist")
        dist = distribution_of(artifact, sdist_root, snapshot.version)
        tree: TestTree | None
        if options.tests:
            tree = given_tests(list(options.tests))
        elif sdist_root is not None:
            tree = project_tests(sdist_root, "sdist")
        elif artifact.is_dir():
            tree = project_tests(artifact, "checkout")
        else:
            tree = None
            if spec.startswith("pypi:"):
                sdist = _download_sdist(dist.name, dist.version, ws)
                sdist_root = _unpack_all(sdist, ws / "sdist")
                tree = project_tests(sdist_root, "sdist")
        if tree is None or not tree.files:
            raise TargetError(f"{spec}: no tests found (no tests/ folder in the sdist or checkout); "
                              "pass --tests PATH, e.g. a checkout of the repository at the indexed tag")
        test_reqs = declared_test_requirements(sdist_root or tree.root, dist.metadata, own=dist.name)
        env_spec = EnvSpec(
            name=dist.name, version=dist.version, artifact=dist.artifact, test_requirements=test_reqs,
            extra_requirements=options.extra_requirements, requires_python=dist.requires_python,
            python=options.python,
        )
    project = prepare_project(ws, tree.root, tree.files)
    return Resolved(snapshot=snapshot, dist=dist, tests=tree, env_spec=env_spec, workspace=ws, project=project,
                    roots=package_roots(package_files))


def prepare(catalog: Catalog, spec: str, snapshot: Snapshot, package_files: list[str],
            options: ObserveOptions) -> Prepared:
    """Resolve the artifact, the tests and the environment (built or reused) for a run here."""
    r = resolve(spec, snapshot, package_files, options)
    env = ensure_environment(r.env_spec)
    plan = RunPlan(
        workspace=r.workspace, project=r.project, files=r.tests.files, env=env, roots=r.roots,
        limits=Limits(timeout_s=options.timeout_s, memory_bytes=options.memory_bytes),
        jobs=options.jobs, mode=options.mode, identity=env_identity(r.env_spec),
    )
    return Prepared(snapshot=snapshot, dist=r.dist, tests=r.tests, plan=plan)


def observe_prepared(catalog: Catalog, prepared: Prepared, options: ObserveOptions,
                     progress: Callable[[FileOutcome], None] | None = None) -> ObserveResult:
    """Observe every test file here (``--jobs`` at a time)."""
    plan = prepared.plan
    install_plugin(plan.workspace)
    st = fingerprint(plan)
    return observe_files(catalog, prepared.snapshot, prepared.tests, plan.workspace, options,
                         in_threads(plan, st), st, progress=progress, python=plan.env.python_version)


def observe_files(catalog: Catalog, snapshot: Snapshot, tests: TestTree, workspace: Path, options: ObserveOptions,
                  execute: Executor, stamp: str, *, progress: Callable[[FileOutcome], None] | None = None,
                  python: str = "") -> ObserveResult:
    """Run the files with ``execute`` (here or on a cluster), writing what was seen to the catalog in
    batches as files finish and in full at the end."""
    sites = list(catalog.sites(snapshot.key))
    batches = _Batches(catalog, snapshot, sites, f"{tests.origin}: {tests.root}", workspace, python)

    def finished(outcome: FileOutcome) -> None:
        batches.add(outcome)
        if progress is not None:
            progress(outcome)

    output = run_files(workspace, tests.files, stamp, options.timeout_s, execute, progress=finished,
                       resume=options.resume, jobs=options.jobs)
    return store_run(catalog, snapshot, sites, batches.tests_source, output, python)


BATCH_FILES = 16  # files per catalog write while a run goes on ...
BATCH_SECONDS = 10.0  # ... or whatever finished within this time


class _Batches:
    """What the finished files saw so far, written to the catalog every few files or seconds, so an
    interrupted run leaves its finished files' observations (the end of the run writes them all)."""

    def __init__(self, catalog: Catalog, snapshot: Snapshot, sites: list[ErrorSite], tests_source: str,
                 workspace: Path, python: str) -> None:
        self.catalog, self.snapshot, self.sites = catalog, snapshot, sites
        self.tests_source, self.results, self.python = tests_source, workspace / "results", python
        self.done: list[FileOutcome] = []
        self.unwritten = 0
        self.since = time.monotonic()

    def add(self, outcome: FileOutcome) -> None:
        self.done.append(outcome)
        self.unwritten += 1
        if self.unwritten >= BATCH_FILES or time.monotonic() - self.since >= BATCH_SECONDS:
            output = collect(self.results, self.done, sum(o.duration_s for o in self.done))
            store_run(self.catalog, self.snapshot, self.sites, self.tests_source, output, self.python)
            self.unwritten, self.since = 0, time.monotonic()


def store_run(catalog: Catalog, snap: Snapshot, sites: list[ErrorSite], tests_source: str, output: RunOutput,
              python: str = "") -> ObserveResult:
    """Map the events to sites and replace the snapshot's observations and run record with them."""
    tests = {t.test: t for t in output.tests}
    found = tuple(observations(snap.key, SiteIndex(sites), output.events, tests))
    first = next((o for o in output.outcomes if o.network), None)
    run = ObserveRun(
        snapshot=snap.key,
        python=python or next((o.python for o in output.outcomes if o.python), ""),
        mode=next((o.mode for o in output.outcomes if o.mode), ""),
        files=len(output.outcomes),
        failed_files=tuple(FileFailure(path=o.file, reason=f"{o.status}: {o.reason}".rstrip(": "))
                           for o in output.outcomes if o.status in FAILED),
        tests=len(tests),
        events=sum(o.count for o in found),
        sites=len({o.error_id for o in found if o.kind == "site"}),
        duration_s=output.duration_s,
        date=datetime.now(UTC).isoformat(timespec="seconds"),
        tests_source=tests_source,
        network=first.network if first else "",
        processes=first.processes if first else "",
    )
    catalog.replace_observations(run, found)
    stats = catalog.stats(snap.key)
    raise_statements = stats[0].raise_statements if stats else 0
    return ObserveResult(run=run, outcomes=output.outcomes, observations=found,
                         raise_statements=raise_statements, sites=len(sites))


def run_json(result: ObserveResult) -> dict[str, object]:
    """The ``--json`` document of one observe run."""
    from errdex.model import to_json

    kinds: dict[str, int] = {}
    for o in result.observations:
        kinds[o.kind] = kinds.get(o.kind, 0) + o.count
    return {
        "run": to_json(result.run),
        "sites_observed": result.run.sites,
        "sites": result.sites,
        "raise_statements": result.raise_statements,
        "events_by_kind": kinds,
        "files": [json.loads(json.dumps({k: getattr(o, k) for k in FileOutcome.__dataclass_fields__}))
                  for o in result.outcomes],
    }
