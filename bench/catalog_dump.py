"""A canonical dump of what ``errdex index`` extracts from a source, to prove a speed change lost nothing.

``errdex index SOURCE --no-cache`` runs as a subprocess into a fresh catalog and a fresh
``ERRDEX_HOME`` (``PYTHONHASHSEED=0``, so that two runs agree), then every table extraction fills is
written out as sorted text, one row a line (row ids left out): sites (error id, kind, exception,
path, line, template and the whole stored JSON: guards, snippet, summary...), their search text,
call edges, failures, classes, config options, test expectations, symbols, line digests, and for
every site the public path that ``analyze`` derives from the call graph (entries, chain, depth).

``--save FILE`` writes the dump; ``--against FILE`` compares with a saved one and exits 1 when a
single line differs, printing the first differences per table.  Run it on the commit before a
change (``--save``) and after (``--against``):

    PYTHONHASHSEED=0 .venv/bin/python bench/catalog_dump.py bench/out/wheels/jax-0.10.2-py3-none-any.whl --save before.txt
    PYTHONHASHSEED=0 .venv/bin/python bench/catalog_dump.py bench/out/wheels/jax-0.10.2-py3-none-any.whl --against before.txt

``--src DIR`` runs another checkout's errdex (its ``src/``, first on ``PYTHONPATH``) for both the
index and the public paths.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from index_bench import _OUTPUT_QUERIES  # noqa: E402  (the bench's own digest reads the same rows)

_PATHS = """
import sys
from errdex.analyze.context import load_context
from errdex.catalog import open_catalog
cat = open_catalog(sys.argv[1])
for snap in cat.snapshots():
    ctx = load_context(cat, snap)
    for s in ctx.sites:
        p = ctx.public_path(s)
        print(repr((s.error_id, s.path, s.line, p.entries, p.chain, p.depth)))
"""


def dump(source: str, src: Path | None, jobs: int) -> list[str]:
    """The sorted lines of every table of a fresh index of ``source``, each prefixed by its table."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    if src is not None:
        env["PYTHONPATH"] = str(src)
    for var in ("ERRDEX_STRICT", "ERRDEX_DB"):
        env.pop(var, None)
    with tempfile.TemporaryDirectory(prefix="errdex-dump-") as tmp:
        env["ERRDEX_HOME"] = str(Path(tmp) / "home")
        db = Path(tmp) / "catalog.sqlite"
        subprocess.run([sys.executable, "-m", "errdex", "index", source, "--db", str(db), "--jobs", str(jobs),
                        "--no-cache", "--json"], env=env, check=True, capture_output=True, text=True)
        lines: list[str] = []
        conn = sqlite3.connect(db)
        try:
            for name, sql in _OUTPUT_QUERIES.items():
                lines.extend(sorted(f"{name}\t{r!r}" for r in conn.execute(sql)))
        finally:
            conn.close()
        paths = subprocess.run([sys.executable, "-c", _PATHS, str(db)], env=env, check=True,
                               capture_output=True, text=True).stdout.splitlines()
        lines.extend(sorted(f"public_path\t{p}" for p in paths))
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", nargs="+", help="what to index (a wheel, a directory...)")
    ap.add_argument("--save", type=Path, help="write the dump here")
    ap.add_argument("--against", type=Path, help="compare with this saved dump; exit 1 when it differs")
    ap.add_argument("--src", type=Path, help="another checkout's src/ to run instead of this one")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    lines = [line for s in args.source for line in [f"== {Path(s).name}", *dump(s, args.src, args.jobs)]]
    counts: dict[str, int] = {}
    for line in lines:
        table = line.split("\t", 1)[0]
        counts[table] = counts.get(table, 0) + 1
    print(", ".join(f"{t} {n}" for t, n in counts.items() if not t.startswith("==")))
    if args.save is not None:
        args.save.write_text("\n".join(lines) + "\n")
    if args.against is not None:
        old = args.against.read_text().splitlines()
        if old == lines:
            print(f"identical to {args.against} ({len(lines)} lines)")
            return 0
        diff = list(difflib.unified_diff(old, lines, str(args.against), "now", n=0, lineterm=""))
        print(f"DIFFERS from {args.against}: {sum(1 for d in diff if d[:1] in '+-') - 2} lines")
        print("\n".join(d[:300] for d in diff[:40]))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
