"""Running a library's test files in the sandbox with the recorder, one limited subprocess each.

The work happens in a workspace under ``data_dir()/observe/<snapshot>``:
``project/`` is a copy of the project's configuration files and test
folders (never its package source, so the tests import the installed,
indexed artifact), ``plugin/`` holds the recorder, ``results/`` one record
per finished test file.  A file whose record exists (made with the same
environment and the same recorder) is not run again: an interrupted
``errdex observe`` resumes where it stopped.  A file that hangs, crashes,
exhausts its memory or fails to import is recorded as failed with the
reason, and the others go on.

``run_file`` observes one test file; ``run_files`` resumes, hands the rest to
an executor and reads every record.  The local executor runs ``run_file`` in
threads (``run_plan``); on a Dask cluster each worker runs the same
``run_file`` (``observe/tasks.py``) and the client saves what comes back as
the same records (``save_record``), so resuming and mapping do not care where
a file ran.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from errdex.observe.mapping import RawEvent, TestRecord, read_output
from errdex.sandbox import Environment, Limits, RunRequest, run

RECORDER = Path(__file__).with_name("recorder.py")
PLUGIN_NAME = "errdex_recorder"
FileStatus = Literal["ok", "tests-failed", "no-tests", "timeout", "crash", "error"]
FAILED: frozenset[str] = frozenset({"timeout", "crash", "error"})


@dataclass(frozen=True, slots=True)
class FileOutcome:
    """How one test file's run ended (``reason`` for the failed ones)."""

    file: str
    status: FileStatus
    returncode: int
    duration_s: float
    events: int = 0
    tests: int = 0
    reason: str = ""
    resumed: bool = False
    network: str = ""
    processes: str = ""
    mode: str = ""
    python: str = ""


@dataclass(frozen=True, slots=True)
class RunPlan:
    """What to run: test files of ``project`` (relative paths), in ``env``, recording ``roots``."""

    workspace: Path
    project: Path
    files: tuple[str, ...]
    env: Environment
    roots: tuple[str, ...]  # top-level packages/modules of the library in site-packages
    limits: Limits = field(default_factory=Limits)
    jobs: int = 1
    record: bool = True  # False: a plain pytest run of the same files (the benchmark's baseline)
    extra_args: tuple[str, ...] = ()
    mode: str = "auto"  # recorder mode: auto, monitoring, trace
    pythonpath: tuple[str, ...] = ()  # more import roots (tests run the library from a folder)
    identity: str = ""  # what decides the environment (sandbox.env_identity); "" : env.key


@dataclass(frozen=True, slots=True)
class FileRecord:
    """One finished test file as a cluster worker sends it back: its outcome and the recorder's lines."""

    outcome: FileOutcome
    lines: str = ""


# Runs the files it is given and yields each one's outcome (its record saved) as it finishes.
Executor = Callable[[list[str]], Iterable[FileOutcome]]


@dataclass(frozen=True, slots=True)
class RunOutput:
    outcomes: tuple[FileOutcome, ...]
    events: tuple[RawEvent, ...]
    tests: tuple[TestRecord, ...]
    duration_s: float
    extra: dict[str, str] = field(default_factory=dict)


def _slug(rel: str) -> str:
    return hashlib.sha1(rel.encode()).hexdigest()[:16]


def stamp(identity: str, record: bool, roots: Sequence[str], extra_args: Sequence[str], mode: str) -> str:
    """What a file's record was made with: the environment's inputs, the recorder, its settings.
    A record with another stamp is run again."""
    h = hashlib.sha256()
    h.update(identity.encode())
    h.update(RECORDER.read_bytes() if record else b"plain")
    h.update(json.dumps([list(roots), list(extra_args), mode]).encode())
    return h.hexdigest()[:16]


def fingerprint(plan: RunPlan) -> str:
    return stamp(plan.identity or plan.env.key, plan.record, plan.roots, plan.extra_args, plan.mode)


