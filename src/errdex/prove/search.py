"""Argument search for errors no test reaches (issue 15; docs/prove.md, "Search").

For each error with no observation: the public entries that lead to its site (``public_path``),
the values its guards compare with (``guard_values``) and the guards' lines go to
``search_script.py``, which runs in the sandbox environment of the indexed version with Hypothesis
installed beside the library (``EnvSpec.extra_requirements``).  There each entry's signature (type
hints, defaults) gives a strategy of call sources; Hypothesis generates calls, steered towards the
site by how many guard lines a call reached (``hypothesis.target``), and shrinks the first call that
raised at the site.  Its after-candidates change one argument and ran clean in the search.

Nothing found there counts by itself: the before and its afters are then run as scripts in the
proof environment (the same one as every other candidate), the before's traceback must resolve,
through errdex's matcher, to this error's id, and an after must exit 0 without it; the try and
validate samples are built and run as for the other candidates (``Prover.samples``).  A time
budget per error (``budget_s``), a fixed seed (Hypothesis ``derandomize``), errors searched in
parallel sandboxed processes (``jobs``), each error in a forked child with a hard limit.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from errdex.analyze.context import load_context
from errdex.analyze.narrowed import narrowed_of
from errdex.analyze.public_path import entries_under, is_public_module
from errdex.catalog.base import Catalog
from errdex.model import ErrorSite, ProofAfter, ProofBefore
from errdex.pagenotes import KEPT_STREAM, WARMS_UP
from errdex.prove.axis_slices import axis_mark, axis_pairs
from errdex.prove.candidates import Candidate
from errdex.prove.configcand import OptionSwitch, option_switches
from errdex.prove.direct import sample_after
from errdex.prove.engine import Outcome, Proven, Prover
from errdex.prove.guard_values import guard_values
from errdex.prove.harness import run_env
from errdex.prove.keep import arguments_mark, given_mark
from errdex.prove.kernel_forms import KernelForm, kernel_entries, kernel_form, kernel_label, with_kernel
from errdex.prove.needed import needs
from errdex.prove.noop import no_op, selectors_of
from errdex.prove.passes import exception_name, machine_stop
from errdex.prove.passflags import setting_mark
from errdex.prove.runoutput import excerpt
from errdex.prove.search_adapters import search_adapter
from errdex.prove.streams import stand_in, stream_read
from errdex.prove.view_forms import ViewForm, view_form, view_pairs
from errdex.prove.warmup import WARM_LABEL, warm_afters, warms_up
from errdex.sandbox import Environment, Limits, RunRequest, run

SEARCH_SCRIPT = Path(__file__).with_name("search_script.py")
HYPOTHESIS = "hypothesis>=6.100"
MAX_ENTRIES = 3
MAX_KERNEL_ENTRIES = 3  # a kernel body's public calls that reach the site, beside its own entries
BATCH = 4  # errors per sandboxed search process


@dataclass(frozen=True, slots=True)
class SearchTarget:
    """One error to search for: where it raises, which public calls lead there, what its guards say."""

    error_id: str
    path: str
    line: int
    end_line: int
    entries: tuple[str, ...]
    guard_lines: tuple[int, ...]
    literals: dict[str, tuple[str, ...]]
    pool: tuple[str, ...]
    shaped: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    options: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()  # the guard asks ``issubclass(x, C)``: the package's classes of kind C are values
    unset: tuple[tuple[str, str], ...] = ()  # the raise's guard asks whether a parameter is unset (guard_values)
    imported: bool = False  # no public call leads there: the function itself, imported as written
    views: tuple[tuple[str, str], ...] = ()  # (before, after) programs of a write through a view (view_forms.py)

    def request(self) -> dict[str, object]:
        return {"error_id": self.error_id, "path": self.path, "line": self.line, "end_line": self.end_line,
                "entries": list(self.entries), "guard_lines": list(self.guard_lines),
                "literals": {k: list(v) for k, v in self.literals.items()}, "pool": list(self.pool),
                "shaped": {k: {w: list(v) for w, v in d.items()} for k, d in self.shaped.items()},
                "options": list(self.options), "classes": list(self.classes), "unset": [list(u) for u in self.unset]}


@dataclass(frozen=True, slots=True)
class Found:
    """What the search script reported for one error."""

    error_id: str
    before: str
    afters: tuple[str, ...]
    examples: int
    seconds: float
    notes: tuple[str, ...]
    passes: tuple[str, ...] = ()  # calls that pass the site's check and stop on what the machine lacks (search_climb)


def searchable(site: ErrorSite) -> bool:
    """A raise or an assert with a message (a warning prints no traceback to resolve)."""
    return site.kind in ("error", "assertion") and bool(site.error_id)


def importable_as_written(site: ErrorSite) -> tuple[str, ...]:
    """The raising function itself, by the dotted name it is defined under, when no public name leads to it
    and its module's path has no private component (``pkg.mod._helper``, ``pkg.mod.Cls._check``): the
    import system reaches it as written (``from pkg.mod import _helper``), though no public call does.  A
    nested function, or one in a private module (``pkg._impl``), is not reachable this way."""
    qual = site.qualname
    if not site.module or "<" in qual or qual.count(".") > 1 or not is_public_module(site.module):
        return ()
    return (f"{site.module}.{qual}",)


def targets_for(catalog: Catalog, snapshot_key: str, error_ids: Sequence[str], package: str = "",
                forms: Mapping[str, Sequence[ViewForm]] | None = None,
                kernels: Mapping[str, Sequence[KernelForm]] | None = None) -> list[SearchTarget]:
    """The search targets of ``error_ids`` (those with a public entry), in the given order; with ``package``, a
    narrowed raise that the package's view form reaches carries its programs (``views``), and a site its
    kernel form's body reaches gets the public calls of the kernel's modules that lead there
    (``kernel_forms.kernel_entries``, ``kernels`` the table: the library's by default)."""
    snap = next(s for s in catalog.snapshots() if s.key == snapshot_key)
    ctx = load_context(catalog, snap)
    by_id = {s.error_id: s for s in ctx.sites}
    out: list[SearchTarget] = []
    for eid in error_ids:
        site = by_id.get(eid)
        if site is None or not searchable(site):
            continue
        entries = ctx.public_path(site).entries[:MAX_ENTRIES]
        imported = not entries and bool(importable_as_written(site))
        entries = entries or importable_as_written(site)
        if package:  # a kernel's operations that reach a check of its platform's lowering (kernel_forms.py)
            under = entries_under(site, ctx.call_graph, kernel_entries(package, site.path, kernels),
                                  MAX_KERNEL_ENTRIES)
            entries = tuple(dict.fromkeys([*entries, *under]))
        earlier = [o for o in ctx.sites_by_function.get((site.path, site.qualname), []) if o.line < site.line]
        gv = guard_values(site, earlier)
        views = tuple(view_pairs(narrowed_of(site, ctx.call_graph), view_form(package, site.path, forms))) if package and any(
            g.kind == "narrowed" for g in site.guards) else ()
        out.append(SearchTarget(error_id=eid, path=site.path, line=site.line, end_line=max(site.end_line, site.line),
                                entries=entries, guard_lines=gv.lines, literals=gv.by_name, pool=gv.pool,
                                shaped=gv.shaped, options=gv.options, classes=gv.classes, unset=gv.unset,
                                imported=imported, views=views))
    return out


def run_search(env: Environment, package: str, targets: Sequence[SearchTarget], budget_s: float, seed: int,
               scratch: Path, run_vars: dict[str, str] | None = None) -> dict[str, Found]:
    """Run ``search_script.py`` on ``targets`` in the sandbox; what it found, by error id."""
    req, out = scratch / "search-in.json", scratch / "search-out.json"
    adapter = search_adapter(package)
    timeout = adapter.call_timeout_s if adapter is not None else 1.0
    req.write_text(json.dumps({"package": package, "budget_s": budget_s, "seed": seed, "call_timeout_s": timeout,
                               "adapter": adapter.request() if adapter is not None else {},
                               "targets": [with_kernel(t.request(), package, t.path) for t in targets if t.entries]}))
    out.unlink(missing_ok=True)
    run(RunRequest(argv=(str(env.python), str(SEARCH_SCRIPT), str(req), str(out)),
                   limits=Limits(timeout_s=(2 * budget_s + 15) * max(1, len(targets)) + 30, memory_bytes=4 * 1024**3),
                   env={"PYTHONDONTWRITEBYTECODE": "1", **(run_env(package) if run_vars is None else run_vars)}, scratch=scratch / "run-search"))
    if not out.is_file():
        return {}
    found: dict[str, Found] = {}
    for r in json.loads(out.read_text()).get("results", []):
        found[str(r["error_id"])] = Found(
            error_id=str(r["error_id"]), before=str(r.get("before") or ""),
            afters=tuple(str(a) for a in r.get("afters") or ()), examples=int(r.get("examples") or 0),
            seconds=float(r.get("seconds") or 0.0), notes=tuple(str(n) for n in r.get("notes") or ()),
            passes=tuple(str(a) for a in r.get("passes") or ()))
    return found


IMPORTED_MARK = "the function imported as written: no public call leads to it"


def confirm(prover: Prover, catalog: Catalog, site: ErrorSite, found: Found, others: Sequence[ErrorSite],
            scratch: Path, imported: bool = False, sws: Sequence[OptionSwitch] = (),
            stream: str = "") -> tuple[Proven | None, str, int]:
    """The proof of a found call, as for every candidate: (proven pair or None, why not, runs).
    ``imported``: the entry is the raising function itself (``importable_as_written``), which the
    proof's candidate says.  ``sws``: the on/off options the site's guards read; when a cache is in
    front of the raise, warm-ups of the found calls are tried first (``warmup.py``).  A call that raised
    only under the search's redirected streams is run again with the standard stream the raising function
    reads replaced the same way (``streams.py``), the after with the process's own (``stream``: that
    stream, set on this second pass)."""
    if nothing := no_op(found.before, selectors_of(prover.package)):  # rating 12, 5931: ``dimensions=[]``
        axis, why, n = confirm_axis(prover, catalog, site, found.before, scratch)  # rating 15: along another axis
        return (axis, why, n) if axis is not None else (
            None, f"the call the search found does nothing ({nothing} selects nothing): no example; {why}", n)
    afters = (*warm_afters(site, sws, [found.before, *found.afters]), *found.afters)
    res = prover.runs([found.before, *afters], scratch, "search")
    rc, _, err = res[0]
    if rc == 0:
        read = "" if stream else stream_read(site)
        before, after = stand_in(found.before, read) if read else ("", "")
        if before:
            again = confirm(prover, catalog, site, replace(found, before=before, afters=(after,)), others, scratch,
                            imported, stream=read)
            return (again[0], again[1] if again[0] is not None else
                    f"the call the search found did not raise as a script, nor with {read} a text-only stand-in",
                    res.count + again[2])
        return None, "the call the search found did not raise as a script", res.count
    got, exc = prover.resolves_to(catalog, err, site.error_id)
    kind = "search"
    if got != site.error_id:
        cause = prover.cause_resolving_to(catalog, err, site.error_id)
        if cause is None:
            return None, f"the call the search found raised, but its traceback resolves to {got or 'nothing'}", \
                res.count
        # raised, then wrapped by the library (``raise Outer(...) from err``): shown as the direct cause
        got, exc, err = site.error_id, cause[0], cause[1]
        kind = "search, the cause of " + (cause[2].strip().splitlines() or [""])[-1][:80]
    pb = ProofBefore(exception=exc, error_id=got, output=excerpt(err, exc))
    seen: dict[str, bool] = {}  # the afters run before the clean one: those that raised this error (``samples.py``)
    for i, after in enumerate(afters, 1):
        rc2, out2, err2 = res[i]
        if rc2 != 0 or (err2.strip() and prover.resolves_to(catalog, err2, site.error_id)[0] == site.error_id):
            if rc2 != 0 and prover.resolves_to(catalog, err2, site.error_id)[0] == site.error_id:
                seen[after] = True
            continue
        # an after that drops an argument gives way to one that keeps them all and runs clean (``keep.py``)
        warm = warms_up(found.before, after)  # the check kept on and satisfied: nothing to keep instead
        kept = (("", "", "", 0) if warm else
                prover.kept(catalog, site, found.before, after, afters[i:], scratch, pb, others=others))
        shown = after  # the value-only after that ran clean: the samples' values when the kept one calls no function
        after, out2, how = (kept[0], kept[2], f"; after: {kept[1]}") if kept[0] else (after, out2, "")
        how = how or (f"; after: {WARM_LABEL}" if warm else "")
        proof = prover._proof(pb, ProofAfter(exit=0, output="\n".join(out2.strip().splitlines()[-6:])), kind + how)
        proof = replace(proof, lowered=kernel_label(prover.package, found.before),
                        arguments=WARMS_UP + warm if warm else f"{KEPT_STREAM}{stream}" if stream else
                        setting_mark(how) or given_mark(site, found.before, after) or arguments_mark(found.before, after))
        why, n_needs = needs(prover, found.before, after, scratch, pb.output)  # each of two changes needed? (needed.py)
        proof = replace(proof, needs=why)
        cand = Candidate("search", found.before, afters, None)
        spelt: list[str] = []  # the after's other spellings that raised (``contradict.py``)
        ran: list[str] = []  # and those that ran clean
        samples, n = (prover._samples(site, others, cand, sample_after(found.before, after, shown), pb, scratch, prover.check_sample(catalog, site),
                                      seen, spelt, ran) if kind == "search" else (("", None, "", None), 0))
        proof = replace(proof, raised_with=tuple(spelt), clean_with=tuple(ran))
        if imported:
            proof = replace(proof, candidate=f"{proof.candidate} ({IMPORTED_MARK})")
        return Proven(found.before, after, proof, *samples), "", res.count + n + kept[3] + n_needs
    if found.passes:  # none runs clean here: one that passes this check and stops on what the machine lacks
        return passing(prover, catalog, site, found, pb, scratch, res.count)
    return None, "the search found a raising call, but none of its argument variants ran clean", res.count


def confirm_axis(prover: Prover, catalog: Catalog, site: ErrorSite, program: str,
                 scratch: Path) -> tuple[Proven | None, str, int]:
    """When the site's check accepts one axis only (``axis_slices.py``): the search's call made on an array of one
    more dimension along another axis, which must raise this error, and the first after that asks for the same
    result along the accepted axis, runs clean and whose check program (the same values on distinct inputs, plain
    calls on this machine) passes; the afters that did not run are named in the proof's mark."""
    adapter = search_adapter(prover.package)
    kernel = kernel_form(prover.package, site.path)
    vectors = [*(kernel.values if kernel else ()), *(adapter.values if adapter else ())]
    pairs = axis_pairs(program, site.guards, selectors_of(prover.package), adapter.slices if adapter else None, vectors)
    why, runs = "the check accepts no single axis the search's call could be made along another one", 0
    for pair in pairs:
        res = prover.runs([pair.before, *pair.afters, *pair.checks], scratch, "axis")
        runs += res.count
        rc, _, err = res[0]
        got, exc = prover.resolves_to(catalog, err, site.error_id) if rc != 0 else ("", "")
        if got != site.error_id:
            why = f"the call along axis {pair.wanted} resolves to {got or 'nothing'}"
            continue
        pb = ProofBefore(exception=exc, error_id=got, output=excerpt(err, exc))
        not_run: list[tuple[str, str]] = []
        for i, (after, how) in enumerate(zip(pair.afters, pair.hows, strict=True), 1):
            rc2, out2, err2 = res[i]
            rc3 = res[len(pair.afters) + i][0]
            if rc2 != 0:
                not_run.append((how, (exception_name(err2) + ": " + _last(err2).split(". ")[0]).strip(": ")[:160]))
                continue
            if rc3 != 0:
                not_run.append((how, "not the same values as the call along axis " + str(pair.wanted)))
                continue
            proof = prover._proof(pb, ProofAfter(exit=0, output="\n".join(out2.strip().splitlines()[-6:])),
                                  f"search; after: {how}, along the accepted axis (axis_slices.py)")
            respelt = pair.respelt(after)  # the accepted value spelt other ways (``[0]``): which ran clean, which raised
            more = prover.runs(respelt, scratch, "axis-spelt") if respelt else None
            ran = tuple(c for j, c in enumerate(respelt) if more is not None and more[j][0] == 0)
            spelt = tuple(c for j, c in enumerate(respelt) if more is not None and more[j][0] != 0
                          and prover.resolves_to(catalog, more[j][2], site.error_id)[0] == site.error_id)
            proof = replace(proof, lowered=kernel_label(prover.package, pair.before),
                            arguments=axis_mark(pair, how, not_run), clean_with=ran, raised_with=spelt)
            return Proven(pair.before, after, proof), "", runs + (more.count if more is not None else 0)
        why = "no after along the accepted axis ran clean with the same values: " + "; ".join(
            f"{h}: {w}" for h, w in not_run)
    return None, why, runs


def _last(err: str) -> str:
    """The exception line's message (after ``Name: ``) of a traceback."""
    last = [ln for ln in err.strip().splitlines() if ln.strip()]
    return last[-1].partition(": ")[2] if last else ""


PASSES_MARK = "after: passes the check, then stops on what this machine lacks (search_climb.py)"


def passing(prover: Prover, catalog: Catalog, site: ErrorSite, found: Found, pb: ProofBefore, scratch: Path,
            runs: int) -> tuple[Proven | None, str, int]:
    """The first of the search's passing calls whose run, as a script, passes this check (its traceback runs the
    raising function below the site), does not resolve to this error, and stops on what this machine lacks
    (``passes.machine_stop``): proven as far as this machine goes, said so (``Proof.passes``); no samples."""
    res = prover.runs(list(found.passes), scratch, "passes")
    for i, after in enumerate(found.passes):
        rc, _, err = res[i]
        if rc == 0 or prover.resolves_to(catalog, err, site.error_id)[0] == site.error_id:
            continue
        if prover.cause_resolving_to(catalog, err, site.error_id) is not None:
            continue
        stop = machine_stop(prover.package, site, err)
        if stop is None:
            continue
        last = [ln for ln in err.strip().splitlines() if ln.strip()]
        proof = prover._proof(pb, ProofAfter(exit=rc, output=excerpt(err, exception_name(err)) or "\n".join(last[-6:])),
                              f"search; {PASSES_MARK}")
        proof = replace(proof, lowered=kernel_label(prover.package, found.before), passes=stop.mark(),
                        arguments=arguments_mark(found.before, after))
        return Proven(found.before, after, proof), "", runs + res.count
    return None, ("the search found a raising call, but none of its argument variants ran clean, and no call that "
                  "passes its check stopped on what this machine lacks"), runs + res.count


VIEWS_MARK = "a write through a view (view_forms.py)"


def confirm_views(prover: Prover, catalog: Catalog, site: ErrorSite, views: Sequence[tuple[str, str]],
                  scratch: Path) -> tuple[Proven | None, str, int]:
    """The first of a narrowed raise's (before, after) programs whose before raises this error and whose after
    runs clean; the proof says how it ran (the view form's label)."""
    runs = 0
    form = view_form(prover.package, site.path)
    why = "no view program raised this error"
    for before, after in views:
        res = prover.runs([before, after], scratch, "views")
        runs += res.count
        (rc, _, err), (rc2, out2, err2) = res[0], res[1]
        got, exc = prover.resolves_to(catalog, err, site.error_id) if rc != 0 else ("", "")
        if got != site.error_id:
            why = f"the view program's traceback resolves to {got or 'nothing'}"
            continue
        if rc2 != 0 or (err2.strip() and prover.resolves_to(catalog, err2, site.error_id)[0] == site.error_id):
            why = "the view program's after did not run clean"
            continue
        pb = ProofBefore(exception=exc, error_id=got, output=excerpt(err, exc))
        proof = prover._proof(pb, ProofAfter(exit=0, output="\n".join(out2.strip().splitlines()[-6:])), VIEWS_MARK)
        return Proven(before, after, replace(proof, lowered=form.label if form else "")), "", runs
    return None, why, runs


def search_all(prover: Prover, search_env: Environment, open_catalog: Callable[[], Catalog], error_ids: Sequence[str],
               jobs: int, budget_s: float = 10.0, seed: int = 0,
               progress: Callable[[Outcome], None] | None = None) -> tuple[list[Outcome], dict[str, int]]:
    """Search and prove ``error_ids`` (errors no test reached): one outcome each, and the calls the
    search made for each error."""
    cat = open_catalog()
    try:
        targets = targets_for(cat, prover.snapshot.key, error_ids, prover.package)
        sites = {s.error_id: s for s in cat.sites(prover.snapshot.key)}
        sws = option_switches(cat, prover.snapshot, [sites[t.error_id] for t in targets if t.error_id in sites])
    finally:
        cat.close()
    by_function: dict[tuple[str, str], list[ErrorSite]] = {}
    for s in sites.values():
        by_function.setdefault((s.path, s.qualname), []).append(s)
    batches = [targets[i:i + BATCH] for i in range(0, len(targets), BATCH)]
    examples: dict[str, int] = {}

    def one_batch(batch: list[SearchTarget]) -> list[Outcome]:
        outs: list[Outcome] = []
        c = open_catalog()
        try:
            with tempfile.TemporaryDirectory(prefix="errdex-search-") as tmp:
                scratch = Path(tmp)
                # a write through a view is proven from its programs, not searched (no argument reaches it)
                found = run_search(search_env, prover.package, [t for t in batch if not t.views], budget_s, seed,
                                   scratch, prover.run_vars())
                found.update({t.error_id: Found(t.error_id, "", (), 0, 0.0, ()) for t in batch if t.views})
                for t in batch:
                    site = sites[t.error_id]
                    f = found.get(t.error_id)
                    t0 = datetime.now(UTC)
                    if not t.entries:
                        why, proven, runs = "no public entry leads to this site", None, 0
                    elif f is None:
                        why, proven, runs = "the search did not finish", None, 0
                    elif t.views:
                        proven, why, runs = confirm_views(prover, c, site, t.views, scratch)
                    elif not f.before:
                        why = f"the search found no raising call in {f.examples} calls" + (
                            f" ({f.notes[0]})" if f.notes else "")
                        proven, runs = None, 0
                    else:
                        rivals = [o for o in by_function.get((site.path, site.qualname), []) if o.error_id != t.error_id]
                        proven, why, runs = confirm(prover, c, site, f, rivals, scratch, t.imported,
                                                    sws.get(t.error_id, ()))
                    secs = (f.seconds if f else 0.0) + (datetime.now(UTC) - t0).total_seconds()
                    out = Outcome(t.error_id, proven, why, runs, secs)
                    if f is not None:
                        examples[t.error_id] = f.examples
                    outs.append(out)
                    if progress is not None:
                        progress(out)
        finally:
            c.close()
        return outs

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as threads:
        done = [o for outs in threads.map(one_batch, batches) for o in outs]
    got = {o.error_id for o in done}
    for eid in error_ids:  # the ones with no searchable site say why
        if eid not in got and eid in sites:
            done.append(Outcome(eid, None, f"not searched: a {sites[eid].kind}", 0, 0.0))
    return done, examples
