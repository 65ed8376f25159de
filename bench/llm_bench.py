"""Benchmark: the language-model backend against a local OpenAI-compatible server.

What it measures, all in one run against the fake server of the test suite
(``tests/analyze/fake_llm_server.py``: real HTTP on 127.0.0.1, answering
after ``--latency`` seconds, like a model that takes that long):

1. requests per second with ``concurrency=1`` (the baseline) and with
   ``--concurrency N`` (each from an empty cache), and their ratio;
2. the cache: a second run after touching one file of the indexed repo
   (one raise message edited) and re-indexing -- its cache hit rate, the
   requests it sent, and its time against the first full run.

The indexed repo is a copy of JAX's ``jax/_src/interpreters`` from
``/work/jax-src`` (``--source`` picks another directory; the copy keeps the
package layout).  Nothing here asserts a time; it prints figures.

Usage: ``.venv/bin/python bench/llm_bench.py [--source DIR] [--concurrency 8] [--latency 0.05]``
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "analyze"))

from fake_llm_server import Reply, default_responder, fake_llm_server  # noqa: E402

from errdex.analyze.llm import LLMReport, analyze_with_llm  # noqa: E402
from errdex.analyze.llm.cache import AnswerCache  # noqa: E402
from errdex.analyze.llm.client import ClientConfig  # noqa: E402
from errdex.catalog import open_catalog  # noqa: E402
from errdex.extract import extract_tree  # noqa: E402
from errdex.sources import open_source  # noqa: E402

DEFAULT_SOURCE = Path("/work/jax-src/jax/_src/interpreters")


def copy_source(src: Path, dest: Path) -> Path:
    """Copy ``src`` keeping its package path under ``dest`` (``jax/_src/interpreters``)."""
    parts = src.resolve().parts
    rel = Path(*parts[parts.index("jax"):]) if "jax" in parts else Path(src.name)
    target = dest / rel
    shutil.copytree(src, target, ignore=shutil.ignore_patterns("__pycache__"))
    for parent in list(target.parents):
        if parent == dest:
            break
        (parent / "__init__.py").touch(exist_ok=True)
    return target


def index(catalog_db: Path, root: Path) -> str:
    cat = open_catalog(str(catalog_db))
    try:
        with open_source(str(root), repo="bench/llm", ref="bench") as tree:
            cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
            return tree.snapshot.key
    finally:
        cat.close()


def touch_one_file(pkg: Path) -> Path:
    """Edit one raise message in one file: the smallest real change a re-index sees."""
    for path in sorted(pkg.rglob("*.py")):
        text = path.read_text()
        new, n = re.subn(r'raise (\w+)\("', r'raise \1("(edited) ', text, count=1)
        if n:
            path.write_text(new)
            return path
    raise SystemExit(f"{pkg}: no raise with a string literal to edit")


def analyse(db: Path, key: str, base_url: str, cache_path: Path, concurrency: int) -> tuple[float, LLMReport]:
    cat = open_catalog(str(db))
    cache = AnswerCache(cache_path)
    cfg = ClientConfig(base_url=base_url, api_key="bench", timeout=30, concurrency=concurrency, retries=2,
                       backoff=0.05)
    try:
        started = time.perf_counter()
        report = analyze_with_llm(cat, key, model="bench-model", dry_run=False, config=cfg, cache=cache)
        return time.perf_counter() - started, report
    finally:
        cache.close()
        cat.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--latency", type=float, default=0.05, help="seconds the fake model takes per answer")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="errdex-llm-bench-") as tmp_s, fake_llm_server() as server:
        tmp = Path(tmp_s)
        root = copy_source(args.source, tmp / "repo")
        top = tmp / "repo" / root.relative_to(tmp / "repo").parts[0]
        db = tmp / "catalog.sqlite"
        key = index(db, top)
        server.responder = lambda req: Reply(content=default_responder(req).content, delay=args.latency)

        t1, r1 = analyse(db, key, server.base_url, tmp / "cache1.sqlite", 1)
        tn, rn = analyse(db, key, server.base_url, tmp / "cacheN.sqlite", args.concurrency)
        rps1 = r1.requests / t1
        rpsn = rn.requests / tn
        print(f"indexed {top.name} from {args.source}: {r1.errors} errors")
        print(f"fake model latency {args.latency:.3f}s per answer")
        print(f"concurrency 1 (baseline): {r1.requests} requests in {t1:.2f}s = {rps1:.1f} req/s")
        print(f"concurrency {args.concurrency}: {rn.requests} requests in {tn:.2f}s = {rpsn:.1f} req/s")
        print(f"ratio (concurrency {args.concurrency} / baseline): {rpsn / rps1:.2f}x")
        print(f"sections rejected by validation or the verifier: {len(rn.rejects)}"
              + "".join(f"\n  {r.error_id} {r.section}: {r.reason[:150]}" for r in rn.rejects[:3]))

        edited = touch_one_file(top)
        key2 = index(db, top)
        before = len(server.requests)
        t2, r2 = analyse(db, key2, server.base_url, tmp / "cacheN.sqlite", args.concurrency)
        sent = len(server.requests) - before
        in_file = sum(1 for s in open_catalog(str(db)).sites(key2)
                      if s.path == edited.relative_to(top).as_posix())
        print(f"touched {edited.relative_to(top.parent)} ({in_file} errors in that file) and re-indexed")
        print(f"second run: cache hits {r2.cache_hits}/{r2.errors} = {r2.cache_hit_rate:.1%},"
              f" {sent} requests sent, {t2:.2f}s")
        print(f"ratio (second run / first run at concurrency {args.concurrency}): {t2 / tn:.3f}")


if __name__ == "__main__":
    main()
