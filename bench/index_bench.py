"""Benchmark: ``errdex index`` of a wheel against one-core ``ast.parse`` of the same files, in one run.

For each wheel (jax 0.10.2, and sympy 1.14.0 as a large second case), rounds of:

- baseline: in this process, ``ast.parse`` of every ``.py`` member's bytes
  (read from the wheel into memory once, before timing: the baseline is
  the parse alone), one file after the other, on one core;
- errdex cold: ``python -m errdex index WHEEL --jobs <cores> --json`` as a
  subprocess into a fresh SQLite catalog with a fresh ERRDEX_HOME, so
  nothing is cached: start-up, reading the wheel, extraction on the pool,
  phase 2 and the catalog write are all in the time (the first index of a
  release);
- errdex warm: the same again with the ERRDEX_HOME of the cold run, so each
  file's phase-1 result comes from the result cache (re-indexing); a fresh
  catalog still.

Each errdex run is divided by the mean of the baseline runs just before and
just after it, so that load from other processes hits both alike; the
medians and the spread (min-max) of those ratios are printed, with the load
average before and after.  CPU ratios (user+sys of errdex and its workers
over the baseline's CPU time) say how much work errdex does whatever the
load; on a machine whose two cores are shared, the wall ratio moves with
the neighbours, the CPU ratio much less.

Target (issue 18): cold wall ratio <= 0.7 on the 2-core machine.

With ``--compare SRC`` (another checkout's ``src/``) every round also runs that
errdex, cold and warm, between the same baselines ("cold@other"): a before/after
comparison under the same load, which separate runs on a shared machine are not.

Usage: ``.venv/bin/python bench/index_bench.py [--repeat N] [--jobs N] [--lib jax|sympy ...] [--wheel PATH ...]
[--compare SRC]`` (``--wheel``: a wheel on disk, e.g. one of ``$ERRDEX_HOME/wheels``, instead of the default two)
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import gc
import hashlib
import json
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
LIBS = {"jax": "jax==0.10.2", "sympy": "sympy==1.14.0"}


@dataclass(frozen=True)
class Run:
    label: str  # "cold" or "warm" (with "@other": the --compare checkout's errdex)
    wall: float
    cpu: float  # user+sys of the errdex process and its workers
    base_wall: float  # mean of the baseline runs before and after
    base_cpu: float


def fetch_wheel(requirement: str) -> Path:
    """The wheel, downloaded once into bench/out/wheels (pip, so pip's config applies)."""
    name, version = requirement.split("==")
    pattern = f"{name}-{version}-*.whl"
    dest = OUT / "wheels"
    found = sorted(dest.glob(pattern)) if dest.is_dir() else []
    if found:
        return found[0]
    dest.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-q", "-d", str(dest),
         requirement],
        check=True,
    )
    return sorted(dest.glob(pattern))[0]


def wheel_sources(wheel: Path) -> list[tuple[str, bytes]]:
    """The ``.py`` members outside ``*.dist-info`` (the files ``errdex index`` parses), with their bytes."""
    with zipfile.ZipFile(wheel) as zf:
        return [(n, zf.read(n)) for n in sorted(zf.namelist()) if n.endswith(".py") and ".dist-info/" not in n]


def compile_errdex(other: Path | None = None) -> None:
    """Write errdex's bytecode first, as pip does when it installs a package: where
    PYTHONDONTWRITEBYTECODE is set (CI machines) an editable install would otherwise compile
    every errdex module in every run, start-up that no installed errdex pays."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("errdex")
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        compileall.compile_dir(location, quiet=1)
    if other is not None:
        compileall.compile_dir(other / "errdex", quiet=1)


def baseline(sources: list[tuple[str, bytes]]) -> tuple[float, float]:
    """Wall and CPU seconds of ``ast.parse`` of every file's bytes, one after the other."""
    wall, cpu = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarning for invalid escapes in the indexed code
        for name, data in sources:
            with contextlib.suppress(SyntaxError):  # errdex records such a file as a failure
                ast.parse(data, filename=name)
    return time.perf_counter() - wall, time.process_time() - cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# What a catalog holds of the extraction, as rows: every site (id, kind, exception, place, template
