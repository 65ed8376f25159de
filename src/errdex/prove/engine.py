"""Build candidate examples for observed errors and keep only those that run as claimed.

One error at a time (in a thread pool: ``jobs``): the observed public call is
restated as a script (``plan_script.py``, run in the sandbox), run, and its
traceback given to errdex's own matcher; an after-variant of the same call
(one argument back to its default, or a bool flipped) must exit 0 without this
error; the try sample must handle exactly this error on the bad input and call
through on the good one.  Every run is a separate sandboxed process with a
timeout (fresh module state by construction).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.model import ErrorSite, Observation, Proof, ProofAfter, ProofBefore, Snapshot
from errdex.sandbox import Environment, Limits, RunRequest, run

PLAN_SCRIPT = Path(__file__).with_name("plan_script.py")
OUTPUT_LINES = 6
MAX_CANDIDATES = 4


@dataclass(frozen=True, slots=True)
class Proven:
    """A proven before/after pair (and a try sample when it held too)."""

    before: str
    after: str
    proof: Proof
    try_sample: str = ""
    try_proof: Proof | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    error_id: str
    proven: Proven | None
    reason: str  # why not proven ("" when proven)
    runs: int
    duration_s: float


@dataclass(frozen=True, slots=True)
class Prover:
    catalog_path: str  # each thread opens its own catalog for the matcher
    snapshot: Snapshot
    env: Environment
    package: str
    timeout_s: float = 30.0
    # entry -> parameter -> argument reprs the library's tests passed to it (any error's observation)
    alternatives: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)

    def _run(self, code: str, scratch: Path, name: str) -> tuple[int, str, str]:
        script = scratch / f"{name}.py"
        script.write_text(code, encoding="utf-8")
        res = run(RunRequest(argv=(str(self.env.python), "-X", "faulthandler", str(script)),
                             limits=Limits(timeout_s=self.timeout_s, memory_bytes=4 * 1024**3),
                             env={"PYTHONDONTWRITEBYTECODE": "1", "PYTHONWARNINGS": "default"},
                             scratch=scratch / f"run-{name}"))
        code_ = -9 if res.timed_out else res.returncode
        return code_, res.stdout, res.stderr

    def _plan(self, o: Observation, scratch: Path) -> dict[str, object]:
        req = scratch / "plan-in.json"
        out = scratch / "plan-out.json"
        req.write_text(json.dumps({"entry": o.entry, "package": self.package,
                                   "alternatives": {k: list(v) for k, v in self.alternatives.get(o.entry, {}).items()},
                                   "args": [{"name": a.name, "type": a.type, "repr": a.repr} for a in o.entry_args]}))
        out.unlink(missing_ok=True)
        run(RunRequest(argv=(str(self.env.python), str(PLAN_SCRIPT), str(req), str(out)),
                       limits=Limits(timeout_s=self.timeout_s), scratch=scratch / "run-plan"))
        if not out.is_file():
            return {"unsupported": "the planner did not finish"}
        data: dict[str, object] = json.loads(out.read_text())
        return data

    def _proof(self, before: ProofBefore, after: ProofAfter, candidate: str) -> Proof:
        return Proof(before=before, after=after, library=self.package, version=self.snapshot.version or self.snapshot.ref or "",
                     python=self.env.python_version, date=datetime.now(UTC).isoformat(timespec="seconds"),
                     candidate=candidate)

    def resolves_to(self, catalog: Catalog, stderr: str, error_id: str) -> tuple[str, str]:
        """(matched id, printed exception) of a traceback, by errdex's own matcher."""
        ex = explain(catalog, stderr, top=3, repo=self.snapshot.repo)
        top = ex.matches[0].id if ex.matches else ""
        return top, ex.parsed.exception

    def prove(self, catalog: Catalog, site: ErrorSite, observed: Sequence[Observation],
              others: Sequence[ErrorSite]) -> Outcome:
        start = datetime.now(UTC)
        runs = 0
        reason = "no observation reached this error through a public call"
        tried: set[tuple[str, tuple[str, ...]]] = set()
        with tempfile.TemporaryDirectory(prefix="errdex-prove-") as tmp:
            scratch = Path(tmp)
            for o in observed:
                key = (o.entry, tuple(a.repr for a in o.entry_args))
                if not o.entry or key in tried:
                    continue
                tried.add(key)
                if len(tried) > MAX_CANDIDATES:
                    break
                plan = self._plan(o, scratch)
                runs += 1
                if "unsupported" in plan:
                    reason = f"entry {o.entry}: {plan['unsupported']}"
                    continue
                imp, call = str(plan["import"]), str(plan["call"])
                before = f"{imp}\n\n{call}\n"
                rc, _, err = self._run(before, scratch, "before")
                runs += 1
                if rc == 0:
                    reason = f"{call} did not raise outside the test"
                    continue
                got, exc = self.resolves_to(catalog, err, site.error_id)
                if got != site.error_id:
                    reason = f"{call} raised, but its traceback resolves to {got or 'nothing'}"
                    continue
                pb = ProofBefore(exception=exc, error_id=got, output=_tail(err))
                variants = plan.get("variants")
                for v in variants if isinstance(variants, list) else []:
                    after = f"{imp}\n\n{v['call']}\n"
                    rc2, out2, err2 = self._run(after, scratch, "after")
                    runs += 1
                    if rc2 != 0 or (err2.strip() and self.resolves_to(catalog, err2, site.error_id)[0]
                                    == site.error_id):
                        continue
                    proof = self._proof(pb, ProofAfter(exit=0, output=_tail(out2)), "entry")
                    trys, tproof, n = self._try_sample(catalog, site, others, imp, call, str(v["call"]), pb, scratch)
                    runs += n
                    secs = (datetime.now(UTC) - start).total_seconds()
                    return Outcome(site.error_id, Proven(before, after, proof, trys, tproof), "", runs, secs)
                reason = f"{call} raises this error, but no variant of its arguments ran clean"
        return Outcome(site.error_id, None, reason, runs, (datetime.now(UTC) - start).total_seconds())

    def recheck(self, catalog: Catalog, error_id: str, before: str, after: str, scratch: Path,
                try_sample: str = "") -> str:
        """Why a stored proof no longer holds ("" when it does): before must raise and resolve to
        ``error_id``, after must exit 0 without it, a proven try sample must still handle it."""
        rc, _, err = self._run(before, scratch, "before")
        if rc == 0:
            return "before no longer raises"
        got, _ = self.resolves_to(catalog, err, error_id)
        if got != error_id:
            return f"before's traceback now resolves to {got or 'nothing'}"
        rc2, _, err2 = self._run(after, scratch, "after")
        if rc2 != 0:
            return f"after exits {rc2}: {_tail(err2)}"
        if try_sample:
            rc3, out3, err3 = self._run(try_sample, scratch, "try")
            if rc3 != 3 or "rejected" not in out3:
                return f"the try sample no longer handles the error (exit {rc3}): {_tail(err3 or out3)}"
        return ""

    def _try_sample(self, catalog: Catalog, site: ErrorSite, others: Sequence[ErrorSite], imp: str, bad: str,
                    good: str, pb: ProofBefore, scratch: Path) -> tuple[str, Proof | None, int]:
        """``try`` around the call catching this error's class, checked by a literal of its template that
        no other error of the same function has; anything else re-raised."""
        check = distinctive_literal(site, others)
        name = site.exception_name
        qual = pb.exception if "." in pb.exception else name
        if not check or not qual:
            return "", None, 0
        mod, _, cls = qual.rpartition(".")
        catch_imp = "" if not mod or mod == "builtins" else f"import {mod}\n"
        catch = cls if not mod or mod == "builtins" else qual

        def sample(call: str) -> str:
            return (f"{imp}\n{catch_imp}\ntry:\n    result = {call}\nexcept {catch} as exc:\n"
                    f"    if {check!r} not in str(exc):\n        raise\n"
                    f"    print(f\"rejected, fix the arguments: {{exc}}\")\n    raise SystemExit(3) from None\n"
                    f"else:\n    print(f\"ok: {{result!r}}\")\n")
        rc, out, err = self._run(sample(bad), scratch, "try-bad")
        if rc != 3 or "rejected" not in out or err.strip():
            return "", None, 1
        rc2, out2, _ = self._run(sample(good), scratch, "try-good")
        if rc2 != 0 or not out2.startswith("ok:"):
            return "", None, 2
        before = ProofBefore(exception=pb.exception, error_id=pb.error_id, output=_tail(out))
        return sample(bad), self._proof(before, ProofAfter(exit=0, output=_tail(out2)), "entry"), 2


