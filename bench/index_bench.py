"""Benchmark: ``errdex index`` of the jax 0.10.2 wheel against plain ``ast.parse`` of its files.

Both are measured in the same run on the same machine, so the printed ratio
means something even on a loaded box; absolute times do not.

- baseline: in this process, read and ``ast.parse`` every ``.py`` file of the
  unpacked wheel, one after the other (one core);
- errdex: ``python -m errdex index WHEEL --jobs <cores> --json`` as a
  subprocess (start-up, reading the wheel, extraction and the catalog write
  all included) into a fresh temporary catalog, twice per round:

  - cold: a fresh ERRDEX_HOME, so nothing is cached: every file is read from
    the wheel and parsed (the first ``errdex index`` of a release);
  - warm: the same ERRDEX_HOME again, so every file's phase-1 result comes
    from the result cache (re-indexing, or indexing a next version whose
    files are mostly unchanged); phase 2 and the catalog write run in full.

Each errdex run is compared with the mean of the baseline runs just before
and after it.  Target: ratio (errdex / baseline) <= 1.0 on the 2-core machine.  Peak memory
is ``ru_maxrss`` of this process (baseline) and of the largest child process
(errdex and its workers).

Usage: ``.venv/bin/python bench/index_bench.py [--repeat N] [--jobs N]``
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
REQ = "jax==0.10.2"


def fetch_wheel() -> Path:
    """The jax wheel, downloaded once into bench/out/wheels (pip, so pip's config applies)."""
    dest = OUT / "wheels"
    found = sorted(dest.glob("jax-0.10.2-*.whl")) if dest.is_dir() else []
    if found:
        return found[0]
    dest.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-q", "-d", str(dest), REQ],
        check=True,
    )
    return sorted(dest.glob("jax-0.10.2-*.whl"))[0]


def unpack_py(wheel: Path, target: Path) -> list[Path]:
    with zipfile.ZipFile(wheel) as zf:
        names = [n for n in zf.namelist() if n.endswith(".py") and ".dist-info/" not in n]
        for n in names:
            zf.extract(n, target)
    return [target / n for n in sorted(names)]


def compile_errdex() -> None:
    """Write errdex's bytecode first, as pip does when it installs a package: where
    PYTHONDONTWRITEBYTECODE is set (CI machines) an editable install would otherwise compile
    every errdex module in every run, start-up that no installed errdex pays."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("errdex")
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        compileall.compile_dir(location, quiet=1)


def baseline(files: list[Path]) -> float:
    start = time.perf_counter()
    for f in files:
        ast.parse(f.read_bytes(), filename=str(f))
    return time.perf_counter() - start


def errdex_index(wheel: Path, home: Path, jobs: int) -> tuple[float, dict[str, object]]:
    env = dict(os.environ, ERRDEX_HOME=str(home))
    env.pop("ERRDEX_STRICT", None)
    with tempfile.TemporaryDirectory(prefix="errdex-bench-db-") as tmp:
        cmd = [sys.executable, "-m", "errdex", "index", str(wheel), "--db", str(Path(tmp) / "catalog.sqlite"),
               "--jobs", str(jobs), "--json"]
        start = time.perf_counter()
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"errdex index failed ({proc.returncode}):\n{proc.stderr}")
    (stats,) = json.loads(proc.stdout)
    return elapsed, stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="errdex workers (default: every core)")
    args = parser.parse_args()

    wheel = fetch_wheel()
    compile_errdex()
    with tempfile.TemporaryDirectory(prefix="errdex-bench-") as tmp:
        files = unpack_py(wheel, Path(tmp) / "unpacked")
        baseline(files)  # warm the page cache for both
        rounds: list[tuple[str, float, float, float]] = []
        stats: dict[str, object] = {}
        # Each errdex run is bracketed by two baseline runs and compared with
        # their mean, so that load from other processes hits both alike.
        before = baseline(files)
        for i in range(args.repeat):
            home = Path(tmp) / f"home{i}"
            for label in ("cold", "warm"):
                t, stats = errdex_index(wheel, home, args.jobs)
                after = baseline(files)
                rounds.append((label, before, t, after))
                before = after
    self_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024

    ratios = [(label, t / ((b + a) / 2)) for label, b, t, a in rounds]
    print(f"wheel: {wheel.name}  ({len(files)} .py files)  cores: {os.cpu_count()}  errdex --jobs {args.jobs}"
          f"  load average at end: {os.getloadavg()[0]:.1f}")
    print("run        baseline-before  errdex index  baseline-after  ratio")
    for i, ((label, b, t, a), (_, r)) in enumerate(zip(rounds, ratios, strict=True)):
        print(f"{i // 2 + 1:>3} {label}  {b:>13.2f} s  {t:>10.2f} s  {a:>12.2f} s  {r:>6.2f}")
    print("baseline: ast.parse of every file, 1 process, in this process; errdex: `python -m errdex index WHEEL` "
          "subprocess, fresh catalog each run (cold: fresh ERRDEX_HOME, nothing cached; warm: the same home "
          "again, phase-1 results from the result cache)")
    cold = statistics.median(r for label, r in ratios if label == "cold")
    warm = statistics.median(r for label, r in ratios if label == "warm")
    print(f"ratio errdex/baseline: cold median {cold:.2f}, warm median {warm:.2f}   (target <= 1.0)")
    print(f"peak memory: baseline process {self_peak:.0f} MiB, largest errdex process {child_peak:.0f} MiB")
    print(f"sites {stats.get('sites')}, files read {stats.get('files_read')}, "
          f"raise_site_share {stats.get('raise_site_share')}, literal8_share {stats.get('literal8_share')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
