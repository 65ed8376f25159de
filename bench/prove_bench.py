"""Cost of proving: the same errors proven three ways in one run, on an observed catalog.

    ERRDEX_HOME=/work/home/prove python bench/prove_bench.py [--repo pallets/click] [--limit N] [--jobs N]

The catalog must hold the repo's snapshot with its observations (``errdex index`` + ``errdex observe``).
Each configuration proves the same error ids from scratch (nothing is stored):

1. fresh: one sandboxed interpreter per example, one error at a time (the baseline);
2. batch process: one sandboxed worker process per batch (a candidate's before and variants; its
   try / validate pairs), the library imported once per batch, a forked child per example;
3. persistent worker: one worker per job for the whole run (``pool.py``), the library imported once;
4. persistent workers with ``--jobs`` errors at once (what ``errdex prove`` does).

Prints, for each, wall time, sandboxed runs, proofs, seconds per proof and per run, and the ratios
against the baseline measured here.  The proofs found must be the same (the worker changes speed,
not results); a difference is printed.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time

from errdex.catalog import open_catalog
from errdex.commands.prove import _prover
from errdex.prove.engine import Outcome, Prover
from errdex.prove.parallel import prove_all


def _measure(prover: Prover, targets: list[str], jobs: int, persistent: bool) -> tuple[float, list[Outcome]]:
    start = time.monotonic()
    out = prove_all(prover, open_catalog, targets, jobs, persistent=persistent)
    return time.monotonic() - start, out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", default="pallets/click")
    ap.add_argument("--limit", type=int, default=0, help="prove only the first N observed sites (0: all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0)
    args = ap.parse_args()
    catalog = open_catalog()
    snaps = catalog.snapshots(args.repo)
    if not snaps:
        print(f"no snapshot of {args.repo}: run errdex index and observe first", file=sys.stderr)
        return 1
    snap = snaps[-1]
    targets = sorted(catalog.observed_site_ids(snap.key))
    if args.limit:
        targets = targets[:args.limit]
    base = _prover(catalog, None, snap, None, None, None, args.timeout)
    catalog.close()
    rows = []
    results: dict[str, set[str]] = {}
    for label, worker, persistent, jobs in (
            ("fresh process, 1 job", False, False, 1), ("batch process, 1 job", True, False, 1),
            ("persistent worker, 1 job", True, True, 1), (f"persistent worker, {args.jobs} jobs", True, True, args.jobs)):
        wall, outs = _measure(dataclasses.replace(base, worker=worker), targets, jobs, persistent)
        proven = [o for o in outs if o.proven]
        runs = sum(o.runs for o in outs)
        results[label] = {o.error_id for o in proven}
        rows.append((label, wall, runs, len(proven)))
        print(f"{label:<28} {wall:7.1f}s wall  {runs:4d} runs  {len(proven):3d}/{len(targets)} proven  "
              f"{wall / max(1, len(proven)):5.2f}s per proof  {wall / max(1, runs):5.3f}s per run", flush=True)
    base_wall, base_runs = rows[0][1], rows[0][2]
    for label, wall, runs, _ in rows[1:]:
        print(f"{label}: {base_wall / wall:.2f}x faster wall than fresh processes; per run "
              f"{(base_wall / max(1, base_runs)) / (wall / max(1, runs)):.2f}x")
    first = results[rows[0][0]]
    for label, ids in results.items():
        if ids != first:
            print(f"note: {label} proved a different set ({len(ids ^ first)} ids differ)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