def distinctive_literal(site: ErrorSite, others: Sequence[ErrorSite]) -> str:
    """The longest literal piece of the site's message that no other site of the same function has."""
    pieces = sorted((s.text.strip() for s in site.template.segments if s.is_literal and len(s.text.strip()) >= 6),
                    key=len, reverse=True)
    rivals = [o.template.render() for o in others if o.error_id != site.error_id]
    for p in pieces:
        if not any(p in r for r in rivals):
            return p
    return ""


def _tail(text: str) -> str:
    lines = [ln for ln in text.rstrip().splitlines() if ln.strip()]
    return "\n".join(lines[-OUTPUT_LINES:])


def prove_all(prover: Prover, open_catalog: Callable[[], Catalog], targets: Sequence[str], jobs: int,
              progress: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Prove ``targets`` (error ids) in parallel threads, each with its own catalog connection."""
    cat = open_catalog()
    try:
        sites = {s.error_id: s for s in cat.sites(prover.snapshot.key)}
        obs: dict[str, list[Observation]] = {}
        for o in cat.observations(snapshot_key=prover.snapshot.key):
            if o.kind == "site" and o.error_id:
                obs.setdefault(o.error_id, []).append(o)
    finally:
        cat.close()
    alts: dict[str, dict[str, list[str]]] = {}
    for group in obs.values():
        for o in group:
            for a in o.entry_args:
                seen = alts.setdefault(o.entry, {}).setdefault(a.name, [])
                if a.repr not in seen and len(seen) < 8:
                    seen.append(a.repr)
    prover = replace(prover, alternatives={e: {k: tuple(v) for k, v in ps.items()} for e, ps in alts.items()})
    by_function: dict[tuple[str, str], list[ErrorSite]] = {}
    for s in sites.values():
        by_function.setdefault((s.path, s.qualname), []).append(s)

    def one(eid: str) -> Outcome:
        c = open_catalog()
        try:
            site = sites[eid]
            observed = sorted(obs.get(eid, []), key=lambda o: (not o.escaped, -o.count))
            out = prover.prove(c, site, observed, by_function.get((site.path, site.qualname), []))
        finally:
            c.close()
        if progress is not None:
            progress(out)
        return out

    wanted = [e for e in targets if e in sites]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, wanted))

