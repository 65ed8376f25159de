"""Benchmark: ``explain`` lookups on a catalog of 100,000+ real templates against a regex baseline.

Both are measured in the same run on the same machine:

- errdex: ``explain_parsed`` (parse + candidate retrieval + verification +
  ranking) with the match index loaded once;
- baseline: every template compiled in advance as a regular expression
  (literals escaped, ``.*?`` for each placeholder) and tried in turn with
  ``search`` on the message, keeping the match with the most literal text —
  what a matcher without a candidate index does.

Queries are messages rendered from randomly chosen templates of the catalog
(placeholders filled with typical values), prefixed with the exception type.
The same run also measures latency on a 10,000-template sample of the same
catalog (growth from 10k to 100k must be well under 10x) and three hostile
1 MB inputs (target under 100 ms each).

Usage (the first run indexes the wheels; later runs reuse the catalog)::

    .venv/bin/python bench/match_bench.py --db /tmp/bench.sqlite \\
        --wheels /work/cache/wheels/*.whl [--queries 2000] [--baseline-queries 20]
"""

from __future__ import annotations

import argparse
import gc
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from errdex.catalog import open_catalog
from errdex.match import explain_parsed, parse
from errdex.match.index import T_LITCHARS, T_SEGS, T_SITE, MatchIndex, build, catalog_entries
from errdex.model import ErrorSite, Snapshot

VALUES = ["3", "(2, 3)", "float32", "my_fn", "'abc'", "<function f at 0x7f3a2c1d>", "None", "[1, 2, 3]", "x"]


def index_wheels(db: str, wheels: list[str]) -> None:
    for wheel in wheels:
        print(f"indexing {Path(wheel).name} ...", flush=True)
        subprocess.run([sys.executable, "-m", "errdex", "index", wheel, "--db", db], check=True,
                       stdout=subprocess.DEVNULL)


def queries_for(idx: MatchIndex, n: int, rng: random.Random) -> list[tuple[str, int]]:
    """(text, template number) for ``n`` templates with at least 8 characters of literal text."""
    pool = [t for t in range(idx.size) if idx.templates[t][T_LITCHARS] >= 8]
    out = []
    for t in rng.sample(pool, min(n, len(pool))):
        segs = idx.templates[t][T_SEGS]
        msg = "".join(text if lit else rng.choice(VALUES) for lit, text in segs)
        exc = idx.sites[idx.templates[t][T_SITE]][3]
        out.append((f"{exc}: {msg}", t))
    return out


def shape(idx: MatchIndex, t: int) -> tuple[str, ...]:
    return tuple(text for lit, text in idx.templates[t][T_SEGS] if lit)


def time_errdex(idx: MatchIndex, queries: list[tuple[str, int]]) -> tuple[list[float], float]:
    """Per-lookup seconds and top-1 rate (same literal text as the query's template)."""
    times = []
    good = 0
    by_id = {idx.sites[s][0]: s for s in range(len(idx.sites))}
    gc.collect()
    for text, t in queries:
        t0 = time.perf_counter()
        result = explain_parsed(idx, parse(text), top=3)
        times.append(time.perf_counter() - t0)
        if result.matches:
            site = by_id[result.matches[0].id]
            good += any(shape(idx, u) == shape(idx, t) for u in idx.site_templates[site])
    return times, good / max(len(queries), 1)


def compile_baseline(idx: MatchIndex) -> list[tuple[re.Pattern[str], int, int]]:
    out = []
    for t in range(idx.size):
        segs = idx.templates[t][T_SEGS]
        pattern = "".join(re.escape(text) if lit else "(.*?)" for lit, text in segs)
        try:
            out.append((re.compile(pattern, re.DOTALL), idx.templates[t][T_LITCHARS], t))
        except re.error:  # too many groups: fall back to a literal-only pattern
            out.append((re.compile(".*?".join(re.escape(x) for lit, x in segs if lit), re.DOTALL),
                        idx.templates[t][T_LITCHARS], t))
    return out


def time_baseline(rx: list[tuple[re.Pattern[str], int, int]], queries: list[tuple[str, int]]) -> list[float]:
    times = []
    for text, _ in queries:
        t0 = time.perf_counter()
        best = (-1, -1)
        msg = text.split(": ", 1)[1]
        for pattern, litchars, t in rx:
            if litchars > best[0] and pattern.search(msg) is not None:
                best = (litchars, t)
        times.append(time.perf_counter() - t0)
    return times