# and the whole stored JSON), every call edge, failure, class, config option and symbol row.
_OUTPUT_QUERIES = {
    "sites": "SELECT error_id, kind, exception, path, line, template, json FROM sites",
    "search": "SELECT x.error_id, f.text FROM sites_fts f JOIN sites x ON x.id = f.rowid",
    "calls": "SELECT caller, json FROM calls",
    "failures": "SELECT path, reason FROM failures",
    "classes": "SELECT qualname, json FROM classes",
    "config": "SELECT name, json FROM config_options",
    "tests": "SELECT exception, json FROM test_expectations",
    "symbols": "SELECT module, names FROM symbols",
    "file_lines": "SELECT path, hex(digests) FROM file_lines",
}


def catalog_output(db: Path) -> dict[str, str]:
    """A sha256 per table of what ``errdex index`` stored (rows sorted, ids of rows left out),
    so that two errdex versions' catalogs of one wheel can be compared: a speed change must
    not change a single site, template or call edge."""
    conn = sqlite3.connect(db)
    try:
        out = {}
        for name, sql in _OUTPUT_QUERIES.items():
            rows = sorted(repr(r) for r in conn.execute(sql))
            out[name] = f"{len(rows)}:" + hashlib.sha256("\n".join(rows).encode()).hexdigest()[:16]
        return out
    finally:
        conn.close()


def errdex_index(wheel: Path, home: Path, jobs: int,
                 src: Path | None = None) -> tuple[float, float, dict[str, object], dict[str, str]]:
    """Wall and CPU seconds of ``errdex index WHEEL`` into a fresh catalog, its statistics and
    ``catalog_output`` (``src``: the errdex package of another checkout, first on ``PYTHONPATH``)."""
    env = dict(os.environ, ERRDEX_HOME=str(home))
    if src is not None:
        env["PYTHONPATH"] = str(src)
    for var in ("ERRDEX_STRICT", "ERRDEX_DB"):
        env.pop(var, None)
    with tempfile.TemporaryDirectory(prefix="errdex-bench-db-") as tmp:
        cmd = [sys.executable, "-m", "errdex", "index", str(wheel), "--db", str(Path(tmp) / "catalog.sqlite"),
               "--jobs", str(jobs), "--json"]
        cpu = _children_cpu()
        start = time.perf_counter()
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
        cpu = _children_cpu() - cpu
        if proc.returncode != 0:
            raise SystemExit(f"errdex index failed ({proc.returncode}):\n{proc.stderr}")
        output = catalog_output(Path(tmp) / "catalog.sqlite")
    (stats,) = json.loads(proc.stdout)
    return wall, cpu, stats, output


def bench_wheel(wheel: Path, repeat: int, jobs: int, work: Path,
                other: Path | None) -> tuple[list[Run], dict[str, object], int, dict[str, set[str]]]:
    """The runs, the statistics, the number of files, and per table the distinct
    ``catalog_output`` digests seen (by "this" errdex and the "other"): one each, and equal."""
    sources = wheel_sources(wheel)
    baseline(sources)  # warm-up: the allocator, the page cache, the CPU's caches
    runs: list[Run] = []
    stats: dict[str, object] = {}
    outputs: dict[str, set[str]] = {}
    before = baseline(sources)
    for i in range(repeat):
        for src in ([None, other] if other is not None else [None]):
            home = work / f"home-{wheel.stem}-{i}"
            for label in ("cold", "warm"):
                wall, cpu, got, output = errdex_index(wheel, home, jobs, src)
                stats = got if src is None else stats
                for table, digest in output.items():
                    outputs.setdefault(table, set()).add(digest)
                after = baseline(sources)
                runs.append(Run(label if src is None else f"{label}@other", wall, cpu,
                                (before[0] + after[0]) / 2, (before[1] + after[1]) / 2))
                before = after
            shutil.rmtree(home, ignore_errors=True)
    return runs, stats, len(sources), outputs


def _spread(values: list[float]) -> str:
    return f"median {statistics.median(values):.2f} (min {min(values):.2f}, max {max(values):.2f}, n={len(values)})"


