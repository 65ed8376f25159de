"""Analyse a snapshot with the static backend, and verify stored analyses.

``analyze_snapshot`` gathers facts for every site of one snapshot (loading the
snapshot's tables once), writes the static page for each and returns them
with a tally; one error whose analysis fails is recorded and skipped, never
the end of the run.  ``verify_analyses`` re-checks the published samples of
every stored analysis against the symbol table of its snapshot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from errdex.analyze.context import load_context
from errdex.analyze.deprecated import deprecated_names, with_deprecations
from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_static, today
from errdex.analyze.verify import SampleProblem, check_sample
from errdex.catalog.base import Catalog
from errdex.model import Analysis, Snapshot

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class AnalyzeFailure:
    error_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class AnalyzeReport:
    snapshot: str
    analyses: tuple[Analysis, ...]
    failures: tuple[AnalyzeFailure, ...] = ()
    coverage: dict[str, int] = field(default_factory=dict)  # evidence kind -> errors using it
    strategies: dict[str, int] = field(default_factory=dict)
    withheld: int = 0  # samples that failed verification and were replaced or dropped


def analyze_snapshot(catalog: Catalog, snapshot: Snapshot, *, progress: Progress | None = None,
                     total: Callable[[int], None] | None = None,
                     only: frozenset[str] | None = None) -> AnalyzeReport:
    """Analyse every error of ``snapshot`` (or the ids in ``only``: one group of a cluster run,
    ``analyze/groups.py``)."""
    ctx = load_context(catalog, snapshot)
    symbols = ctx.all_symbols
    date = today()
    if total is not None:
        total(len(ctx.sites))
    out: list[Analysis] = []
    failures: list[AnalyzeFailure] = []
    cov: Counter[str] = Counter()
    strat: Counter[str] = Counter()
    withheld = 0
    seen: set[str] = set()
    deprecated = deprecated_names(ctx.sites, ctx.calls)
    for site in ctx.sites:
        if progress is not None:
            progress(1)
        if not site.error_id or site.error_id in seen or (only is not None and site.error_id not in only):
            continue
        seen.add(site.error_id)
        try:
            facts = gather_facts(catalog, snapshot, site, context=ctx)
            a = with_deprecations(analyze_static(facts, symbols, date=date), deprecated, facts.public_path.entries)
        except (RecursionError, MemoryError) as e:
            failures.append(AnalyzeFailure(site.error_id, f"{type(e).__name__} at {site.path}:{site.line}"))
            continue
        except Exception as e:  # one error's bug must not stop the snapshot
            failures.append(AnalyzeFailure(site.error_id, f"{type(e).__name__}: {e} at {site.path}:{site.line}"))
            continue
        out.append(a)
        cov.update(a.coverage)
        strat[a.strategy] += 1
        withheld += len(a.withheld)
    return AnalyzeReport(snapshot=snapshot.key, analyses=tuple(out), failures=tuple(failures),
                         coverage=dict(cov), strategies=dict(strat), withheld=withheld)


@dataclass(frozen=True, slots=True)
class VerifyFailure:
    error_id: str
    snapshot: str
    section: str  # "example_fix.before", "validate_sample", "try_sample", ...
    problem: SampleProblem


def samples_of(a: Analysis) -> list[tuple[str, str]]:
    return [("example_fix.before", a.example_fix.before), ("example_fix.after", a.example_fix.after),
            ("validate_sample", a.validate_sample), ("try_sample", a.try_sample),
            ("check_sample", a.check_sample)]


def verify_snapshot(catalog: Catalog, snapshot: Snapshot) -> tuple[int, int, list[VerifyFailure]]:
    """(analyses checked, samples checked, failures) for one snapshot's stored analyses."""
    ctx = load_context(catalog, snapshot)
    symbols = ctx.all_symbols
    failures: list[VerifyFailure] = []
    n_analyses = n_samples = 0
    seen: set[str] = set()
    for site in ctx.sites:
        if not site.error_id or site.error_id in seen:
            continue
        seen.add(site.error_id)
        a = catalog.get_analysis(site.error_id, snapshot.key)
        if a is None:
            continue
        n_analyses += 1
        for section, code in samples_of(a):
            if not code.strip():
                continue
            n_samples += 1
            failures.extend(VerifyFailure(a.error_id, snapshot.key, section, p) for p in check_sample(code, symbols))
    return n_analyses, n_samples, failures


def withheld_by_reason(catalog: Catalog, snapshot: Snapshot) -> Counter[str]:
    """What the verifier kept off the stored pages, counted by reason ("no module `pytest`",
    "`pkg` has no attribute `X`"): one count per rejected sample and problem."""
    out: Counter[str] = Counter()
    seen: set[str] = set()
    for site in catalog.sites(snapshot.key):
        if not site.error_id or site.error_id in seen:
            continue
        seen.add(site.error_id)
        a = catalog.get_analysis(site.error_id, snapshot.key)
        for w in a.withheld if a is not None else ():
            _, _, problems = w.partition(" sample dropped: ")
            for p in (problems or w).split("; "):
                out[p.strip()] += 1
    return out


@dataclass(frozen=True, slots=True)
class AnalysisStats:
    """How many stored analyses of a snapshot rest on each kind of grounded fact."""

    snapshot: str
    errors: int
    analysed: int
    coverage: dict[str, int] = field(default_factory=dict)  # guard-words, config, test, docstring, ...
    strategies: dict[str, int] = field(default_factory=dict)
    backends: dict[str, int] = field(default_factory=dict)
    withheld: int = 0


def analysis_stats(catalog: Catalog, snapshot: Snapshot) -> AnalysisStats:
    cov: Counter[str] = Counter()
    strat: Counter[str] = Counter()
    backends: Counter[str] = Counter()
    ids = {s.error_id for s in catalog.sites(snapshot.key) if s.error_id}
    analysed = withheld = 0
    for eid in sorted(ids):
        a = catalog.get_analysis(eid, snapshot.key)
        if a is None:
            continue
        analysed += 1
        cov.update(a.coverage)
        strat[a.strategy] += 1
        backends[a.backend] += 1
        withheld += len(a.withheld)
    return AnalysisStats(snapshot=snapshot.key, errors=len(ids), analysed=analysed, coverage=dict(cov),
                         strategies=dict(strat), backends=dict(backends), withheld=withheld)