def sample_index(entries: list[tuple[Snapshot, ErrorSite]], templates: int, rng: random.Random) -> MatchIndex:
    """An index of a random subset of the sites holding about ``templates`` templates."""
    chosen = rng.sample(entries, min(len(entries), templates))
    return build(chosen)


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def hostile_inputs(idx: MatchIndex, rng: random.Random) -> dict[str, str]:
    mb = 1 << 20
    words = [text for t in range(0, idx.size, 97) for lit, text in idx.templates[t][T_SEGS] if lit]
    common = " ".join(words)
    text, _ = queries_for(idx, 1, rng)[0]
    head, _, tail = text.partition(" ")
    return {
        "1 MB of one character": "ValueError: " + "a" * mb,
        "1 MB of catalog words": "ValueError: " + (common * (mb // max(len(common), 1) + 1))[:mb],
        "a real message with a 1 MB value": head + " " + "[" + "0.0, " * (mb // 5) + "] " + tail,
        "1 MB traceback-shaped junk": ('  File "/x/site-packages/jax/_src/core.py", line 12, in f\n    x\n' * (mb // 60))
        + "TypeError: boom",
        "500k short lines": "x\n" * (mb // 2) + "ValueError: " + tail,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--wheels", nargs="*", default=[])
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--baseline-queries", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.wheels:
        index_wheels(args.db, args.wheels)
    catalog = open_catalog(args.db)
    entries = list(catalog_entries(catalog))
    repos = sorted({s.repo for s, _ in entries})
    catalog.close()
    t0 = time.perf_counter()
    full = build(entries)
    build_s = time.perf_counter() - t0
    print(f"catalog: {full.size} templates, {len(full.sites)} sites from {len(repos)} repos ({', '.join(repos)})")
    print(f"index build: {build_s:.1f}s (once per catalog generation, then loaded from disk)")
    if full.size < 100_000:
        print(f"WARNING: fewer than 100,000 templates ({full.size})")

    queries = queries_for(full, args.queries, rng)
    times, top1 = time_errdex(full, queries)
    e_rate = len(times) / sum(times)
    print(f"\nerrdex   @{full.size} templates: {e_rate:,.0f} lookups/s  p50 {1e3 * pct(times, .5):.2f} ms  "
          f"p99 {1e3 * pct(times, .99):.2f} ms  max {1e3 * max(times):.2f} ms  top-1 {100 * top1:.1f}%")

    t0 = time.perf_counter()
    rx = compile_baseline(full)
    print(f"baseline: compiled {len(rx)} regexes in {time.perf_counter() - t0:.1f}s (not counted)")
    b_times = time_baseline(rx, queries[: args.baseline_queries])
    b_rate = len(b_times) / sum(b_times)
    print(f"baseline @{full.size} templates: {b_rate:,.2f} lookups/s  p50 {1e3 * pct(b_times, .5):.1f} ms "
          f"({len(b_times)} lookups)")
    print(f"ratio errdex/baseline: {e_rate / b_rate:,.0f}x  (target >= 100x)")
    del rx

    small = sample_index(entries, 10_000, rng)
    s_queries = queries_for(small, min(args.queries, 2000), rng)
    s_times, s_top1 = time_errdex(small, s_queries)
    print(f"\nerrdex   @{small.size} templates: p50 {1e3 * pct(s_times, .5):.2f} ms  "
          f"p99 {1e3 * pct(s_times, .99):.2f} ms  mean {1e3 * statistics.mean(s_times):.2f} ms  "
          f"top-1 {100 * s_top1:.1f}%")
    growth = statistics.mean(times) / statistics.mean(s_times)
    print(f"latency growth {small.size} -> {full.size} templates ({full.size / small.size:.1f}x more): "
          f"mean {growth:.2f}x, p99 {pct(times, .99) / pct(s_times, .99):.2f}x (target well under 10x)")

    print("\nhostile inputs (target < 100 ms each):")
    for name, text in hostile_inputs(full, rng).items():
        t0 = time.perf_counter()
        result = explain_parsed(full, parse(text), top=5)
        ms = 1e3 * (time.perf_counter() - t0)
        print(f"  {name:<36} {len(text) / 1e6:.2f} MB  {ms:7.1f} ms  "
              f"({len(result.matches)} matches, confident={result.confident})")


if __name__ == "__main__":
    main()