def report(wheel: Path, files: int, runs: list[Run], stats: dict[str, object], jobs: int) -> dict[str, object]:
    print(f"\n== {wheel.name}: {files} .py files, {stats.get('sites')} sites, files read {stats.get('files_read')}, "
          f"errdex --jobs {jobs}")
    print("run  kind         baseline wall   errdex wall   ratio   | baseline cpu   errdex cpu   cpu ratio")
    per_round = len({r.label for r in runs})
    for i, r in enumerate(runs):
        print(f"{i // per_round + 1:>3}  {r.label:<11}  {r.base_wall:>11.2f} s  {r.wall:>10.2f} s  {r.wall / r.base_wall:>6.2f}"
              f"   | {r.base_cpu:>10.2f} s  {r.cpu:>9.2f} s  {r.cpu / r.base_cpu:>8.2f}")
    summary: dict[str, object] = {"wheel": wheel.name, "files": files}
    for label in dict.fromkeys(r.label for r in runs):
        wall = [r.wall / r.base_wall for r in runs if r.label == label]
        cpu = [r.cpu / r.base_cpu for r in runs if r.label == label]
        print(f"{label:<11}: wall ratio {_spread(wall)};  cpu ratio {_spread(cpu)}")
        summary[label] = {"wall_ratio_median": round(statistics.median(wall), 3), "wall_ratio_min": round(min(wall), 3),
                          "wall_ratio_max": round(max(wall), 3), "cpu_ratio_median": round(statistics.median(cpu), 3)}
    base = [r.base_wall for r in runs]
    print(f"baseline ast.parse wall {_spread(base)} s")
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=5, help="rounds of cold + warm per wheel (default 5)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="errdex workers (default: every core)")
    parser.add_argument("--lib", action="append", choices=sorted(LIBS), help="wheel(s) to index (default: all)")
    parser.add_argument("--wheel", type=Path, action="append", default=[], metavar="PATH",
                        help="a wheel file already on disk to index (instead of --lib's; repeatable)")
    parser.add_argument("--compare", type=Path, metavar="SRC",
                        help="also time the errdex of another checkout's src/ (e.g. a `git archive` of main), "
                             "interleaved with this one's in every round: before/after under the same load")
    args = parser.parse_args()
    other = args.compare.resolve() if args.compare is not None else None
    if other is not None and not (other / "errdex" / "__init__.py").is_file():
        parser.error(f"--compare {args.compare}: expected a directory holding the errdex package (a src/)")

    gc.collect()
    compile_errdex(other)
    load_start = os.getloadavg()
    summaries = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="errdex-bench-") as tmp:
        wheels = [fetch_wheel(LIBS[lib]) for lib in args.lib or ([] if args.wheel else list(LIBS))]
        for wheel in [*wheels, *(w.resolve() for w in args.wheel)]:
            runs, stats, files, outputs = bench_wheel(wheel, args.repeat, args.jobs, Path(tmp), other)
            summaries.append(report(wheel, files, runs, stats, args.jobs))
            differ = sorted(t for t, seen in outputs.items() if len(seen) != 1)
            who = "every run (and the --compare errdex)" if other is not None else "every run"
            counts = ", ".join(f"{t} {min(seen).split(':')[0]}" for t, seen in outputs.items())
            print(f"catalog output ({counts} rows): "
                  + (f"DIFFERS in {', '.join(differ)}" if differ else f"identical in {who}"))
            summaries[-1]["output_identical"] = not differ
            failed = failed or bool(differ)
    load_end = os.getloadavg()
    print(f"\ncores: {os.cpu_count()}; load average (1, 5, 15 min) at start {load_start[0]:.1f} {load_start[1]:.1f} "
          f"{load_start[2]:.1f}, at end {load_end[0]:.1f} {load_end[1]:.1f} {load_end[2]:.1f}")
    print("ratio = errdex wall time / mean of the baseline runs before and after it; target: cold <= 0.7")
    OUT.mkdir(exist_ok=True)
    (OUT / "index_bench.json").write_text(json.dumps({"load_start": load_start, "load_end": load_end,
                                                      "results": summaries}, indent=2) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
