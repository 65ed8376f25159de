"""Build candidate examples for one observed error and keep only those that run as claimed.

The observed public call is restated as a script (``plan_script.py``, run in the sandbox), the triggering
test distilled (``candidates.py``), each run, and its traceback given to errdex's own matcher; an after-variant
of the same call (one argument back to its default, or a bool flipped) must exit 0 without this error
(``afters.py``); the try sample must handle exactly this error on the bad input and call through on the good
one (``samples.py``).  Every run is a separate sandboxed process with a timeout (fresh module state by
construction; ``running.py``).  ``Prover.recheck`` runs a stored proof again.  Many errors at once, in a
thread pool: ``parallel.prove_all``.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from errdex.catalog.base import Catalog
from errdex.model import ErrorSite, Observation, Proof, ProofAfter, ProofBefore, Snapshot
from errdex.prove.afters import AfterSearch
from errdex.prove.candidates import Candidate, guard_names, test_candidates, with_options
from errdex.prove.checks import try_handled, validate_stopped
from errdex.prove.configcand import OptionSwitch
from errdex.prove.direct import sample_after
from errdex.prove.inner import inner_calls
from errdex.prove.keep import arguments_mark
from errdex.prove.mutate import MAX_VARIANTS as MAX_MUTATED
from errdex.prove.needed import needs
from errdex.prove.passflags import setting_mark
from errdex.prove.pool import WorkerPool
from errdex.prove.reshape import MAX_RESHAPED
from errdex.prove.runoutput import excerpt, last_line
from errdex.prove.samples import _tail, samples  # the output tail, one definition for proofs and samples
from errdex.sandbox import Environment, Limits, RunRequest, run

PLAN_SCRIPT = Path(__file__).with_name("plan_script.py")
MAX_CANDIDATES = 3  # observations (distinct tests / entry calls) tried per error
MAX_WRAPPED = 12  # ... for an error only seen caught, when a test runner's wrapper caught some (harness.runner_caught)
MAX_VARIANTS = MAX_MUTATED + MAX_RESHAPED  # every variant mutate.variants gives (its own cap), then reshape's
CAUGHT_MARK = "raised inside and caught by"  # a proof's candidate: the site raised, users saw another error


@dataclass(frozen=True, slots=True)
class Proven:
    """A proven before/after pair (and a try sample when it held too)."""

    before: str
    after: str
    proof: Proof
    try_sample: str = ""
    try_proof: Proof | None = None
    validate_sample: str = ""
    validate_proof: Proof | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    error_id: str
    proven: Proven | None
    reason: str  # why not proven ("" when proven)
    runs: int
    duration_s: float


@dataclass(frozen=True, slots=True)
class Prover(AfterSearch):
    """Proves one error (``prove``); its runs (``running.py``) and afters (``afters.py``) are mixins."""

    catalog_path: str  # each thread opens its own catalog for the matcher
    snapshot: Snapshot
    env: Environment
    package: str
    timeout_s: float = 30.0
    project: Path | None = None  # observe's workspace copy of the tests (the distilled candidates)
    worker: bool = True  # batches in one worker that forks per example (else a fresh process each)
    pool: WorkerPool | None = None  # persistent workers (prove_all starts them when ``worker`` is on)
    # entry -> parameter -> argument reprs the library's tests passed to it (any error's observation)
    alternatives: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    # error id -> the on/off options its guards read (configcand.switches; prove_all fills it)
    switches: Mapping[str, tuple[OptionSwitch, ...]] = field(default_factory=dict)
    extra_env: tuple[tuple[str, str], ...] = ()  # prove --env NAME=VALUE: every run gets it (recorded in the proof)
    symbols: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # module -> names (reshape: names that exist)
    resolved: Mapping[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)  # function -> (callee, line)
    # (path, first line, last line) of a site only ever seen caught inside the library: every run records
    # where its exceptions started (``worker_script``), so a proof can see it raised under another error
    watch: tuple[str, int, int] | None = None
    max_candidates: int = MAX_CANDIDATES  # observations tried (MAX_WRAPPED for one a test runner's wrapper caught)

    def _plan(self, o: Observation, scratch: Path) -> dict[str, object]:
        req = scratch / "plan-in.json"
        out = scratch / "plan-out.json"
        req.write_text(json.dumps({"entry": o.entry, "package": self.package,
                                   "alternatives": {k: list(v) for k, v in self.alternatives.get(o.entry, {}).items()},
                                   "args": [{"name": a.name, "type": a.type, "repr": a.repr} for a in o.entry_args]}))
        out.unlink(missing_ok=True)
        run(RunRequest(argv=(str(self.env.python), str(PLAN_SCRIPT), str(req), str(out)),
                       limits=Limits(timeout_s=self.timeout_s), env=self.run_vars(), scratch=scratch / "run-plan"))
        if not out.is_file():
            return {"unsupported": "the planner did not finish"}
        data: dict[str, object] = json.loads(out.read_text())
        return data

    def _proof(self, before: ProofBefore, after: ProofAfter, candidate: str) -> Proof:
        # the sandbox's own paths say nothing to a reader: ".../site-packages/click/core.py"
        for root in map(str, self.env.site_packages):
            before = replace(before, output=before.output.replace(root, ".../site-packages"))
            after = replace(after, output=after.output.replace(root, ".../site-packages"))
        return Proof(before=before, after=after, library=self.package, version=self.snapshot.version or self.snapshot.ref or "",
                     python=self.env.python_version, date=datetime.now(UTC).isoformat(timespec="seconds"),
                     candidate=candidate, env=tuple(f"{k}={v}" for k, v in self.extra_env))

    def _scripts(self, o: Observation, scratch: Path, site: ErrorSite,
                 others: Sequence[ErrorSite] = ()) -> tuple[list[Candidate], str]:
        """Candidates for one observation, best first: the triggering test distilled, then the
        observed public entry call restated from its recorded arguments."""
        out: list[Candidate] = []
        reason = ""
        if self.project is not None and o.test:
            out, reason = test_candidates(self.project, o, site, self.package, self.symbols, others)
        if o.entry:
            plan = self._plan(o, scratch)
            if "unsupported" in plan:
                reason = reason or f"entry {o.entry}: {plan['unsupported']}"
            else:
                imp, call = str(plan["import"]), str(plan["call"])
                vs = plan.get("variants")
                after = tuple(f"{imp}\n\n{v['call']}\n" for v in (vs if isinstance(vs, list) else []))
                out.append(Candidate("entry", f"{imp}\n\n{call}\n", after, None))
        return with_options(out, self.switches.get(site.error_id, ())), reason

    def _inner(self, cand: Candidate, o: Observation, site: ErrorSite, scratch: Path) -> list[Candidate]:
        """For a test candidate whose outer call caught the error: the chain's inner public calls (``inner.py``)."""
        if cand.kind != "test" or cand.distilled is None:
            return []
        return [Candidate(f"test, the inner call {c.target}", c.before, c.afters, None)
                for c in inner_calls(self.env, self.run_vars(), self.timeout_s, cand.distilled, cand.before, o.chain,
                                     o.entry, site, self.package, scratch, guard_names(site), self.symbols)]

    def prove(self, catalog: Catalog, site: ErrorSite, observed: Sequence[Observation],
              others: Sequence[ErrorSite]) -> Outcome:
        start = datetime.now(UTC)
        runs = 0
        reason = "no observation reached this error through a public call or a test"
        tried: set[str] = set()
        tests_seen: set[tuple[str, str]] = set()
        with tempfile.TemporaryDirectory(prefix="errdex-prove-") as tmp:
            scratch = Path(tmp)
            inner: list[tuple[Observation, Candidate]] = []  # tried after every observation's own candidates
            for o in [*observed, None]:
                if o is None:
                    if not inner:
                        break
                    o, cands = inner[0][0], [c for _, c in inner]
                else:
                    key = (o.test, o.entry + repr([a.repr for a in o.entry_args]))
                    if key in tests_seen or len(tests_seen) >= self.max_candidates:
                        continue
                    tests_seen.add(key)
                    cands, why = self._scripts(o, scratch, site, others)
                    runs += 1 if o.entry else 0  # the planner
                    reason = why or reason
                for cand in cands:
                    if cand.before in tried:
                        continue
                    tried.add(cand.before)
                    afters = cand.afters[:MAX_VARIANTS]
                    res = self.runs([cand.before], scratch, "before")
                    rc, _, err = res[0]
                    runs += res.count
                    if rc == 0:
                        reason = f"the {cand.kind} candidate did not raise outside the test ({o.test})"
                        inner += [(o, c) for c in self._inner(cand, o, site, scratch)]
                        continue
                    got, exc = self.resolves_to(catalog, err, site.error_id)
                    kind = cand.kind
                    if got != site.error_id:
                        cause = self.cause_resolving_to(catalog, err, site.error_id)
                        if cause is not None:
                            # raised, then wrapped by the library (``raise Outer(...) from err``): the traceback
                            # the user sees shows this error as the direct cause of the one that escaped
                            got, exc, err = site.error_id, cause[0], cause[1]
                            kind = f"{cand.kind}, the cause of {last_line(str(cause[2]))[:80]}"
                        elif self.watch is not None and res.under(0) and "Traceback" in err:
                            # only ever seen caught: the run recorded it raised here, and the library raised
                            # what the traceback shows while handling it (``from None``): the pair is this
                            # site's, the output is what users see
                            kind = f"{cand.kind}, {CAUGHT_MARK} {self.package}: users see {exc or got}"
                        else:
                            reason = (f"the {cand.kind} candidate raised, but its traceback resolves to "
                                      f"{got or 'nothing'}")
                            inner += [(o, c) for c in self._inner(cand, o, site, scratch)]
                            continue
                    pb = ProofBefore(exception=exc, error_id=got, output=excerpt(err, exc))
                    progressed: list[int] = []
                    seen: dict[str, bool] = {}  # each after run: it raised this error (the validate samples' values)
                    clean = self._first_clean(catalog, site.error_id, afters, scratch, progressed, seen=seen)
                    runs += clean[2]
                    if clean[0] < 0:  # no variant ran clean: the fixes the error's own facts give (``fixes.py``)
                        fixed = self.fixed(catalog, site, cand.before, scratch, pb)
                        runs += fixed[3]
                        if fixed[0]:
                            n = len(afters)
                            kinds = cand.after_kinds[:n]
                            cand = replace(cand, after_kinds=(*kinds, *[""] * (n - len(kinds)), fixed[1]))
                            afters, clean = (*afters, fixed[0]), (n, fixed[2], 0)
                    two = ("", "", "", 0) if clean[0] >= 0 else self._two_edits(catalog, site, cand, afters,
                                                                                progressed, scratch)
                    runs += two[3]
                    if clean[0] >= 0 or two[0]:
                        i, out2 = clean[0], clean[1] if clean[0] >= 0 else two[2]
                        after = afters[i] if i >= 0 else two[0]
                        how = (cand.after_kinds[i] if 0 <= i < len(cand.after_kinds) else "") if i >= 0 else two[1]
                        kept = self.kept(catalog, site, cand.before, after, afters[i + 1:] if i >= 0 else (), scratch,
                                         pb, seen, others)
                        runs += kept[3]
                        shown = after  # the value-only after: the samples' values when the kept one calls no function
                        after, how, out2 = (kept[0], kept[1], kept[2]) if kept[0] else (after, how, out2)
                        proof = replace(self._proof(pb, ProofAfter(exit=0, output=_tail(out2)),
                                                    f"{kind}; after: {how}" if how else kind),
                                        arguments=setting_mark(how) or arguments_mark(cand.before, after))
                        why, n = needs(self, cand.before, after, scratch, pb.output)  # each of two changes needed? (needed.py)
                        proof, runs = replace(proof, needs=why), runs + n
                        spelt: list[str] = []  # the after's other spellings that raised (``contradict.py``)
                        ran: list[str] = []  # and those that ran clean
                        found, n = ((("", None, "", None), 0) if kind != cand.kind
                                    else self._samples(site, others, cand, sample_after(cand.before, after, shown), pb, scratch,
                                                       self.check_sample(catalog, site), seen, spelt, ran))
                        runs, proof = runs + n, replace(proof, raised_with=tuple(spelt), clean_with=tuple(ran))
                        secs = (datetime.now(UTC) - start).total_seconds()
                        return Outcome(site.error_id, Proven(cand.before, after, proof, *found), "", runs, secs)
                    reason = f"the {cand.kind} candidate raises this error, but no variant of its arguments ran clean"
        return Outcome(site.error_id, None, reason, runs, (datetime.now(UTC) - start).total_seconds())

    def check_sample(self, catalog: Catalog, site: ErrorSite) -> str:
        """The static check sample of the error's analysis (``Analysis.check_sample``), "" when none."""
        a = catalog.get_analysis(site.error_id, self.snapshot.key)
        return a.check_sample if a is not None else ""

    def recheck(self, catalog: Catalog, error_id: str, before: str, after: str, scratch: Path,
                try_sample: str = "", validate_sample: str = "", caught: bool = False,
                stops: Callable[[str], bool] | None = None) -> str:
        """Why a stored proof no longer holds ("" when it does): before must raise and resolve to
        ``error_id``, after must exit 0 without it (``caught``: an after that catches a signal itself,
        ``fixes.caught``: exit 0, nothing on stderr), a proven try sample must still handle it."""
        rc, _, err, raised = self._run(before, scratch, "before")
        if rc == 0:
            return "before no longer raises"
        got, _ = self.resolves_to(catalog, err, error_id)
        if self.watch is not None and raised != "under":
            return "before no longer raises what users see while handling it inside the library"
        if got != error_id and self.cause_resolving_to(catalog, err, error_id) is None and self.watch is None:
            return f"before's traceback now resolves to {got or 'nothing'}"
        rc2, _, err2, raised2 = self._run(after, scratch, "after")
        if stops is not None:  # an after that passes the check (``passes.py``): it still stops on what the machine lacks
            return "" if rc2 != 0 and stops(err2) else f"the after no longer stops on what the machine lacks: {_tail(err2)}"
        if rc2 != 0:
            return f"after exits {rc2}: {_tail(err2)}"
        if caught and err2.strip():
            return f"the after that catches it printed on stderr: {_tail(err2)}"
        if raised2 and not caught:
            return "after still raises it inside the library"
        if try_sample:
            rc3, out3, err3, _ = self._run(try_sample, scratch, "try")
            if not try_handled(rc3, out3, err3):
                return f"the try sample no longer handles the error (exit {rc3}): {_tail(err3 or out3)}"
        if validate_sample:
            rc4, out4, err4, _ = self._run(validate_sample, scratch, "validate")
            if not validate_stopped(rc4, out4, err4):
                return f"the validate sample no longer stops the bad input (exit {rc4}): {_tail(err4 or out4)}"
        return ""

    def _samples(self, site: ErrorSite, others: Sequence[ErrorSite], cand: Candidate, after: str,
                 pb: ProofBefore, scratch: Path, check: str = "",
                 seen: Mapping[str, bool] | None = None,
                 raised: list[str] | None = None,
                 clean: list[str] | None = None) -> tuple[tuple[str, Proof | None, str, Proof | None], int]:
        """(try sample, its proof, validate sample, its proof), and the runs it took (``samples.py``)."""
        return samples(self, site, others, cand.before, cand.kind, after, pb, scratch, check, seen, raised, clean)