def _status(returncode: int, timed_out: bool, info: dict[str, object], stderr: str) -> tuple[FileStatus, str]:
    tail = " | ".join(ln for ln in stderr.strip().splitlines()[-3:] if ln.strip())[-300:]
    if timed_out:
        return "timeout", "wall-clock timeout"
    if returncode < 0:
        return "crash", f"killed by signal {-returncode}" + (f": {tail}" if tail else "")
    if returncode == 0:
        return "ok", ""
    if returncode == 1:
        return "tests-failed", ""
    if returncode == 5:
        return "no-tests", ""
    if returncode == 2 and "end_exitstatus" in info:
        return "error", "collection error (import failed?)" + (f": {tail}" if tail else "")
    return "error", f"pytest exited {returncode}" + (f": {tail}" if tail else "")


def _argv(plan: RunPlan, rel: str) -> tuple[str, ...]:
    plugin = ("-p", PLUGIN_NAME) if plan.record else ()
    return (str(plan.env.python), "-m", "pytest", *plugin, "-p", "no:cacheprovider", "-q", "--no-header",
            "-o", "console_output_style=classic", f"--rootdir={plan.project}", *plan.extra_args,
            str(plan.project / rel))


def run_file(plan: RunPlan, rel: str, stamp: str) -> FileOutcome:
    """Run one test file in the sandbox and keep its record under ``results/``."""
    results = plan.workspace / "results"
    slug = _slug(rel)
    scratch = plan.workspace / "runs" / slug
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    out = scratch / "events.jsonl"
    site_packages = [str(p) for p in plan.env.site_packages]
    roots = [f"{sp}/{r}" + ("" if r.endswith(".py") else "/") for sp in site_packages for r in plan.roots]
    env = {
        "PYTHONPATH": ":".join([str(plan.workspace / "plugin"), *plan.pythonpath]),
        "PYTHONHASHSEED": "0",
        "ERRDEX_OBSERVE_OUT": str(out),
        "ERRDEX_OBSERVE_ROOTS": ":".join(roots) if plan.record else "",
        "ERRDEX_OBSERVE_BASES": ":".join(site_packages),
        "ERRDEX_OBSERVE_MODE": plan.mode,
        "ERRDEX_OBSERVE_PROJECT": str(plan.project),
    }
    result = run(RunRequest(argv=_argv(plan, rel), limits=plan.limits, env=env, path=(str(plan.env.bin),),
                            scratch=scratch))
    events, tests, info = read_output(out)
    status, reason = _status(result.returncode, result.timed_out, info, result.stderr + result.stdout)
    outcome = FileOutcome(
        file=rel, status=status, returncode=result.returncode, duration_s=round(result.duration_s, 3),
        events=sum(e.count for e in events), tests=len(tests), reason=reason,
        network=result.isolation.network, processes=result.isolation.processes,
        mode=str(info.get("start_mode", "")), python=str(info.get("start_python", "")),
    )
    if out.exists():
        shutil.move(str(out), results / f"{slug}.jsonl")
    else:
        (results / f"{slug}.jsonl").unlink(missing_ok=True)  # an earlier run's events are not this one's
    save_record(results, stamp, plan.limits.timeout_s, outcome)
    shutil.rmtree(scratch, ignore_errors=True)
    return outcome


def _outcome_json(o: FileOutcome) -> dict[str, object]:
    return {name: getattr(o, name) for name in FileOutcome.__dataclass_fields__}


def events_path(results: Path, rel: str) -> Path:
    """The recorder's JSON lines of one finished file."""
    return results / f"{_slug(rel)}.jsonl"


def save_record(results: Path, stamp: str, timeout_s: float, outcome: FileOutcome) -> None:
    """Mark ``outcome.file`` done (its events already in ``events_path``): what resuming reads."""
    (results / f"{_slug(outcome.file)}.json").write_text(json.dumps({"fingerprint": stamp, "timeout_s": timeout_s,
                                                                     **_outcome_json(outcome)}))


def save_sent(results: Path, stamp: str, timeout_s: float, record: FileRecord) -> None:
    """Keep what a worker sent as ``run_file`` keeps a local run: the same two files."""
    path = events_path(results, record.outcome.file)
    if record.lines:
        path.write_text(record.lines, encoding="utf-8")
    else:
        path.unlink(missing_ok=True)
    save_record(results, stamp, timeout_s, record.outcome)


def forget(results: Path, rel: str) -> None:
    """Drop a file's record (a task that never ran it): the next run tries it again."""
    (results / f"{_slug(rel)}.json").unlink(missing_ok=True)
    events_path(results, rel).unlink(missing_ok=True)


