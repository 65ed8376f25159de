"""Where a one-core ``ast.parse`` spends its time: the C parser, or building Python AST objects.

Issue 18 asks ``errdex index`` for <= 0.7x the one-core ``ast.parse`` of the same files; extraction
walks Python AST objects, so it pays for building them before any of its own work.  This bench
times, on every ``.py`` member of a wheel (bytes read into memory first), in alternating rounds:

- ``ast.parse``: source to Python AST objects (the index bench's baseline);
- ``compile``: source to a code object (the same C parser and compiler, no Python AST objects);

and prints each as a ratio of the ``ast.parse`` round next to it (CPU time of this process), so
load from other processes hits both alike.  A ratio well under 1 for ``compile`` says an extractor
that did not build the whole Python AST (bytecode, or the AST of only the functions that raise)
could get under the target; one near 1 would say the parser itself is the floor.

Usage: ``.venv/bin/python bench/parse_cost.py WHEEL [--repeat N]``
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import gc
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from index_bench import wheel_sources


def _cpu(work: Callable[[bytes], object], sources: list[bytes]) -> float:
    gc.collect()
    start = time.process_time()
    for src in sources:
        with contextlib.suppress(SyntaxError, ValueError):  # a file this Python cannot parse costs both alike
            work(src)
    return time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("wheel")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sources = [src for _name, src in wheel_sources(Path(args.wheel))]  # the index bench's files
    ratios: list[float] = []
    for _ in range(args.repeat):
        before = _cpu(ast.parse, sources)
        comp = _cpu(lambda s: compile(s, "<bench>", "exec", dont_inherit=True), sources)
        after = _cpu(ast.parse, sources)
        ratios.append(comp / ((before + after) / 2))
    print(f"{len(sources)} files, {sum(map(len, sources)) // 1024} KiB")
    print(f"compile / ast.parse (CPU): median {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f}, {args.repeat} rounds)")


if __name__ == "__main__":
    main()
