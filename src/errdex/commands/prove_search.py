"""``errdex prove --search``: the argument search for errors no test reaches (presentation)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from errdex.catalog.base import Catalog
from errdex.commands.output import with_outcome_progress


def unreached(catalog: Catalog, snapshot_key: str, ids: Sequence[str]) -> list[str]:
    """Error ids of the snapshot's raises and asserts that no observation reached (``ids`` filter)."""
    from errdex.prove.search import searchable

    seen = catalog.observed_site_ids(snapshot_key)
    return [s.error_id for s in catalog.sites(snapshot_key) if searchable(s) and s.error_id not in seen
            and (not ids or any(s.error_id.startswith(x) for x in ids))]


def searchable_ids(catalog: Catalog, snapshot_key: str, error_ids: Sequence[str]) -> list[str]:
    """Those of ``error_ids`` (observed errors whose test candidates proved nothing) the search can try."""
    from errdex.prove.search import searchable

    wanted = set(error_ids)
    return [s.error_id for s in catalog.sites(snapshot_key) if s.error_id in wanted and searchable(s)]


def run_search_stage(prover: Any, open_cat: Callable[[], Catalog], targets: list[str], jobs: int,
                     budget: float, seed: int, quiet: bool, artifact: str | None = None,
                     python: str | None = None, with_requirements: tuple[str, ...] = ()
                     ) -> tuple[list[Any], dict[str, Any]]:
    """Search and prove ``targets``; the outcomes and the ``search`` part of the JSON document.  The search
    runs in its own environment: the proof's (the same artifact or version, the same ``--with``) plus
    Hypothesis."""
    from errdex.prove.search import HYPOTHESIS, search_all
    from errdex.sandbox import EnvSpec, ensure_environment

    spec = EnvSpec(name=prover.package, version=prover.snapshot.version or prover.snapshot.ref or "",
                   artifact=Path(artifact).resolve() if artifact else None, extra_requirements=(*with_requirements, HYPOTHESIS),
                   python=python)
    env = ensure_environment(spec)
    start = time.monotonic()
    outcomes, examples = with_outcome_progress(
        f"searching {prover.snapshot.repo}", len(targets), quiet,
        lambda progress: search_all(prover, env, open_cat, targets, jobs, budget, seed, progress=progress))
    wall = time.monotonic() - start
    proven = [o for o in outcomes if o.proven is not None]
    doc = {
        "unreached_sites": len(targets), "proven_pairs": len(proven),
        "share_pairs": round(len(proven) / len(targets), 4) if targets else 0.0,
        "proven_try": sum(1 for o in proven if o.proven and o.proven.try_proof is not None),
        "proven_validate": sum(1 for o in proven if o.proven and o.proven.validate_proof is not None),
        "budget_s": budget, "seed": seed, "wall_s": round(wall, 2),
        "seconds_per_proof": round(wall / len(proven), 2) if proven else None,
        "calls": sum(examples.values()),
        "errors": [{"error_id": o.error_id, "proven": o.proven is not None, "reason": o.reason,
                    "calls": examples.get(o.error_id, 0), "duration_s": round(o.duration_s, 3),
                    "before": o.proven.before if o.proven else ""} for o in outcomes],
    }
    return outcomes, doc
