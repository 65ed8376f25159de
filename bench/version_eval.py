"""Version inference on real tracebacks: does the top match name only the versions that fit?

The events (``bench/data/jax-0.10.2*.jsonl``) were captured from JAX 0.10.2's
own tests.  Against a catalog holding several versions (say jax 0.9.2,
0.10.1 and 0.10.2), each traceback that was raised at a raise site of the
library ("site" events, as in ``match_eval.py``) is explained, and the top
match's ``versions`` are compared with the truth read from the versions'
real files — independently of errdex: a version fits when, for every frame
of the exception object inside the package (the captured ``frames``, not
the printed text), its file has the same line at that number as the file
the event was captured from (``--reference``).

Figures: ``subset`` (the top match names only versions that fit: never a
version whose files disagree), ``exact`` (it names exactly the versions that
fit), ``only`` (where only the reference version fits, it names exactly that
one).  Also for the message alone: how many versions are said to raise it.

Usage (the wheels' ``jax/`` trees unpacked into one directory per version)::

    ERRDEX_HOME=/tmp/errdex-review .venv/bin/errdex index pypi:jax==0.9.2 pypi:jax==0.10.1 pypi:jax==0.10.2
    .venv/bin/python bench/version_eval.py --db /tmp/errdex-review/catalog.sqlite \\
        --files 0.9.2=/tmp/gt/0.9.2 --files 0.10.1=/tmp/gt/0.10.1 --files 0.10.2=/tmp/gt/0.10.2 \\
        --reference 0.10.2 bench/data/jax-0.10.2.jsonl bench/data/jax-0.10.2-more.jsonl
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

from errdex.catalog import open_catalog
from errdex.match import explain_parsed, parse_safely
from errdex.match.index import index_for
from errdex.match.versions import with_versions
from match_eval import load_events, truth


class Files:
    """The lines of one version's files, read once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache: dict[str, list[str] | None] = {}

    def line(self, rel: str, n: int) -> str | None:
        if rel not in self.cache:
            f = self.root / rel
            self.cache[rel] = (f.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n").split("\n")
                               if f.is_file() else None)
        lines = self.cache[rel]
        if lines is None or not 1 <= n <= len(lines):
            return None
        return lines[n - 1].strip()


def package_path(path: str, package: str) -> str | None:
    parts = path.replace("\\", "/").split("/")
    if parts[0] == package:  # captured frames are package-relative already
        return path
    if "site-packages" in parts:
        rest = parts[parts.index("site-packages") + 1:]
        if rest and rest[0] == package:
            return "/".join(rest)
    return None


def fitting(ev: dict[str, Any], versions: dict[str, Files], reference: str, package: str) -> set[str]:
    """The versions whose files hold, at every package frame of the event, the reference version's line."""
    ref = versions[reference]
    out = set()
    for name, files in versions.items():
        ok = True
        for path, line, _ in ev["frames"]:
            rel = package_path(path, package)
            if rel is None:
                continue
            want = ref.line(rel, int(line))
            if want is None or files.line(rel, int(line)) != want:
                ok = False
                break
        if ok:
            out.add(name)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--files", action="append", required=True, metavar="VERSION=DIR",
                    help="a version's unpacked files (the directory holding the package)")
    ap.add_argument("--reference", required=True, help="the version the events were captured from")
    ap.add_argument("--package", default="jax")
    ap.add_argument("--show-failures", type=int, default=5)
    ap.add_argument("data", nargs="+", type=Path)
    args = ap.parse_args()
    versions = {k: Files(Path(v)) for k, v in (x.split("=", 1) for x in args.files)}
    catalog = open_catalog(args.db)
    idx = index_for(catalog)
    n = subset = exact = only_n = only_ok = 0
    shapes: Counter[tuple[str, ...]] = Counter()
    said: Counter[int] = Counter()
    message_said: Counter[tuple[str, ...]] = Counter()
    failures: list[str] = []
    for ev in load_events(args.data):
        cls, _, _ = truth(idx, ev)
        if cls != "site":
            continue
        want = fitting(ev, versions, args.reference, args.package)
        result = with_versions(catalog, idx, explain_parsed(idx, parse_safely(ev["traceback"]), top=3))
        if not result.matches:
            continue
        got = {v.version for v in result.matches[0].versions}
        n += 1
        shapes[tuple(sorted(want))] += 1
        said[len(got)] += 1
        ok_subset = bool(got) and got <= want
        subset += ok_subset
        exact += got == want
        if want == {args.reference}:
            only_n += 1
            only_ok += got == want
        if (not ok_subset or got != want) and len(failures) < args.show_failures:
            failures.append(f"{ev['innermost_lib']}: want {sorted(want)} got {sorted(got)}")
        msg = with_versions(catalog, idx, explain_parsed(idx, parse_safely(ev["message"]), top=3))
        if msg.matches:
            message_said[tuple(sorted(v.version for v in msg.matches[0].versions))] += 1
    catalog.close()
    print(f"site events explained: {n}")
    print(f"truth (versions whose files fit): {dict(shapes)}")
    print(f"top match names only fitting versions (subset, non-empty): {subset}/{n}")
    print(f"top match names exactly the fitting versions: {exact}/{n}")
    print(f"only {args.reference} fits -> names exactly {args.reference}: {only_ok}/{only_n}")
    print(f"versions named per traceback: {dict(sorted(said.items()))}")
    print(f"message alone, versions said to raise it: {dict(message_said.most_common(6))}")
    for f in failures:
        print("  miss:", f)


if __name__ == "__main__":
    main()
