"""Proving many errors at once (split from ``engine.py``, which proves one).

What every error's proof shares is read from the catalog once: the argument reprs the library's tests passed
to each public entry (other values for an after), the on/off options each site's guards read
(``configcand.py``), the module symbols (``reshape.py``) and the calls each site's function makes
(``rebuilt.py``).  Then one thread per job proves one error each with its own catalog connection, its rivals
(the other errors the same call can raise) and, for a site only ever seen caught inside the library, the watch
on it (``engine.Prover.watch``); the persistent batch workers (``pool.py``) are started and closed here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from errdex.catalog.base import Catalog
from errdex.model import ErrorSite, Observation
from errdex.observe.evidence import raised_instead
from errdex.prove.configcand import option_switches
from errdex.prove.engine import MAX_CANDIDATES, MAX_WRAPPED, Outcome, Prover
from errdex.prove.harness import runner_first
from errdex.prove.pool import WorkerPool
from errdex.prove.rebuilt import function_key, resolved_calls
from errdex.prove.reshape import defined_first


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

