"""Survey: how much of each real library's error text the extractor reconstructs.

Indexes each given wheel (or any ``errdex index`` source) into a fresh catalog
with ``errdex index --json`` and prints, per source, the figures of issue 2:
sites, the share whose template has a literal run of 8+ characters
(``literal8``), the same over the sites whose message has any literal text in
the source (``of_text``: a ``raise X`` or ``assert c, (a, b)`` has none, so
it cannot lower this one), and unresolved expressions per site.  Then the
most common *shapes* of the unresolved expressions over all sources, which is
where the next extraction rule pays most.

Usage: ``.venv/bin/python bench/extract_survey.py WHEEL... [--top N]``
(``bench/data/match_bench_wheels.txt`` lists the 77 wheels of the matching
benchmark; pip downloads them).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path


def shape(expr: str) -> str:
    """A coarse class of an unresolved expression: what kind of code holds the message."""
    try:
        node = ast.parse(expr.strip(), mode="eval").body
    except SyntaxError:
        return "unparsable"
    if isinstance(node, ast.Call):
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else type(f).__name__
        receiver = "self." if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self" else ""
        return f"call {receiver}{re.sub(r'[0-9]+', 'N', name)}()"
    if isinstance(node, ast.Attribute):
        return "attribute self.x" if isinstance(node.value, ast.Name) and node.value.id == "self" else "attribute x.y"
    if isinstance(node, ast.Subscript):
        return "subscript"
    return type(node).__name__.lower()


def index(source: str, home: Path, db: Path) -> dict[str, object]:
    env = dict(os.environ, ERRDEX_HOME=str(home))
    out = subprocess.run([sys.executable, "-m", "errdex", "index", source, "--db", str(db), "--json"],
                         env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"exit {out.returncode}"}
    data: list[dict[str, object]] = json.loads(out.stdout)
    return data[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("sources", nargs="+")
    parser.add_argument("--top", type=int, default=25, help="unresolved shapes to list (default 25)")
    args = parser.parse_args()
    shapes: Counter[str] = Counter()
    examples: dict[str, str] = {}
    totals = Counter[str]()
    with tempfile.TemporaryDirectory(prefix="errdex-survey-") as tmp:
        print(f"{'source':<34} {'sites':>6} {'literal8':>9} {'of_text':>8} {'unresolved/site':>16}")
        for i, source in enumerate(args.sources):
            db = Path(tmp) / f"c{i}.sqlite"
            stats = index(source, Path(tmp) / "home", db)
            name = Path(source).name.split("-")[0] if source.endswith(".whl") else source
            if "error" in stats:
                print(f"{name:<34} failed: {stats['error']}")
                continue
            sites = int(str(stats["sites"]))
            totals["sites"] += sites
            totals["literal8"] += int(str(stats["templates_with_literal8"]))
            totals["with_text"] += sites - int(str(stats["templates_without_literal"]))
            totals["unresolved"] += int(str(stats["unresolved_expressions"]))
            print(f"{name:<34} {sites:>6} {stats['literal8_share']!s:>9} {stats['literal8_share_of_text']!s:>8}"
                  f" {int(str(stats['unresolved_expressions'])) / max(sites, 1):>16.3f}")
            with sqlite3.connect(db) as conn:
                for (text,) in conn.execute("SELECT json FROM sites"):
                    site = json.loads(text)
                    for expr in site.get("unresolved", []):
                        s = shape(expr)
                        shapes[s] += 1
                        examples.setdefault(s, f"{site['path']}:{site['line']}  {expr[:80]!r}")
    if totals["sites"]:
        print(f"{'all':<34} {totals['sites']:>6} {totals['literal8'] / totals['sites']:>9.4f}"
              f" {totals['literal8'] / max(totals['with_text'], 1):>8.4f}"
              f" {totals['unresolved'] / totals['sites']:>16.3f}")
    print(f"\nunresolved expressions by shape (top {args.top} of {sum(shapes.values())}):")
    for s, n in shapes.most_common(args.top):
        print(f"{n:>7}  {s:<40} e.g. {examples[s]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
