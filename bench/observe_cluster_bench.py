"""Observe on a Dask cluster against observe here, the same command otherwise, in one run.

    ERRDEX_HOME=/tmp/errdex-bench python bench/observe_cluster_bench.py [SOURCE] [--workers N] [--rounds R]

SOURCE defaults to pypi:click==8.1.8 (its sdist's tests).  A first run builds
the environment (not measured: the cluster's workers share this machine's data
directory, so they reuse it, as a worker reuses its own on a real cluster).
Then each round runs, as a user runs them, ``errdex observe SOURCE --fresh
--jobs N`` (the baseline: N test files at a time here) and ``errdex observe
SOURCE --fresh --cluster local:N`` (a LocalCluster of N workers, started by
the command and counted in its time), each into a fresh catalog, in
alternating order.  Each round also starts and stops a LocalCluster of N
workers alone (what the command pays before its first task and after its
last).  Prints wall time, test files per minute, and the ratio of the
cluster's throughput to the baseline's, with and without that start-up; also
checks both saw the same sites and events.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def observe(source: str, db: Path, *extra: str) -> tuple[float, dict[str, Any]]:
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "errdex", "observe", source, "--db", str(db), "--json",
                        "--timeout", "900", *extra], capture_output=True, text=True, check=False)
    took = time.monotonic() - start
    if r.returncode != 0:
        raise SystemExit(f"errdex observe {' '.join(extra)} failed ({r.returncode}): {r.stderr[-2000:]}")
    return took, json.loads(r.stdout)


def cluster_start_stop(n: int) -> float:
    from errdex.cluster import open_mapper, parse_spec

    start = time.monotonic()
    with open_mapper(parse_spec(f"local:{n}")):
        pass
    return time.monotonic() - start


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("source", nargs="?", default="pypi:click==8.1.8")
    ap.add_argument("--workers", type=int, default=2, help="test files at once: --jobs N here, local:N on Dask")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    os.environ.pop("ERRDEX_STRICT", None)
    n = args.workers
    with tempfile.TemporaryDirectory(prefix="observe-cluster-bench-") as tmp:
        work = Path(tmp)
        took, doc = observe(args.source, work / "warm.sqlite", "--jobs", str(n))  # env build, index, sdist
        print(f"warm-up (environment, index, tests): {took:.1f}s, {doc['run']['files']} test files", flush=True)
        runs: dict[str, list[float]] = {"here": [], "cluster": []}
        seen: dict[str, tuple[int, int, int]] = {}
        startup: list[float] = []
        modes = [("here", ("--jobs", str(n))), ("cluster", ("--cluster", f"local:{n}"))]
        for rnd in range(args.rounds):
            startup.append(cluster_start_stop(n))
            print(f"round {rnd + 1} LocalCluster of {n} started and stopped alone: {startup[-1]:.1f}s", flush=True)
            for label, extra in modes if rnd % 2 == 0 else modes[::-1]:
                took, doc = observe(args.source, work / f"{label}-{rnd}.sqlite", "--fresh", *extra)
                files = doc["run"]["files"]
                failed = len(doc["run"]["failed_files"])
                runs[label].append(took)
                seen[label] = (doc["sites_observed"], doc["run"]["events"], doc["run"]["tests"])
                print(f"round {rnd + 1} {label:8s} {took:7.1f}s  {60 * files / took:6.1f} files/min  "
                      f"files={files} failed={failed} tests={doc['run']['tests']} events={doc['run']['events']} "
                      f"sites={doc['sites_observed']}", flush=True)
        here = sum(runs["here"]) / len(runs["here"])
        there = sum(runs["cluster"]) / len(runs["cluster"])
        up = sum(startup) / len(startup)
        print(f"cluster local:{n} / here --jobs {n}: {here / there:.2f}x the throughput "
              f"(mean wall {there:.1f}s vs {here:.1f}s over {args.rounds} round(s), {args.source}); "
              f"without the cluster's start and stop ({up:.1f}s): {here / max(0.1, there - up):.2f}x")
        print("same sites, events and tests:", "yes" if seen["here"] == seen["cluster"] else f"NO {seen}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
