"""How the prover runs a script in the sandbox and reads what it raised (split from ``engine.py``).

Every other part of ``prove`` asks the same two things of a run: run these scripts (one fresh process each, or a
batch in the worker that forks per script, ``worker_script.py`` / ``pool.py``, with the library adapter's and
``prove --env``'s variables), and which error did the traceback resolve to by errdex's own matcher (a printed
cause's too).  Kept apart from the candidates (``engine.py``) and the choice of an after (``afters.py``), which
only call these.  A mixin: ``engine.Prover``, a frozen dataclass, holds the fields named here.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.model import Snapshot
from errdex.prove.harness import run_env
from errdex.prove.pool import WorkerPool
from errdex.prove.runoutput import read_output, site_raised
from errdex.prove.runs import Runs
from errdex.sandbox import Environment, Limits, RunRequest, run

WORKER_SCRIPT = Path(__file__).with_name("worker_script.py")
DIRECT_CAUSE = "The above exception was the direct cause of the following exception:"
DURING_HANDLING = "During handling of the above exception, another exception occurred:"


class SandboxRuns:
    """The runs of ``engine.Prover`` and the matcher's verdict on their tracebacks."""

    __slots__ = ()
    snapshot: Snapshot
    env: Environment
    package: str
    timeout_s: float
    worker: bool  # batches in one worker that forks per example (else a fresh process each)
    pool: WorkerPool | None
    extra_env: tuple[tuple[str, str], ...]
    watch: tuple[str, int, int] | None

    def run_vars(self) -> dict[str, str]:
        """The environment variables of every run: the library adapter's, then ``--env``."""
        return {**run_env(self.package), **dict(self.extra_env)}

    def _run(self, code: str, scratch: Path, name: str) -> tuple[int, str, str, str]:
        script = scratch / f"{name}.py"
        script.write_text(code, encoding="utf-8")
        raises = scratch / f"{name}.raises"
        argv: tuple[str, ...] = (str(self.env.python), "-X", "faulthandler", str(script))
        if self.watch is not None:
            raises.unlink(missing_ok=True)
            argv = (str(self.env.python), "-X", "faulthandler", str(WORKER_SCRIPT), "--one", str(script), str(raises))
        res = run(RunRequest(argv=argv,
                             limits=Limits(timeout_s=self.timeout_s, memory_bytes=4 * 1024**3),
                             env={"PYTHONDONTWRITEBYTECODE": "1", "PYTHONWARNINGS": "default", **self.run_vars()},
                             scratch=scratch / f"run-{name}"))
        code_ = -9 if res.timed_out else res.returncode
        return code_, res.stdout, res.stderr.replace(str(script), "example.py"), self._raised(raises)

    def _raised(self, path: Path) -> str:
        """What the watched site did in a run, from the origins it recorded (``worker_script``'s raises
        file): "under" the exception that ended it, "raised" (and caught), or ""."""
        if self.watch is None:
            return ""
        records = read_output(path)
        if site_raised(records, *self.watch, kind="under"):
            return "under"
        return "raised" if site_raised(records, *self.watch) else ""

    def _run_many(self, codes: Sequence[str], scratch: Path, name: str) -> list[tuple[int, str, str, str]]:
        """Run ``codes`` in order in one sandboxed batch worker (``worker_script.py``: the library
        imported once, each script in a forked child with its own working directory)."""
        batch = scratch / f"batch-{name}"
        shutil.rmtree(batch, ignore_errors=True)
        batch.mkdir(parents=True)
        items = []
        for i, code in enumerate(codes):
            (batch / f"s{i}.py").write_text(code, encoding="utf-8")
            items.append({"script": str(batch / f"s{i}.py"), "out": str(batch / f"s{i}.out"),
                          "err": str(batch / f"s{i}.err"), "cwd": str(batch / f"w{i}"), "timeout": self.timeout_s})
            if self.watch is not None:
                items[-1]["raises"] = str(batch / f"s{i}.raises")
        got = self.pool.submit(items, self.timeout_s * len(codes) + 60) if self.pool is not None else None
        if got is not None:
            done = got
        else:  # no persistent worker (or it is gone): a batch process of its own
            (batch / "batch.json").write_text(json.dumps(items))
            result = batch / "result.json"
            run(RunRequest(argv=(str(self.env.python), str(WORKER_SCRIPT), self.package, str(batch / "batch.json"),
                                 str(result)),
                           limits=Limits(timeout_s=self.timeout_s * len(codes) + 60, memory_bytes=4 * 1024**3),
                           env={"PYTHONDONTWRITEBYTECODE": "1", **self.run_vars()}, scratch=batch / "run"))
            done = json.loads(result.read_text()) if result.is_file() else []
        out: list[tuple[int, str, str, str]] = []
        for i in range(len(codes)):
            if i >= len(done):
                out.append((-9, "", "the batch worker did not finish", ""))
                continue
            err = read_output(batch / f"s{i}.err").replace(str(batch / f"s{i}.py"), "example.py")
            out.append((int(done[i]["rc"]), read_output(batch / f"s{i}.out"), err, self._raised(batch / f"s{i}.raises")))
        return out

    def runs(self, codes: Sequence[str], scratch: Path, name: str) -> Runs:
        """Results of ``codes`` by index: all at once in the batch worker, else one fresh process each,
        only when asked for."""
        if self.worker:
            return Runs(self._run_many(codes, scratch, name), len(codes))
        return Runs(None, 0, lambda i: self._run(codes[i], scratch, f"{name}-{i}"))

    def resolves_to(self, catalog: Catalog, stderr: str, error_id: str) -> tuple[str, str]:
        """(matched id, printed exception) of a traceback, by errdex's own matcher."""
        ex = explain(catalog, stderr, top=3, repo=self.snapshot.repo)
        top = ex.matches[0].id if ex.matches else ""
        return top, ex.parsed.exception

    def cause_resolving_to(self, catalog: Catalog, stderr: str, error_id: str) -> tuple[str, str, str] | None:
        """(exception, its section of the traceback, the outer one's text) when a cause printed before
        "The above exception was the direct cause of the following exception" (or the one another was
        raised while handling: "During handling of the above exception, ...") resolves to ``error_id``."""
        sections = re.split(f"{re.escape(DIRECT_CAUSE)}|{re.escape(DURING_HANDLING)}", stderr)
        for k, section in enumerate(sections[:-1]):
            got, exc = self.resolves_to(catalog, section, error_id)
            if got == error_id:
                return exc, section, sections[k + 1]
        return None
