"""``errdex analyze`` and ``errdex verify``: write the pages of a snapshot's errors, and check their samples.

``analyze`` runs on the latest snapshot of each repo (or of ``--repo``), with
the static backend by default; ``--backend openai`` hands over to the
language-model backend (``errdex.analyze.llm``).  ``verify`` re-checks every
stored analysis's code samples and exits 1 when any fails.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from errdex.catalog import CatalogError, open_catalog
from errdex.catalog.base import Catalog
from errdex.commands.output import error
from errdex.model import Snapshot, to_json

if TYPE_CHECKING:
    from errdex.analyze.run import AnalysisStats




def _targets(catalog: Catalog, repo: str | None) -> list[Snapshot] | None:
    """The latest snapshot of each repo (or of ``repo``); None (after a message) when there is none."""
    repos = [repo] if repo else catalog.repos()
    out: list[Snapshot] = []
    for r in repos:
        snaps = catalog.snapshots(r)
        if snaps:
            out.append(snaps[0])
    if not out:
        known = ", ".join(catalog.repos()) or "none"
        error(f"no snapshot of {repo!r} in the catalog (repos: {known})" if repo
               else "the catalog is empty: run `errdex index SOURCE` first")
        return None
    return out


def _advance(bar: Progress, task: TaskID) -> Callable[[int], None]:
    def advance(n: int) -> None:
        bar.advance(task, n)

    return advance


def _set_total(bar: Progress, task: TaskID) -> Callable[[int], None]:
    def set_total(n: int) -> None:
        bar.update(task, total=n)

    return set_total


def _with_targets(db: str | None, repo: str | None, work: Callable[[Catalog, list[Snapshot]], int]) -> int:
    """Open the catalog, pick the snapshots, run ``work`` on them, close; 1 (after a message) on failure."""
    try:
        catalog = open_catalog(db)
    except CatalogError as exc:
        error(str(exc))
        return 1
    try:
        targets = _targets(catalog, repo)
        return 1 if targets is None else work(catalog, targets)
    finally:
        catalog.close()


def run_analyze(*, backend: str = "static", model: str | None = None, repo: str | None = None,
                dry_run: bool = False, db: str | None = None, json_out: bool = False,
                cluster: str | None = None, scheduler: str | None = None) -> int:
    if backend not in ("static", "openai"):
        error(f"--backend: unknown backend {backend!r} (use static or openai)")
        return 2
    if cluster is not None or scheduler is not None:
        if backend != "static":
            error("--cluster/--scheduler run the static backend (the openai backend is limited by its API)")
            return 2
        from errdex.cluster import parse_spec

        try:
            spec = parse_spec(cluster, scheduler)
        except ValueError as exc:
            error(str(exc))
            return 2
        return _with_targets(db, repo, lambda c, t: _run_static_cluster(c, t, spec, db, dry_run=dry_run,
                                                                          json_out=json_out))
    if backend == "openai":
        return _with_targets(db, repo, lambda c, t: _run_llm(c, t, model=model, dry_run=dry_run, json_out=json_out))
    return _with_targets(db, repo, lambda c, t: _run_static(c, t, dry_run=dry_run, json_out=json_out))


def _run_static(catalog: Catalog, targets: list[Snapshot], *, dry_run: bool, json_out: bool) -> int:
    from errdex.analyze.run import analyze_snapshot

    err = Console(stderr=True)
    summaries: list[dict[str, Any]] = []
    failed = 0
    for snap in targets:
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task(f"analysing {snap.key}", total=None)
            report = analyze_snapshot(catalog, snap, progress=_advance(bar, task), total=_set_total(bar, task))
        if not dry_run:
            from errdex.analyze.setupkept import keep_static_notes
            from errdex.prove.stored import keep_proofs

            catalog.put_analyses(keep_static_notes(report.analyses, keep_proofs(catalog, report.analyses)))
        failed += len(report.failures)
        summaries.append({
            "snapshot": snap.key, "analysed": len(report.analyses), "stored": 0 if dry_run else len(report.analyses),
            "failures": [to_json(f) for f in report.failures], "coverage": report.coverage,
            "strategies": report.strategies, "samples_withheld": report.withheld,
        })
    _print_static(summaries, dry_run=dry_run, json_out=json_out)
    return 1 if failed else 0


def _run_static_cluster(catalog: Catalog, targets: list[Snapshot], spec: Any, db: str | None, *,
                        dry_run: bool, json_out: bool) -> int:
    """The static backend as tasks of error groups on a pool or a Dask cluster (``analyze/groups.py``);
    the analyses come back here and are stored by this process."""
    from errdex import paths
    from errdex.analyze.groups import analyze_group, groups
    from errdex.cluster import ClusterError, open_mapper

    target = paths.default_db(db)
    if "://" not in target:
        target = str(Path(target).resolve())  # the workers open the same file
    per: dict[str, dict[str, Any]] = {
        s.key: {"snapshot": s.key, "analysed": 0, "stored": 0, "failures": [], "coverage": Counter(),
                "strategies": Counter(), "samples_withheld": 0} for s in targets}
    failed = 0
    try:
        with open_mapper(spec) as mapper:
            for out in mapper.map_unordered(analyze_group, list(groups(catalog, target, targets))):
                s = per[out.item.snapshot_key]
                if out.value is None:
                    failed += len(out.item.error_ids)
                    s["failures"].extend({"error_id": e, "reason": out.error or "the task failed"}
                                         for e in out.item.error_ids)
                    continue
                report = out.value
                if not dry_run:
                    catalog.put_analyses(report.analyses)
                    s["stored"] += len(report.analyses)
                failed += len(report.failures)
                s["analysed"] += len(report.analyses)
                s["failures"].extend(to_json(f) for f in report.failures)
                s["coverage"].update(report.coverage)
                s["strategies"].update(report.strategies)
                s["samples_withheld"] += report.withheld
    except ClusterError as exc:
        error(str(exc))
        return 1
    summaries = [{**s, "coverage": dict(s["coverage"]), "strategies": dict(s["strategies"])} for s in per.values()]
    _print_static(summaries, dry_run=dry_run, json_out=json_out)
    return 1 if failed else 0


def _print_static(summaries: list[dict[str, Any]], *, dry_run: bool, json_out: bool) -> None:
    if json_out:
        sys.stdout.write(json.dumps({"backend": "static", "snapshots": summaries}, indent=2) + "\n")
    else:
        for s in summaries:
            total = s["analysed"] or 1
            cov = ", ".join(f"{k} {v} ({100 * v / total:.0f}%)" for k, v in sorted(s["coverage"].items()))
            verb = "analysed (dry run, not stored)" if dry_run else "analysed and stored"
            print(f"{s['snapshot']}: {s['analysed']} errors {verb}; {len(s['failures'])} failed; "
                  f"{s['samples_withheld']} samples withheld by the verifier")
            print(f"  evidence: {cov or 'none'}")
            print("  strategies: " + ", ".join(f"{k} {v}" for k, v in sorted(s["strategies"].items())))
            for f in s["failures"][:10]:
                print(f"  failed {f['error_id']}: {f['reason']}")


def _run_llm(catalog: Catalog, targets: list[Snapshot], *, model: str | None, dry_run: bool,
             json_out: bool) -> int:
    from errdex.analyze.llm import LLMError, analyze_with_llm
    from errdex.analyze.llm.report import report_json, token_progress

    if not model:
        error("--backend openai needs --model M")
        return 2
    err = Console(stderr=True)
    code = 0
    reports: list[dict[str, Any]] = []
    for snap in targets:
        try:
            with token_progress(err, f"analysing {snap.key} with {model}") as progress:
                result = analyze_with_llm(catalog, snap.key, model=model, dry_run=dry_run, progress=progress)
        except LLMError as exc:
            error(f"--backend openai: {exc}")
            return 2
        if result.aborted:
            code = 1
        if json_out:
            reports.append({"snapshot": snap.key, **report_json(result)})
        else:
            print(f"{snap.key}: {result}")
    if json_out:
        sys.stdout.write(json.dumps({"backend": f"openai:{model}", "snapshots": reports}, indent=2) + "\n")
    return code


def run_verify(*, repo: str | None = None, db: str | None = None, json_out: bool = False) -> int:
    from errdex.analyze.run import verify_snapshot, withheld_by_reason

    def work(catalog: Catalog, targets: list[Snapshot]) -> int:
        rows: list[dict[str, Any]] = []
        totals: Counter[str] = Counter()
        withheld: Counter[str] = Counter()
        for snap in targets:
            withheld.update(withheld_by_reason(catalog, snap))
            n_a, n_s, failures = verify_snapshot(catalog, snap)
            totals["analyses"] += n_a
            totals["samples"] += n_s
            for f in failures:
                rows.append({"error_id": f.error_id, "snapshot": f.snapshot, "section": f.section,
                             "kind": f.problem.kind, "name": f.problem.name, "line": f.problem.line,
                             "message": f.problem.message})
        if json_out:
            sys.stdout.write(json.dumps({"analyses": totals["analyses"], "samples": totals["samples"],
                                         "failures": rows, "withheld": sum(withheld.values()),
                                         "withheld_by_reason": [{"reason": r, "count": n}
                                                                for r, n in withheld.most_common()]},
                                        indent=2) + "\n")
        else:
            for r in rows:
                print(f"{r['error_id']} {r['section']} line {r['line']}: {r['kind']} "
                      f"{r['name'] or ''}: {r['message']}")
            print(f"{totals['analyses']} analyses, {totals['samples']} code samples checked: "
                  f"{len(rows)} failure(s)")
            print(f"withheld from the pages by the verifier: {sum(withheld.values())}")
            for reason, n in withheld.most_common(20):
                print(f"  {n:>6}  {reason}")
            if totals["analyses"] == 0:
                print("no stored analyses: run `errdex analyze` first")
        return 1 if rows else 0

    return _with_targets(db, repo, work)


COVERAGE_LABELS = {
    "guard-words": "guard rendered in words", "config": "config option linked", "test": "test linked",
    "docstring": "function docstring used", "class-doc": "exception class docstring used",
    "comment": "comment next to the raise used", "public-name": "public name of the function used",
}


def run_analysis_stats(*, repo: str | None = None, db: str | None = None, json_out: bool = False) -> int:
    """How many errors have each kind of evidence (``errdex stats --analysis`` / ``analyze --stats``)."""
    from errdex.analyze.run import analysis_stats

    def work(catalog: Catalog, targets: list[Snapshot]) -> int:
        return _print_analysis_stats([analysis_stats(catalog, s) for s in targets], json_out)

    return _with_targets(db, repo, work)


def _print_analysis_stats(stats: list[AnalysisStats], json_out: bool) -> int:
    if json_out:
        sys.stdout.write(json.dumps({"snapshots": [to_json(s) for s in stats]}, indent=2) + "\n")
        return 0
    for st in stats:
        print(f"{st.snapshot}: {st.analysed}/{st.errors} errors analysed "
              f"({', '.join(f'{b} {n}' for b, n in sorted(st.backends.items())) or 'none'})")
        for key, label in COVERAGE_LABELS.items():
            n = st.coverage.get(key, 0)
            print(f"  {label:<34} {n:>6}/{st.analysed} ({100 * n / max(st.analysed, 1):.1f}%)")
        print(f"  samples withheld by the verifier   {st.withheld:>6}")
    return 0
