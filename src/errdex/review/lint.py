"""``errdex lint``: run the rules of ``rules.py`` over one snapshot and report by code.

The snapshot is either the newest one of a repo in the catalog, or a source
extracted on the spot (``errdex lint .`` in a pre-commit hook: parsed, never
imported, not written to the catalog).  ``--select``/``--ignore`` take codes
or code prefixes (``EDX00``), as flake8 and ruff do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from errdex.model import ErrorSite, Snapshot
from errdex.review.rules import RULES, UNTESTED, Context, Finding, Observations, Rule
from errdex.review.snapshots import label


@dataclass(frozen=True, slots=True)
class Skipped:
    """A selected rule that could not run, and why."""

    code: str
    reason: str


@dataclass(frozen=True, slots=True)
class LintReport:
    """``errdex lint --json``: what ran over which snapshot, the findings, and the skipped rules."""

    repo: str
    snapshot: str  # Snapshot.key
    version: str
    path_prefix: str  # put before a finding's path to get the repo-relative one
    sites: int
    rules: tuple[str, ...]  # the codes that were selected
    counts: dict[str, int] = field(default_factory=dict)  # code -> findings, for every rule that ran
    findings: tuple[Finding, ...] = ()
    skipped: tuple[Skipped, ...] = ()


def choose(select: str | None = None, ignore: str | None = None) -> tuple[Rule, ...]:
    """The rules that ``--select`` (default: all) keeps and ``--ignore`` does not drop."""
    def tokens(value: str | None) -> list[str]:
        return [t.strip().upper() for t in (value or "").split(",") if t.strip()]

    def matching(token: str) -> list[Rule]:
        hits = [r for r in RULES if r.code.startswith(token) or r.name.upper() == token]
        if not hits:
            known = ", ".join(f"{r.code} ({r.name})" for r in RULES)
            raise ValueError(f"unknown rule {token!r}; the rules are {known}")
        return hits

    chosen = [r for t in tokens(select) for r in matching(t)] if tokens(select) else list(RULES)
    dropped = {r.code for t in tokens(ignore) for r in matching(t)}
    return tuple(r for r in RULES if r in chosen and r.code not in dropped)


def observed_ids(source: object | None, snapshot_key: str) -> tuple[frozenset[str] | None, str]:
    """The error ids the tests raised, from a catalog that observed the snapshot; else None and why not."""
    if source is None:
        return None, "a source linted outside the catalog has no observations: index it and run `errdex observe`"
    run = getattr(source, "observe_run", None)
    reached = getattr(source, "observed_site_ids", None)
    if run is None or reached is None:
        return None, "this catalog keeps no observations (errdex observe is not in this build)"
    if run(snapshot_key) is None:
        return None, f"no observations for {snapshot_key}: run `errdex observe` on it first"
    return frozenset(reached(snapshot_key)), ""


def lint_sites(snapshot: Snapshot, sites: Sequence[ErrorSite], rules: Iterable[Rule],
               observations: Observations | object | None = None) -> LintReport:
    """Run ``rules`` over ``sites`` of ``snapshot``; findings sorted by path, line and code.

    ``observations`` is the catalog (or anything with ``observed_site_ids``,
    ``rules.Observations``); a catalog without that method, or None for a
    source linted outside the catalog, skips EDX005 with the reason.
    """
    rules = tuple(rules)
    skipped: list[Skipped] = []
    observed: frozenset[str] | None = None
    if UNTESTED in rules:
        observed, why = observed_ids(observations, snapshot.key)
        if observed is None:
            skipped.append(Skipped(UNTESTED.code, why))
    ctx = Context(sites=sites, observed=observed,
                  url=lambda s: snapshot.source_url(s.path, s.line, s.end_line))
    findings = sorted((f for r in rules for f in r.check(ctx)), key=lambda f: (f.path, f.line, f.code))
    counts = Counter(f.code for f in findings)
    ran = [r for r in rules if r.code not in {k.code for k in skipped}]
    return LintReport(
        repo=snapshot.repo, snapshot=snapshot.key, version=label(snapshot), path_prefix=snapshot.path_prefix,
        sites=len(sites), rules=tuple(r.code for r in rules),
        counts={r.code: counts.get(r.code, 0) for r in ran}, findings=tuple(findings), skipped=tuple(skipped),
    )
