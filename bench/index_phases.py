"""Where ``errdex index`` of a wheel spends its CPU, phase by phase, against the one-core ``ast.parse``.

Everything runs in this one process on one core (no pool), each phase timed with
``time.process_time`` around exactly the code ``errdex index`` runs for it, in rounds
alternating with the baseline (``index_bench.baseline``: ``ast.parse`` of every file's bytes,
the cyclic GC on as in that bench), so that load from other processes hits both alike:

- per file (phase 1, what the pool's workers do): read the member from the wheel, decode,
  ``ast.parse`` (cyclic GC off, as the workers run), facts (config options, test
  expectations), the walker (sites and the module summary), the call graph's edges, line
  digests, the result cache's key, pickling the result (what crosses to the parent);
- in the parent: unpickling, phase 2 (``finish_phase2``: resolution across modules, the
  caught templates, ids), the catalog write (``replace_snapshot`` into a fresh SQLite file).

Printed: each phase's median CPU as a fraction of the baseline's, and the sum. The process's
start-up and the pool's overheads are not here: ``index_bench.py`` times the whole command.

Usage: ``.venv/bin/python bench/index_phases.py [--lib jax|sympy] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import pickle
import statistics
import sys
import tempfile
import time
import warnings
from collections import defaultdict
from pathlib import Path

from errdex.extract import facts
from errdex.extract.cache import ResultCache
from errdex.extract.calls import call_edges
from errdex.extract.decoding import decode
from errdex.extract.runner import finish_phase2
from errdex.extract.worker import Item, _digests, _walk, no_cyclic_gc, read
from errdex.sources import open_source
from index_bench import LIBS, baseline, fetch_wheel, wheel_sources


def _phase1(items: list[Item], max_bytes: int, cache: ResultCache, t: dict[str, float]) -> list[object]:
    """Phase 1 of every file, as ``worker.process_chunk_lookup`` runs it, timed piece by piece."""
    clock = time.process_time
    out = []
    with no_cyclic_gc():
        for item in items:
            a = clock()
            data = read(item, max_bytes)
            b = clock()
            t["read"] += b - a
            assert isinstance(data, bytes)
            key = cache.key(item.path, data, item.is_test, max_bytes)
            c = clock()
            t["cache key"] += c - b
            text = decode(data, item.path)
            d = clock()
            t["decode"] += d - c
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(data, filename=item.path)
            e = clock()
            t["parse"] += e - d
            result = _walk(tree, text, item.path, item.is_test)  # facts, walker (sites, summary), call edges
            f = clock()
            facts.collect_facts(tree, item.path, text, item.is_test)  # again, to split _walk's time
            g = clock()
            if result.summary is not None:
                call_edges(tree, result.summary.module, item.path)
            h = clock()
            t["facts"] += g - f
            t["call edges"] += h - g
            t["walker (sites, module summary)"] += (f - e) - (h - f)
            h = clock()
            digests = _digests(data, item.path)
            i = clock()
            t["line digests"] += i - h
            result = dataclasses.replace(result, digests=digests)
            blob = pickle.dumps(result, pickle.HIGHEST_PROTOCOL)
            j = clock()
            t["pickle result"] += j - i
            out.append((blob, key))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", choices=sorted(LIBS), default="jax")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    wheel = fetch_wheel(LIBS[args.lib])
    sources = wheel_sources(wheel)
    rows: dict[str, list[float]] = defaultdict(list)
    bases: list[float] = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as home, open_source(str(wheel)) as tree:
            cache = ResultCache.open(Path(home) / "cache")
            items = [Item.of(f) for f in tree.files]
            bases.append(baseline(sources)[1])
            t: dict[str, float] = defaultdict(float)
            blobs = _phase1(items, 10_000_000, cache, t)
            clock = time.process_time
            with no_cyclic_gc():
                a = clock()
                cache.put_many([(k, b) for b, k in blobs if k is not None])
                b = clock()
                results = [pickle.loads(blob) for blob, _ in blobs]
                c = clock()
                digests = {r.path: r.digests for r in results if r.digests is not None}
                result = finish_phase2(results, tree.snapshot.repo, skipped=tree.skipped, line_digests=digests)
                d = clock()
                from errdex.catalog import open_catalog

                catalog = open_catalog(str(Path(home) / "catalog.sqlite"))
                e = clock()
                catalog.replace_snapshot(tree.snapshot, result)
                f = clock()
                catalog.close()
            t["parent: cache writes"] += b - a
            t["parent: unpickle"] += c - b
            t["parent: phase 2"] += d - c
            t["parent: catalog write"] += f - e
            bases.append(baseline(sources)[1])
            base = (bases[-1] + bases[-2]) / 2
            for k, v in t.items():
                rows[k].append(v / base)
            rows["total"].append(sum(t.values()) / base)
    print(f"{wheel.name}: {len(sources)} files; baseline ast.parse CPU median {statistics.median(bases):.2f} s "
          f"({args.repeat} rounds, one core)")
    print(f"{'phase':42s} {'CPU / baseline (median)':>24s}  min-max")
    for k, v in rows.items():
        print(f"{k:42s} {statistics.median(v):24.3f}  {min(v):.3f}-{max(v):.3f}")


if __name__ == "__main__":
    sys.exit(main())
