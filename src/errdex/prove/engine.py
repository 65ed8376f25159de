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

import ast
import json
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence, Set
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.model import ErrorSite, Observation, Proof, ProofAfter, ProofBefore, Snapshot
from errdex.observe.evidence import raised_instead
from errdex.prove.candidates import Candidate, guard_names, test_candidates, with_options
from errdex.prove.checks import try_handled, validate_stopped
from errdex.prove.configcand import OptionSwitch, option_switches
from errdex.prove.direct import public_instead, reshaped_to_match, sample_after
from errdex.prove.fixes import (
    CAUGHT_LABEL,
    given_wanted,
    message_line,
    message_values,
    real_fixes,
)
from errdex.prove.harness import run_env, runner_first
from errdex.prove.inner import inner_calls
from errdex.prove.keep import arguments_mark, changed, dropped, probe_defaults, probe_script, value_only
from errdex.prove.keep import variants as kept_variants
from errdex.prove.mistake import instead_of, only_drops, sets_up
from errdex.prove.mutate import MAX_VARIANTS as MAX_MUTATED
from errdex.prove.needed import needs
from errdex.prove.pairs import paired, tripled
from errdex.prove.passflags import flagged, setting_mark
from errdex.prove.pool import WorkerPool
from errdex.prove.rebuilt import function_key, resolved_calls
from errdex.prove.reshape import MAX_RESHAPED, defined_first
from errdex.prove.runoutput import excerpt, last_line, read_output, site_raised
from errdex.prove.runs import Runs
from errdex.prove.samples import _tail, samples  # the output tail, one definition for proofs and samples
from errdex.sandbox import Environment, Limits, RunRequest, run

