"""Time to analyse every error of a snapshot against the time to index it, measured in one run.

    .venv/bin/python bench/analyze_bench.py [SOURCE]      # default: pypi:jax==0.10.2

Indexes SOURCE into a temporary catalog (extract + store), then runs the
static analysis of every error (facts, pages, verification of every sample)
and stores the analyses; prints both times and their ratio.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    from errdex.analyze.run import analyze_snapshot
    from errdex.catalog import SqliteCatalog
    from errdex.extract import extract_tree
    from errdex.sources import open_source

    source = sys.argv[1] if len(sys.argv) > 1 else "pypi:jax==0.10.2"
    with tempfile.TemporaryDirectory() as tmp:
        cat = SqliteCatalog(Path(tmp) / "bench.sqlite")
        with open_source(source) as tree:
            t0 = time.perf_counter()
            result = extract_tree(tree)
            cat.replace_snapshot(tree.snapshot, result)
            t_index = time.perf_counter() - t0
            snap = tree.snapshot
        t0 = time.perf_counter()
        report = analyze_snapshot(cat, cat.snapshots(snap.repo)[0])
        cat.put_analyses(report.analyses)
        t_analyze = time.perf_counter() - t0
        cat.close()
    n = len(report.analyses)
    print(f"source: {source}")
    print(f"index (extract + store): {t_index:.2f}s for {len(result.sites)} sites, {result.files_read} files")
    print(f"analyse (facts + static pages + verification + store): {t_analyze:.2f}s for {n} errors "
          f"({1000 * t_analyze / max(n, 1):.2f} ms/error)")
    print(f"ratio analyse/index: {t_analyze / t_index:.2f}")


if __name__ == "__main__":
    main()
