"""Packages per hour: ``errdex index --from-list`` on a local Dask cluster against the local process pool.

    .venv/bin/python bench/cluster_bench.py [--list bench/data/cluster_bench_packages.txt] [--workers 2] [--rounds 1]

The packages (pinned ``pypi:NAME==VERSION``) are downloaded once into ``bench/out/wheels`` with one
``pip download`` (fetching is the network's cost, not errdex's), then each round indexes the same
wheels, as a subprocess, into a fresh catalog and a fresh ``ERRDEX_HOME`` (nothing cached):

1. baseline: ``errdex index --from-list L --jobs N`` (the process pool of this machine);
2. ``errdex index --from-list L --cluster local:N`` (a Dask LocalCluster of N single-threaded
   worker processes that errdex starts, the code path of any cluster).

It prints packages per hour of each, their ratio (cluster / pool), sites, and the catalog size
per 1,000 packages (the SQLite file after a checkpoint; ``--postgres``: also in a throw-away
PostgreSQL server).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def fetch(specs: list[str], dest: Path) -> list[Path]:
    """The wheels of ``specs`` (one pip call for all that are missing)."""
    dest.mkdir(parents=True, exist_ok=True)
    want = [s.removeprefix("pypi:") for s in specs]

    def found(req: str) -> Path | None:
        name, _, version = req.partition("==")
        norm = name.replace("-", "_").lower()
        for p in dest.glob("*.whl"):
            n, v = p.name.split("-")[:2]
            if n.lower() == norm and v == version:
                return p
        return None

    missing = [r for r in want if found(r) is None]
    if missing:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-q",
                        "-d", str(dest), *missing], check=True)
    return [p for r in want if (p := found(r)) is not None]


def run(mode: str, wheels: list[Path], workers: int, work: Path) -> dict[str, float]:
    home = Path(tempfile.mkdtemp(prefix=f"home-{mode}-", dir=work))
    db = home / "catalog.sqlite"
    listing = home / "list.txt"
    listing.write_text("\n".join(map(str, wheels)) + "\n")
    extra = ["--jobs", str(workers)] if mode == "pool" else ["--cluster", f"local:{workers}"]
    env = dict(os.environ, ERRDEX_HOME=str(home))
    env.pop("ERRDEX_DB", None)
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "errdex", "index", "--from-list", str(listing), "--db", str(db),
                          "--no-cache", "--json", *extra], env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t
    doc = json.loads(out.stdout)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return {"wall_s": wall, "indexed": len(doc["indexed"]), "failed": len(doc["failed"]), "sites": doc["sites"],
            "packages_per_hour": 3600 * len(doc["indexed"]) / wall, "write_s": doc["write_seconds"],
            "catalog_mb": db.stat().st_size / 2**20, "startup_s": doc["startup_seconds"],
            "steady_per_hour": 3600 * len(doc["indexed"]) / max(wall - doc["startup_seconds"], 1e-9)}


def postgres_size(wheels: list[Path], workers: int) -> str:
    """Index the wheels into a throw-away PostgreSQL server (``tests/catalog/pg_server.py``): its size."""
    sys.path.insert(0, str(HERE.parent / "tests" / "catalog"))
    import pg_server
    import psycopg

    work = Path(tempfile.mkdtemp(prefix="errdex-cluster-bench-pg-"))
    listing = work / "list.txt"
    listing.write_text("\n".join(map(str, wheels)) + "\n")
    with pg_server.server() as base:
        db = pg_server.fresh_database(base)
        with psycopg.connect(db) as conn:
            empty = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
        env = dict(os.environ, ERRDEX_HOME=str(work / "home"))
        out = subprocess.run([sys.executable, "-m", "errdex", "index", "--from-list", str(listing), "--db", db,
                              "--no-cache", "--json", "--jobs", str(workers)], env=env, capture_output=True,
                             text=True, check=False)
        n = len(json.loads(out.stdout)["indexed"])
        with psycopg.connect(db) as conn:
            size = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0] - empty
    return (f"PostgreSQL: {n} packages = {size / 2**20:.1f} MiB over an empty database = "
            f"{1000 * size / max(n, 1) / 2**30:.2f} GiB per 1,000 packages")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", default=str(HERE / "data" / "cluster_bench_packages.txt"))
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--wheels-dir", default=str(HERE / "out" / "wheels"))
    ap.add_argument("--postgres", action="store_true", help="also measure the catalog size in PostgreSQL")
    args = ap.parse_args()
    specs = [line.strip() for line in Path(args.list).read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    wheels = fetch(specs, Path(args.wheels_dir))
    print(f"{len(wheels)} wheels ({sum(w.stat().st_size for w in wheels) / 2**20:.1f} MiB), {args.workers} workers")
    work = Path(tempfile.mkdtemp(prefix="errdex-cluster-bench-"))
    ratios = []
    for r in range(args.rounds):
        pool = run("pool", wheels, args.workers, work)
        dask = run("dask", wheels, args.workers, work)
        ratio = dask["packages_per_hour"] / pool["packages_per_hour"]
        ratios.append(ratio)
        for name, res in (("pool", pool), ("dask local", dask)):
            print(f"round {r + 1} {name:>10}: {res['indexed']:.0f} indexed, {res['failed']:.0f} failed, "
                  f"{res['sites']:,.0f} sites in {res['wall_s']:.1f} s = {res['packages_per_hour']:,.0f} packages/hour "
                  f"({res['steady_per_hour']:,.0f} after a start-up of {res['startup_s']:.1f} s; "
                  f"writing {res['write_s']:.1f} s); catalog {res['catalog_mb']:.1f} MiB = "
                  f"{1000 * res['catalog_mb'] / max(res['indexed'], 1) / 1024:.2f} GiB per 1,000 packages")
        print(f"round {r + 1} ratio dask local / pool: {ratio:.2f}")
    print(f"median ratio dask local / pool: {sorted(ratios)[len(ratios) // 2]:.2f}")
    if args.postgres:
        print(postgres_size(wheels, args.workers))


if __name__ == "__main__":
    main()
