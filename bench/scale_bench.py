"""Global explain at scale: the global match index over >= 10^6 templates against a linear regex scan.

    .venv/bin/python bench/scale_bench.py --catalog CATALOG [--target 1000000] [--queries 300] [--linear 8]

CATALOG is a real catalog (make one with ``errdex index --from-list LIST --cluster local:2``); every
template of the latest snapshot of each of its repos is used as is, and the bench says how many.
When they are fewer than ``--target``, it tops up with *variants*: a real template with one or two
literal words replaced by other words of the real vocabulary, in a repo ``variants-K/<real repo>``,
so that word frequencies (what posting lists cost) stay those of real messages.

Queries are real templates (from the real part only) with their placeholders filled by values of
the kinds messages carry (``'x'``, ``42``, ``float32``, ``/tmp/data.csv``); a lookup is right when
its best hit's template is the query's own template text (the same text in two libraries or
versions counts, since the message cannot tell them apart).

Each phase runs in its own subprocess, so its peak memory (``ru_maxrss``) is its own:
1. build: read the catalog, add variants, write the index file (time, peak memory, file size);
2. lookup: open the index (memory-mapped) and look every query up (p50/p99, accuracy, memory);
3. linear: compile one regular expression per template (literals escaped, placeholders ``.*?``) and
   scan all of them for each of ``--linear`` queries, as a catalog without an index must (p50, memory).
It prints the ratio linear p50 / lookup p50 (target: >= 1000).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from errdex.match import global_index as G

VALUES = ["'x'", "42", "float32", "/tmp/data.csv", "None", "'name'", "3.5", "(2, 3)", "foo", "<class 'int'>"]


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _rss_parts() -> dict[str, int]:
    """Resident memory now, private (``RssAnon``) and of mapped files (``RssFile``: the index's pages,
    shared by every process that maps it), in MB (Linux; empty elsewhere)."""
    out: dict[str, int] = {}
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(("RssAnon:", "RssFile:")):
                key, value = line.split(":", 1)
                out[key.lower()] = int(value.split()[0]) // 1024
    except OSError:
        pass
    return out


def real_entries(catalog_path: str) -> list[G.Entry]:
    from errdex.catalog import open_catalog

    cat = open_catalog(catalog_path)
    try:
        return list(G.catalog_entries(cat))
    finally:
        cat.close()


def variants(real: list[G.Entry], needed: int, seed: int = 7) -> Iterator[G.Entry]:
    """Real templates with one or two literal words swapped for other real words, in other repos."""
    rng = random.Random(seed)
    vocab = sorted({w for e in real for segs in e.templates for lit, t in segs if lit
                    for w in re.findall(r"[A-Za-z]{3,}", t)})
    made = 0
    k = 0
    while made < needed:
        k += 1
        for e in real:
            if made >= needed:
                return
            new_t = []
            for segs in e.templates:
                out = []
                for lit, t in segs:
                    if lit:
                        words = re.findall(r"[A-Za-z]{3,}", t)
                        for w in rng.sample(words, min(len(words), rng.choice((1, 2)))):
                            t = t.replace(w, rng.choice(vocab), 1)
                    out.append((lit, t))
                new_t.append(tuple(out))
            rendered = tuple("".join(t if lit else "{" + t + "}" for lit, t in segs) for segs in new_t)
            repo, pin, _url, prefix = e.snapshot
            snap = (f"variants-{k}/{repo.split('/')[-1]}", pin, "", prefix)
            site = (f"{made:016x}", *e.site[1:])
            made += len(new_t)
            yield G.Entry(snap, site, tuple(new_t), rendered)


def fill(segs: tuple[tuple[bool, str], ...], rng: random.Random) -> str:
    return "".join(t if lit else rng.choice(VALUES) for lit, t in segs)


def phase_build(args: argparse.Namespace) -> dict[str, object]:
    started = time.perf_counter()
    real = real_entries(args.catalog)
    read_s = time.perf_counter() - started
    n_real = sum(len(e.templates) for e in real)
    repos = len({e.snapshot[0] for e in real})
    rng = random.Random(1)
    picks = [e for e in real if any(sum(len(t) for lit, t in s if lit) >= 12 for s in e.templates)]
    queries = []
    for e in rng.sample(picks, min(args.queries, len(picks))):
        segs = max(e.templates, key=lambda s: sum(len(t) for lit, t in s if lit))
        i = e.templates.index(segs)
        queries.append({"text": fill(segs, rng), "template": e.rendered[i], "exception": e.site[3],
                        "repo": e.snapshot[0]})
    entries: Iterator[G.Entry] = iter(real)
    n_variants = max(0, args.target - n_real)
    if n_variants:
        import itertools

        entries = itertools.chain(real, variants(real, n_variants))
    stats = G.build(entries, Path(args.index))
    Path(args.queries_file).write_text(json.dumps(queries), encoding="utf-8")
    return {"real_templates": n_real, "real_repos": repos, "variant_templates": stats.templates - n_real,
            "templates": stats.templates, "sites": stats.sites, "snapshots": stats.snapshots, "keys": stats.keys,
            "postings": stats.postings, "index_bytes": stats.bytes, "read_catalog_s": round(read_s, 1),
            "build_s": round(stats.seconds, 1), "build_peak_mb": round(_rss_mb())}


def phase_lookup(args: argparse.Namespace) -> dict[str, object]:
    queries = json.loads(Path(args.queries_file).read_text(encoding="utf-8"))
    before = _rss_mb()
    t0 = time.perf_counter()
    idx = G.GlobalIndex(Path(args.index))
    open_ms = (time.perf_counter() - t0) * 1000
    times = []
    top1 = top5 = lib = tied = 0
    for q in queries:
        t = time.perf_counter()
        hits = idx.lookup(q["text"], exception=q["exception"], top=5)
        times.append(time.perf_counter() - t)
        top1 += bool(hits) and hits[0].template == q["template"]
        # the message cannot tell apart templates that differ only in a placeholder's expression
        tied += bool(hits) and any(h.template == q["template"] for h in hits if h.score == hits[0].score)
        top5 += any(h.template == q["template"] for h in hits)
        lib += bool(hits) and any(h.repo == q["repo"] for h in hits if h.score == hits[0].score)
    times.sort()
    return {"open_ms": round(open_ms, 2), "lookup_p50_ms": round(1000 * statistics.median(times), 3),
            "lookup_p99_ms": round(1000 * times[min(len(times) - 1, int(0.99 * len(times)))], 3),
            "queries": len(queries), "top1": round(top1 / len(queries), 4),
            "top1_or_tied": round(tied / len(queries), 4), "top5": round(top5 / len(queries), 4),
            "library_top1": round(lib / len(queries), 4),
            "lookup_rss_mb": round(_rss_mb()), "rss_before_open_mb": round(before),
            **{f"lookup_{k}_mb": v for k, v in _rss_parts().items()}}


def _pattern(segs: tuple[tuple[bool, str], ...]) -> str:
    return "".join(re.escape(t) if lit else ".*?" for lit, t in segs)


def phase_linear(args: argparse.Namespace) -> dict[str, object]:
    """Every template a compiled regex, every query scanned against all of them (best by literal length)."""
    queries = json.loads(Path(args.queries_file).read_text(encoding="utf-8"))[: args.linear]
    idx = G.GlobalIndex(Path(args.index))
    t0 = time.perf_counter()
    compiled = []
    for tno in range(idx.templates):
        segs, rendered = idx.segments(tno)
        compiled.append((re.compile(_pattern(segs), re.DOTALL), sum(len(t) for lit, t in segs if lit), rendered))
    compile_s = time.perf_counter() - t0
    times = []
    right = 0
    for q in queries:
        text = " ".join(q["text"].split())
        t = time.perf_counter()
        best = (-1, "")
        for rx, litlen, rendered in compiled:
            if litlen > best[0] and rx.search(text) is not None:
                best = (litlen, rendered)
        times.append(time.perf_counter() - t)
        right += best[1] == q["template"]
    return {"linear_templates": len(compiled), "linear_compile_s": round(compile_s, 1),
            "linear_p50_ms": round(1000 * statistics.median(times), 1), "linear_queries": len(queries),
            "linear_top1": round(right / len(queries), 4), "linear_rss_mb": round(_rss_mb())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--catalog", required=True, help="a real catalog (SQLite path or postgresql:// URL)")
    ap.add_argument("--target", type=int, default=1_000_000, help="templates in the index (real + variants)")
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--linear", type=int, default=8, help="queries timed with the linear scan")
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--phase", choices=["build", "lookup", "linear"], default=None, help=argparse.SUPPRESS)
    ap.add_argument("--index", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--queries-file", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.phase:
        fn = {"build": phase_build, "lookup": phase_lookup, "linear": phase_linear}[args.phase]
        print(json.dumps(fn(args)))
        return
    work = Path(args.workdir or tempfile.mkdtemp(prefix="errdex-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    base = [sys.executable, __file__, "--catalog", args.catalog, "--target", str(args.target), "--queries",
            str(args.queries), "--linear", str(args.linear), "--index", str(work / "global.idx"),
            "--queries-file", str(work / "queries.json")]
    result: dict[str, object] = {}
    for phase in ("build", "lookup", "linear"):
        out = subprocess.run([*base, "--phase", phase], capture_output=True, text=True, check=True)
        data = json.loads(out.stdout.strip().splitlines()[-1])
        result.update(data)
        print(f"{phase}: {json.dumps(data)}", flush=True)
    ratio = float(result["linear_p50_ms"]) / max(float(result["lookup_p50_ms"]), 1e-9)  # type: ignore[arg-type]
    print(f"\n{result['templates']:,} templates ({result['real_templates']:,} real from {result['real_repos']} "
          f"repos, {result['variant_templates']:,} variants); index {int(result['index_bytes']) / 2**20:.0f} MiB "  # type: ignore[call-overload]
          f"built in {result['build_s']} s (+{result['read_catalog_s']} s reading the catalog)")
    print(f"lookup p50 {result['lookup_p50_ms']} ms, p99 {result['lookup_p99_ms']} ms, top-1 {result['top1']} "
          f"(or tied at the top {result['top1_or_tied']}), "
          f"top-5 {result['top5']}, library top-1 {result['library_top1']}; open {result['open_ms']} ms; "
          f"lookup process {result['lookup_rss_mb']} MB peak ({result.get('lookup_rssanon_mb', '?')} MB private, "
          f"{result.get('lookup_rssfile_mb', '?')} MB of mapped, shared file pages)")
    print(f"linear regex scan p50 {result['linear_p50_ms']} ms over {result['linear_templates']:,} compiled "
          f"templates (top-1 {result['linear_top1']}, {result['linear_rss_mb']} MB)")
    print(f"ratio linear / lookup (p50): {ratio:,.0f}x (target >= 1000x)")


if __name__ == "__main__":
    main()
