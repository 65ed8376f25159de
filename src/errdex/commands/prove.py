"""``errdex prove`` and ``errdex verify --execute``: the presentation of the prove stage."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from errdex.catalog.base import Catalog
from errdex.commands.output import error, open_or_report, print_json, stdout, with_outcome_progress
from errdex.model import Analysis, CodeSample, ErrorSite, Snapshot


def _snapshot(catalog: Catalog, repo: str | None) -> Snapshot | None:
    snaps = catalog.snapshots(repo)
    repos = {s.repo for s in snaps}
    if not snaps:
        error(f"no snapshot of {repo}" if repo else "the catalog is empty: run errdex index and observe first")
        return None
    if len(repos) > 1:
        error(f"several repos in the catalog ({', '.join(sorted(repos))}): pass --repo")
        return None
    return snaps[-1]


def _prover(catalog: Catalog, db: str | None, snap: Snapshot, package: str | None, artifact: str | None,
            python: str | None, timeout: float, with_requirements: list[str] | None = None) -> Any:
    from errdex.observe.pipeline import workspace_for
    from errdex.prove.engine import Prover
    from errdex.sandbox import EnvSpec, ensure_environment

    name = package or snap.repo.rsplit("/", 1)[-1]
    project = workspace_for(snap) / "project"
    env = ensure_environment(EnvSpec(name=name, version=snap.version or snap.ref or "",
                                     extra_requirements=tuple(with_requirements or ()),
                                     artifact=Path(artifact).resolve() if artifact else None, python=python))
    return Prover(catalog_path=db or "", snapshot=snap, env=env, package=name, timeout_s=timeout,
                  project=project if project.is_dir() else None)


def parse_env(items: list[str]) -> tuple[tuple[str, str], ...] | None:
    """``NAME=VALUE`` pairs (``--env``, or a stored proof's ``env``); None (reported) when one is not."""
    out: list[tuple[str, str]] = []
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name or not name.replace("_", "a").isalnum():
            error(f"--env takes NAME=VALUE, got {item!r}")
            return None
        out.append((name, value))
    return tuple(out)


def run_prove(*, repo: str | None, ids: list[str], jobs: int, db: str | None, json_out: bool, package: str | None,
              artifact: str | None, python: str | None, timeout: float, worker: bool = True,
              search: bool = False, budget: float = 10.0, seed: int = 0,
              env: list[str] | None = None, with_requirements: list[str] | None = None) -> int:
    from errdex.catalog import open_catalog
    from errdex.prove.engine import Outcome
    from errdex.sandbox import EnvError, PythonNotFound

    extra = parse_env(env or [])
    if extra is None:
        return 2
    catalog = open_or_report(db)
    if catalog is None:
        return 1
    try:
        snap = _snapshot(catalog, repo)
        if snap is None:
            return 1
        observed = sorted(catalog.observed_site_ids(snap.key))
        targets = [i for i in observed if not ids or i in ids or any(i.startswith(x) for x in ids)]
        if not observed and not search:
            error(f"{snap.key} has no observations: run errdex observe first (prove starts from observed calls)")
            return 1
        try:
            prover = dataclasses.replace(_prover(catalog, db, snap, package, artifact, python, timeout,
                                                 with_requirements), worker=worker,
                                         extra_env=extra)
        except (EnvError, PythonNotFound) as exc:
            error(str(exc))
            return 1
        start = time.monotonic()
        outcomes = _with_progress(prover, lambda: open_catalog(db), targets, jobs, quiet=json_out)
        wall = time.monotonic() - start
        searched: dict[str, Any] | None = None
        stored = list(outcomes)
        if search:  # errors no test reached, and observed ones whose test proved nothing: arguments searched
            from errdex.commands.prove_search import run_search_stage, searchable_ids, unreached

            fallback = searchable_ids(catalog, snap.key, [o.error_id for o in outcomes if o.proven is None])
            gone = unreached(catalog, snap.key, ids)
            found, searched = run_search_stage(prover, lambda: open_catalog(db), gone + fallback,
                                               jobs, budget, seed, quiet=json_out, artifact=artifact, python=python,
                                               with_requirements=tuple(with_requirements or ()))
            by_search = {o.error_id for o in found if o.proven is not None}
            stored = [o for o in outcomes if o.error_id not in by_search] + found
            searched["searched_sites"], searched["unreached_sites"] = len(gone) + len(fallback), len(gone)
            searched["unreached_proven"] = sum(1 for i in gone if i in by_search)
            searched["observed_fallback"] = len(fallback)
            searched["observed_proven"] = sum(1 for i in fallback if i in by_search)
        _store(catalog, snap, stored, lambda site, a: _recheck_stored(prover, catalog, site, a))
    finally:
        catalog.close()
    proven = [o for o in outcomes if o.proven]
    tried = [o for o in proven if o.proven and o.proven.try_proof]
    validated = [o for o in proven if o.proven and o.proven.validate_proof]
    doc = {
        "snapshot": snap.key, "observed_sites": len(observed), "attempted": len(outcomes),
        "proven_pairs": len(proven), "proven_try": len(tried), "proven_validate": len(validated),
        "share_validate": round(len(validated) / len(observed), 4) if observed else 0.0,
        "share_try": round(len(tried) / len(observed), 4) if observed else 0.0,
        "share_pairs": round(len(proven) / len(observed), 4) if observed else 0.0,
        "wall_s": round(wall, 2), "runs": sum(o.runs for o in outcomes), "worker": worker,
        "seconds_per_error": round(sum(o.duration_s for o in outcomes) / max(1, len(outcomes)), 3),
        "errors": [{"error_id": o.error_id, "proven": o.proven is not None, "reason": o.reason,
                    "runs": o.runs, "duration_s": round(o.duration_s, 3),
                    "candidate": o.proven.proof.candidate if o.proven else ""} for o in outcomes],
    }
    if searched is not None:
        doc["search"] = searched
        either = len(proven) + searched["observed_proven"]
        doc["proven_pairs_with_search"] = either
        doc["share_pairs_with_search"] = round(either / len(observed), 4) if observed else 0.0
    if json_out:
        print_json(doc)
        return 0
    out = stdout()
    out.print(f"[bold]{snap.key}[/bold]: {len(proven)} of {len(observed)} observed sites have a proven "
              f"before/after pair ({doc['share_pairs']:.0%}), {len(tried)} a proven try sample, "
              f"{len(validated)} a proven validate sample; "
              f"{doc['runs']} sandboxed runs in {wall:.1f}s")
    if searched is not None:
        out.print(f"search: {searched['unreached_proven']} of {searched['unreached_sites']} sites no test reaches "
                  f"proven in {searched['wall_s']:.1f}s, {searched['calls']} calls; "
                  f"{searched['observed_proven']} of the {searched['observed_fallback']} observed sites whose test "
                  f"proved nothing: {doc['proven_pairs_with_search']} of {len(observed)} observed sites proven "
                  f"({doc['share_pairs_with_search']:.0%})")
    for o in outcomes:
        if o.proven is None:
            out.print(f"  not proven {o.error_id}: {o.reason}", markup=False)
    _ = Outcome
    return 0


def _with_progress(prover: Any, open_cat: Any, targets: list[str], jobs: int, quiet: bool) -> list[Any]:
    from errdex.prove.parallel import prove_all

    return with_outcome_progress(f"proving {prover.snapshot.repo}", len(targets), quiet,
                                 lambda progress: list(prove_all(prover, open_cat, targets, jobs, progress=progress)))


def _store(catalog: Catalog, snap: Snapshot, outcomes: list[Any],
           recheck: Callable[[ErrorSite, Analysis], str] | None = None) -> None:
    """Each proven pair into the error's analysis (made when analyze has not run); an error whose proof no
    longer holds loses it (its sample stays, marked not proven).  A run that finds no pair is no evidence that
    the stored one fails (the search's calls depend on its budget and the machine's load: 5739's proof was
    lost so between ratings 7 and 8), so a stored proof is re-run first (``recheck``: why it no longer holds,
    "" when it does) and kept when it still holds."""
    updated: list[Analysis] = []
    sites = {s.error_id: s for s in catalog.sites(snap.key)} if recheck is not None else {}
    for o in outcomes:
        a = catalog.get_analysis(o.error_id, snap.key)
        if o.proven is None:
            if a is not None and a.example_fix.proof is not None and o.error_id in sites and recheck is not None \
                    and not recheck(sites[o.error_id], a):
                continue  # the stored proof still holds: kept as it is
            if a is not None and (a.example_fix.proof is not None or a.try_proof is not None
                                  or a.validate_proof is not None):
                updated.append(dataclasses.replace(a, example_fix=dataclasses.replace(a.example_fix, proof=None),
                                                   try_proof=None, validate_proof=None))
            continue
        p = o.proven
        base = a or Analysis(error_id=o.error_id, snapshot=snap.key, meaning="", backend="prove")
        updated.append(dataclasses.replace(
            base, example_fix=CodeSample(before=p.before, after=p.after, proof=p.proof),
            try_sample=p.try_sample or base.try_sample, try_proof=p.try_proof,
            validate_sample=p.validate_sample or base.validate_sample, validate_proof=p.validate_proof,
        ))
    if updated:
        catalog.put_analyses(updated)


def _recheck_stored(prover: Any, catalog: Catalog, site: ErrorSite, a: Analysis) -> str:
    """Why the stored proof of ``a`` no longer holds ("" when it does), re-run as ``verify --execute`` does."""
    import tempfile

    from errdex.prove.engine import CAUGHT_MARK
    from errdex.prove.fixes import CAUGHT_LABEL
    from errdex.prove.passes import machine_stop

    proof = a.example_fix.proof
    if proof is None:
        return "no stored proof"
    extra = parse_env(list(proof.env)) or ()
    # a site proven raised under another error is re-run with its origins recorded again
    watch = (site.path, site.line, site.end_line) if CAUGHT_MARK in proof.candidate else None
    with tempfile.TemporaryDirectory(prefix="errdex-verify-") as tmp:
        why: str = dataclasses.replace(prover, extra_env=extra, watch=watch).recheck(
            catalog, site.error_id, a.example_fix.before, a.example_fix.after, Path(tmp),
            a.try_sample if a.try_proof is not None else "",
            a.validate_sample if a.validate_proof is not None else "", CAUGHT_LABEL in proof.candidate,
            (lambda err: machine_stop(prover.package, site, err) is not None) if proof.passes else None)
    return why


def run_verify_execute(*, repo: str | None, db: str | None, json_out: bool, package: str | None,
                       artifact: str | None, python: str | None, timeout: float,
                       with_requirements: list[str] | None = None, ids: list[str] | None = None) -> int:
    """Re-run every stored proof (before must still resolve to its error, after exit 0); exit 1 if any fails.
    ``ids``: only these error ids or id prefixes (the proofs a later run added)."""
    from errdex.sandbox import EnvError, PythonNotFound

    catalog = open_or_report(db)
    if catalog is None:
        return 1
    failures: list[dict[str, str]] = []
    checked = 0
    try:
        snap = _snapshot(catalog, repo)
        if snap is None:
            return 1
        try:
            prover = _prover(catalog, db, snap, package, artifact, python, timeout, with_requirements)
        except (EnvError, PythonNotFound) as exc:
            error(str(exc))
            return 1
        for site in catalog.sites(snap.key):
            if ids and not any(site.error_id.startswith(x) for x in ids):
                continue
            a = catalog.get_analysis(site.error_id, snap.key)
            if a is None or a.example_fix.proof is None:
                continue
            checked += 1
            why = _recheck_stored(prover, catalog, site, a)
            if why:
                failures.append({"error_id": site.error_id, "reason": why})
    finally:
        catalog.close()
    if json_out:
        print_json({"snapshot": snap.key, "proofs": checked, "failed": failures})
    else:
        out = stdout()
        out.print(f"{checked} stored proofs re-run, {len(failures)} no longer hold")
        for f in failures:
            out.print(f"  {f['error_id']}: {f['reason']}", markup=False)
    return 1 if failures else 0