PLAN_SCRIPT = Path(__file__).with_name("plan_script.py")
WORKER_SCRIPT = Path(__file__).with_name("worker_script.py")
MAX_CANDIDATES = 3  # observations (distinct tests / entry calls) tried per error
MAX_WRAPPED = 12  # ... for an error only seen caught, when a test runner's wrapper caught some (harness.runner_caught)
MAX_VARIANTS = MAX_MUTATED + MAX_RESHAPED  # every variant mutate.variants gives (its own cap), then reshape's
MAX_KEPT_REST = 8  # value-only afters of the candidate's own list tried after keep.variants'
MAX_FIX_REST = 24  # ... after a non-fix (``only_drops``): those that do more, reshape's late in the list among them
AFTER_CHUNK = 8  # afters sent to the worker at a time: the first clean one stops the rest
DIRECT_CAUSE = "The above exception was the direct cause of the following exception:"
DURING_HANDLING = "During handling of the above exception, another exception occurred:"
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
class Prover:
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

    def resolves_to(self, catalog: Catalog, stderr: str, error_id: str) -> tuple[str, str]:
        """(matched id, printed exception) of a traceback, by errdex's own matcher."""
        ex = explain(catalog, stderr, top=3, repo=self.snapshot.repo)
        top = ex.matches[0].id if ex.matches else ""
        return top, ex.parsed.exception

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

    def kept(self, catalog: Catalog, site: ErrorSite, before: str, after: str, rest: Sequence[str],
             scratch: Path, pb: ProofBefore | None = None, seen: dict[str, bool] | None = None,
             others: Sequence[ErrorSite] = ()) -> tuple[str, str, str, int]:
        """When the proven ``after`` drops an argument of ``before`` (``keep.py``) or only takes the trigger
        away (``mistake.only_drops``): the first after that gives the call what it needs (``fixes.py``: the
        value the before's message asks for, a class instantiated, a signal caught) or keeps every argument,
        and runs clean; then the value-only ones of ``rest`` (the afters the candidate had after the proven
        one).  (after, how, stdout, runs); after "" when none."""
        public = public_instead(site, catalog.symbols(self.snapshot.key), before)  # (``direct.py``)
        first = self._first_fix(catalog, site, public, scratch, seen) if public and public[0][1] != after else ("", "", "", 0)
        if first[0]:
            return first
        lossy = bool(dropped(before, after))
        if not lossy and not only_drops(before, after):
            return "", "", "", 0
        fixes, wanted = self._fact_fixes(catalog, site, before, pb)
        probe, runs, defaults = (probe_script(before, after) if lossy else ""), 0, {}
        if probe:
            got = self.runs([probe], scratch, "defaults")
            runs, defaults = got.count, probe_defaults(got[0][1])
        new = [*instead_of(fixes, before, after), *given_wanted(before, wanted),
               *reshaped_to_match(before, after, site),
               *(kept_variants(before, after, site, defaults, wanted) if lossy else [])]
        # those that only take the trigger away too (``kinds=None``) last: a fix that gives the call what it needs first
        firsts: dict[str, str] = {}
        for label, src in new:  # each once, at its first place
            firsts.setdefault(src, label)
        new = [(label, src) for src, label in firsts.items()]
        new = [x for x in new if not only_drops(before, x[1])] + [x for x in new if only_drops(before, x[1])]
        tried = {src for _, src in new}
        # the candidate's own afters after the proven one: those that keep every argument (and, when the proven one
        # kept them but only took the trigger away, those that change how the call is set up and do more than
        # take something away: ``version='1.0'`` given to the configuring call rather than ``['--version']`` -> ``[]``)
        more = [rest[k] for k in value_only(before, rest) if rest[k] not in tried
                and (lossy or (sets_up(before, rest[k]) and not only_drops(before, rest[k])))][
            :MAX_KEPT_REST if lossy else MAX_FIX_REST]
        after, how, out, n = self._first_fix(catalog, site, [
            *new, *((f"{changed(before, m)} (keeps every argument)", m) for m in more)], scratch, seen)
        if not after and not lossy:  # a non-fix: the setting that lets the refused input through (``passflags.py``)
            after, how, out, m = flagged(before, site, others, lambda: catalog.sites(self.snapshot.key), self.package,
                                         lambda codes: self.runs(codes, scratch, "flagged"),
                                         lambda err: self.resolves_to(catalog, err, site.error_id)[0] == site.error_id)
            n += m
        return after, how, out, runs + n + first[3]

    def fixed(self, catalog: Catalog, site: ErrorSite, before: str, scratch: Path,
              pb: ProofBefore) -> tuple[str, str, str, int]:
        """When no variant of ``before`` ran clean: the first of the fixes the error's facts give that does
        (``fixes.real_fixes``, keywords given the values the message asks for).  (after, how, stdout, runs)."""
        fixes, wanted = self._fact_fixes(catalog, site, before, pb)
        public = public_instead(site, catalog.symbols(self.snapshot.key), before)  # the private call's replacement
        return self._first_fix(catalog, site, [*public, *fixes, *given_wanted(before, wanted)], scratch)

    def _fact_fixes(self, catalog: Catalog, site: ErrorSite, before: str, pb: ProofBefore | None
                    ) -> tuple[list[tuple[str, str]], dict[str, tuple[str, ...]]]:
        """The fixes the error's own facts give for ``before`` (``fixes.real_fixes``) and the keyword values
        the message it printed asks for (``fixes.message_values``)."""
        if pb is None:
            return real_fixes(catalog.classes(self.snapshot.key), site, before, ""), {}
        return (real_fixes(catalog.classes(self.snapshot.key), site, before, pb.exception),
                message_values(site, message_line(pb.output, pb.exception)))

    def _first_fix(self, catalog: Catalog, site: ErrorSite, labelled: Sequence[tuple[str, str]],
                   scratch: Path, seen: dict[str, bool] | None = None) -> tuple[str, str, str, int]:
        """(after, how, stdout, runs) of the first of the (label, source) afters that runs clean (a caught
        signal's by ``_first_clean``'s rule for it); after "" when none does."""
        if not labelled:
            return "", "", "", 0
        signal = {k for k, (label, _) in enumerate(labelled) if label.endswith(CAUGHT_LABEL)}
        i, out, n = self._first_clean(catalog, site.error_id, [src for _, src in labelled], scratch, caught=signal,
                                      seen=seen)
        return (labelled[i][1], labelled[i][0], out, n) if i >= 0 else ("", "", "", n)

    def _first_clean(self, catalog: Catalog, error_id: str, afters: Sequence[str], scratch: Path,
                     progressed: list[int] | None = None, caught: Set[int] = frozenset(),
                     seen: dict[str, bool] | None = None) -> tuple[int, str, int]:
        """(index, stdout, runs) of the first after that exits 0 without printing ``error_id`` (index -1
        when none does); run in chunks of ``AFTER_CHUNK``, so a clean one early stops the rest.
        ``progressed`` collects the indexes of afters that got past this error and raised another;
        ``caught``: afters that catch the error themselves (a signal, ``fixes.caught``), clean when they exit 0
        with nothing on stderr although the site raised; ``seen`` collects each after run (source -> it raised
        this error; False: it ran clean), for the validate samples (``samples.py``)."""
        runs = 0
        for start in range(0, len(afters), AFTER_CHUNK):
            res = self.runs(afters[start:start + AFTER_CHUNK], scratch, f"after-{start}")
            for k in range(len(afters[start:start + AFTER_CHUNK])):
                rc2, out2, err2 = res[k]
                if start + k in caught:
                    if rc2 == 0 and not err2.strip():
                        return start + k, out2, runs + res.count
                    continue
                mine = rc2 != 0 and (res.raised(k) or self.resolves_to(catalog, err2, error_id)[0] == error_id)
                if seen is not None and (mine or (rc2 == 0 and not err2.strip())) and start + k not in caught:
                    seen[afters[start + k]] = mine
                if rc2 == 0 and not res.raised(k) \
                        and not (err2.strip() and self.resolves_to(catalog, err2, error_id)[0] == error_id):
                    return start + k, out2, runs + res.count
                if progressed is not None and rc2 > 0 and "Traceback" in err2 and not res.raised(k) \
                        and self.resolves_to(catalog, err2, error_id)[0] != error_id \
                        and self.cause_resolving_to(catalog, err2, error_id) is None:
                    progressed.append(start + k)
            runs += res.count
        return -1, "", runs

    def _two_edits(self, catalog: Catalog, site: ErrorSite, cand: Candidate, afters: Sequence[str],
                   progressed: Sequence[int], scratch: Path) -> tuple[str, str, str, int]:
        """When no single edit ran clean: pairs of edits (``pairs.py``), the singles that got past this
        error first.  (after, why, stdout, runs); after "" when none ran clean."""
        if cand.distilled is None:
            return "", "", "", 0
        modules: dict[str, ast.Module] = {}
        pairs = paired(cand.distilled, guard_names(site), self.package, [afters[i] for i in progressed], afters,
                       modules)
        if not pairs:
            return "", "", "", 0
        further: list[int] = []
        i, out, n = self._first_clean(catalog, site.error_id, [src for _, src in pairs], scratch, further)
        if i >= 0:
            return pairs[i][1], f"two edits: {pairs[i][0]}", out, n
        # no pair ran clean: those that got past this error too are edited a third time
        third = tripled(cand.distilled, [(pairs[k][0], modules[pairs[k][1]]) for k in further if pairs[k][1] in modules],
                        guard_names(site), self.package, [*afters, *(src for _, src in pairs)])
        if not third:
            return "", "", "", n
        j, out3, n3 = self._first_clean(catalog, site.error_id, [src for _, src in third], scratch)
        return (third[j][1], f"three edits: {third[j][0]}", out3, n + n3) if j >= 0 else ("", "", "", n + n3)

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