def _resumed(results: Path, rel: str, stamp: str, timeout_s: float) -> FileOutcome | None:
    """The record of a finished file, unless it was made otherwise or timed out under a shorter limit."""
    path = results / f"{_slug(rel)}.json"
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if data.pop("fingerprint", None) != stamp or data.get("file") != rel:
        return None
    if data.get("status") == "timeout" and timeout_s > float(data.get("timeout_s", 0)):
        return None
    data.pop("timeout_s", None)
    data["resumed"] = True
    try:
        return FileOutcome(**data)
    except TypeError:
        return None


def install_plugin(workspace: Path) -> None:
    plugin = workspace / "plugin"
    plugin.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(RECORDER, plugin / f"{PLUGIN_NAME}.py")


def run_plan(plan: RunPlan, progress: Callable[[FileOutcome], None] | None = None,
             resume: bool = True) -> RunOutput:
    """Run every file of ``plan`` here (``jobs`` at a time), resuming finished ones; read all records."""
    install_plugin(plan.workspace)
    st = fingerprint(plan)
    return run_files(plan.workspace, plan.files, st, plan.limits.timeout_s, in_threads(plan, st),
                     progress=progress, resume=resume, jobs=plan.jobs)


def in_threads(plan: RunPlan, stamp: str) -> Executor:
    """The local executor: ``run_file`` in ``plan.jobs`` threads (each waits on its sandboxed pytest)."""

    def execute(todo: list[str]) -> Iterator[FileOutcome]:
        with ThreadPoolExecutor(max_workers=max(1, plan.jobs)) as pool:
            futures = [pool.submit(run_file, plan, rel, stamp) for rel in todo]
            try:
                for fut in as_completed(futures):
                    yield fut.result()
            finally:
                for f in futures:
                    f.cancel()

    return execute


def run_files(workspace: Path, files: Sequence[str], stamp: str, timeout_s: float, execute: Executor, *,
              progress: Callable[[FileOutcome], None] | None = None, resume: bool = True,
              jobs: int = 1) -> RunOutput:
    """Resume the files recorded under ``workspace/results`` with ``stamp``, run the others with
    ``execute`` (``progress`` after each), and read the records of all of them."""
    results = workspace / "results"
    results.mkdir(parents=True, exist_ok=True)
    outcomes: dict[str, FileOutcome] = {}
    todo: list[str] = []
    for rel in files:
        done = _resumed(results, rel, stamp, timeout_s) if resume else None
        if done is not None:
            outcomes[rel] = done
            if progress:
                progress(done)
        else:
            todo.append(rel)
    start = time.monotonic()
    for outcome in execute(todo):
        outcomes[outcome.file] = outcome
        if progress:
            progress(outcome)
    duration = time.monotonic() - start
    ordered = tuple(outcomes[rel] for rel in files if rel in outcomes)
    resumed_s = sum(o.duration_s for o in ordered if o.resumed) / max(1, jobs)
    return collect(results, ordered, duration + resumed_s)


def collect(results: Path, outcomes: Sequence[FileOutcome], duration_s: float) -> RunOutput:
    """The events and tests recorded for ``outcomes`` (also mid-run, for a batch written early)."""
    events: list[RawEvent] = []
    tests: list[TestRecord] = []
    for o in outcomes:
        ev, ts, _ = read_output(events_path(results, o.file))
        events += ev
        tests += ts
    return RunOutput(outcomes=tuple(outcomes), events=tuple(events), tests=tuple(tests),
                     duration_s=round(duration_s, 2))


def prepare_project(workspace: Path, source_root: Path, files: Sequence[str]) -> Path:
    """Copy the project's config files and the folders holding ``files`` into ``workspace/project``.

    The copy is refreshed every time (tests may have written into it); the
    package's own source is not copied, so imports resolve to the installed
    artifact that was indexed.
    """
    from errdex.observe.target import CONFIG_FILES

    project = workspace / "project"
    shutil.rmtree(project, ignore_errors=True)
    project.mkdir(parents=True)
    for name in CONFIG_FILES:
        src = source_root / name
        if src.is_file():
            shutil.copy2(src, project / name)
    tops = sorted({f.split("/", 1)[0] for f in files})
    for top in tops:
        src = source_root / top
        if src.is_dir():
            shutil.copytree(src, project / top, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".git"))
        elif src.is_file():
            shutil.copy2(src, project / top)
    return project
