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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from errdex import paths
from errdex.catalog.base import Catalog
from errdex.model import FileFailure, Observation, ObserveRun, Snapshot
from errdex.observe.mapping import SiteIndex, observations
from errdex.observe.run import FAILED, FileOutcome, RunPlan, prepare_project, run_plan
from errdex.observe.target import (
    Distribution,
    TargetError,
    TestTree,
    distribution_of,
    package_roots,
    tests_in,
    tests_of_project,
)
from errdex.sandbox import EnvSpec, Limits, declared_test_requirements, ensure_environment
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


def workspace_for(snapshot: Snapshot) -> Path:
    slug = re.sub(r"[^\w.-]+", "-", snapshot.key)[:80]
    digest = hashlib.sha256(snapshot.key.encode()).hexdigest()[:8]
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


def prepare(catalog: Catalog, spec: str, snapshot: Snapshot, package_files: list[str],
            options: ObserveOptions) -> Prepared:
    """Resolve the artifact, the tests and the environment (built or reused)."""
    ws = workspace_for(snapshot)
    with _artifact(spec, snapshot) as artifact:
        sdist_root: Path | None = None
        if artifact.is_file() and not artifact.name.endswith(".whl"):
            sdist_root = _unpack_all(artifact, ws / "sdist")
        dist = distribution_of(artifact, sdist_root, snapshot.version)
        tree: TestTree | None
        if options.tests:
            tree = tests_in(list(options.tests))
        elif sdist_root is not None:
            tree = tests_of_project(sdist_root, "sdist")
        elif artifact.is_dir():
            tree = tests_of_project(artifact, "checkout")
        else:
            tree = None
            if spec.startswith("pypi:"):
                sdist = _download_sdist(dist.name, dist.version, ws)
                sdist_root = _unpack_all(sdist, ws / "sdist")
                tree = tests_of_project(sdist_root, "sdist")
        if tree is None or not tree.files:
            raise TargetError(f"{spec}: no tests found (no tests/ folder in the sdist or checkout); "
                              "pass --tests PATH, e.g. a checkout of the repository at the indexed tag")
        test_reqs = declared_test_requirements(sdist_root or tree.root, dist.metadata, own=dist.name)
        env = ensure_environment(EnvSpec(
            name=dist.name, version=dist.version, artifact=dist.artifact, test_requirements=test_reqs,
            extra_requirements=options.extra_requirements, requires_python=dist.requires_python,
            python=options.python,
        ))
    project = prepare_project(ws, tree.root, tree.files)
    plan = RunPlan(
        workspace=ws, project=project, files=tree.files, env=env, roots=package_roots(package_files),
        limits=Limits(timeout_s=options.timeout_s, memory_bytes=options.memory_bytes),
        jobs=options.jobs, mode=options.mode,
    )
    return Prepared(snapshot=snapshot, dist=dist, tests=tree, plan=plan)


def observe_prepared(catalog: Catalog, prepared: Prepared, options: ObserveOptions,
                     progress: Callable[[FileOutcome], None] | None = None) -> ObserveResult:
    snap = prepared.snapshot
    output = run_plan(prepared.plan, progress=progress, resume=options.resume)
    sites = list(catalog.sites(snap.key))
    tests = {t.test: t for t in output.tests}
    found = tuple(observations(snap.key, SiteIndex(sites), output.events, tests))
    first = next((o for o in output.outcomes if o.network), None)
    run = ObserveRun(
        snapshot=snap.key,
        python=prepared.plan.env.python_version,
        mode=next((o.mode for o in output.outcomes if o.mode), ""),
        files=len(output.outcomes),
        failed_files=tuple(FileFailure(path=o.file, reason=f"{o.status}: {o.reason}".rstrip(": "))
                           for o in output.outcomes if o.status in FAILED),
        tests=len(tests),
        events=sum(o.count for o in found),
        sites=len({o.error_id for o in found if o.kind == "site"}),
        duration_s=output.duration_s,
        date=datetime.now(UTC).isoformat(timespec="seconds"),
        tests_source=f"{prepared.tests.origin}: {prepared.tests.root}",
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