def prove_all(prover: Prover, open_catalog: Callable[[], Catalog], targets: Sequence[str], jobs: int,
              progress: Callable[[Outcome], None] | None = None, persistent: bool = True) -> list[Outcome]:
    """Prove ``targets`` (error ids) in parallel threads, each with its own catalog connection."""
    cat = open_catalog()
    try:
        sites = {s.error_id: s for s in cat.sites(prover.snapshot.key)}
        obs: dict[str, list[Observation]] = {}
        for o in cat.observations(snapshot_key=prover.snapshot.key):
            if o.kind == "site" and o.error_id:
                obs.setdefault(o.error_id, []).append(o)
        sws = option_switches(cat, prover.snapshot, [sites[e] for e in targets if e in sites])
        symbols = defined_first(cat.symbols(prover.snapshot.key), [c.qualname for c in cat.classes(prover.snapshot.key)])
        resolved = resolved_calls(cat.calls(prover.snapshot.key), [function_key(sites[e]) for e in targets if e in sites])
    finally:
        cat.close()
    alts: dict[str, dict[str, list[str]]] = {}
    for group in obs.values():
        for o in group:
            for a in o.entry_args:
                seen = alts.setdefault(o.entry, {}).setdefault(a.name, [])
                if a.repr not in seen and len(seen) < 8:
                    seen.append(a.repr)
    prover = replace(prover, alternatives={e: {k: tuple(v) for k, v in ps.items()} for e, ps in alts.items()},
                     switches=sws, symbols=symbols, resolved=resolved)
    by_function: dict[tuple[str, str], list[ErrorSite]] = {}
    for s in sites.values():
        by_function.setdefault((s.path, s.qualname), []).append(s)

    by_entry: dict[str, set[str]] = {}
    for eid, group in obs.items():
        for o in group:
            by_entry.setdefault(o.entry, set()).add(eid)

    def rivals(site: ErrorSite) -> list[ErrorSite]:
        """Other errors the same call can raise: the same function's, and those observed through the
        same public entry."""
        ids = {o.error_id for o in by_function.get((site.path, site.qualname), [])}
        for o in obs.get(site.error_id, []):
            ids |= by_entry.get(o.entry, set())
        ids.discard(site.error_id)
        return [sites[i] for i in sorted(ids) if i in sites]

    def one(eid: str) -> Outcome:
        c = open_catalog()
        try:
            site = sites[eid]
            observed = sorted(obs.get(eid, []), key=lambda o: (not o.escaped, -o.count))
            caught = bool(observed) and not any(o.escaped for o in observed)
            p = replace(prover, watch=(site.path, site.line, site.end_line)) if caught else prover
            if caught and (wrapped := runner_first(observed)):  # a test runner's wrapper caught some
                first = observed[:MAX_CANDIDATES]  # the usual ones first (their proofs stay), then the runner's
                observed = [*first, *(o for o in wrapped if o not in first)]
                p = replace(p, max_candidates=MAX_WRAPPED)
            out = p.prove(c, site, observed, rivals(site))
            instead = raised_instead(observed, every) if out.proven is None else []
            if instead:
                out = replace(out, reason=f"only seen caught inside the library, which raises "
                                         f"{', '.join(r['error_id'] for r in instead)} instead ({out.reason})")
        finally:
            c.close()
        if progress is not None:
            progress(out)
        return out

    every = [o for group in obs.values() for o in group]
    wanted = [e for e in targets if e in sites]
    workers = WorkerPool(prover.env, prover.package, jobs, dict(prover.extra_env)) if prover.worker and persistent else None
    prover = replace(prover, pool=workers)
    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as threads:
            return list(threads.map(one, wanted))
    finally:
        if workers is not None:
            workers.close()

