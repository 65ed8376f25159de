"""Benchmark: ``errdex explain`` as a whole process against ``python -c pass``.

Both are measured in the same run, interleaved (pass, explain, pass, explain,
...), so the ratio of the medians holds on a loaded machine where absolute
times do not.  Target: ratio <= 5.

- baseline: ``<errdex's python> -c pass`` (interpreter start-up and ``site``);
- errdex: the ``errdex`` console script, ``errdex explain TEXT --db CATALOG``,
  as a user (or the runtime hook) runs it; the catalog holds the jax 0.10.2
  wheel (5,800 templates) and its match index is already on disk (the first
  call after a catalog change builds it; that call is not timed).

Printed: median wall time of both and their ratio, the same for CPU time
(user + system of the child, steadier under load), and the top entries of
``python -X importtime`` for one explain (cumulative microseconds), i.e.
what the remaining start-up is spent on.

With ``--compare SRC`` (another checkout's ``src/``, e.g. a ``git archive`` of main) every round
also runs that errdex's explain (the same console script with ``PYTHONPATH=SRC``) between the
same baselines: before and after under the same load.

Usage: ``.venv/bin/python bench/explain_bench.py [--rounds 21] [--db CATALOG] [--compare SRC]``
(without ``--db`` the jax wheel is downloaded once into bench/out/wheels and
indexed once into bench/out/explain-jax.sqlite).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
MESSAGE = ("TypeError: grad requires real- or complex-valued inputs (input dtype that is a sub-dtype of "
           "np.inexact), but got int32. If you want to use Boolean- or integer-valued inputs, use vjp or "
           "set allow_int to True.")


def errdex_command() -> list[str]:
    """The console script beside this interpreter (what ``pip install`` / ``pipx`` put on PATH)."""
    script = Path(sys.executable).with_name("errdex")
    if script.exists():
        return [str(script)]
    found = shutil.which("errdex")
    return [found] if found else [sys.executable, "-m", "errdex"]


def jax_catalog() -> str:
    db = OUT / "explain-jax.sqlite"
    if not db.exists():
        from index_bench import fetch_wheel

        wheel = fetch_wheel("jax==0.10.2")
        print(f"indexing {wheel.name} into {db} (once) ...", flush=True)
        subprocess.run([*errdex_command(), "index", str(wheel), "--db", str(db)], check=True,
                       stdout=subprocess.DEVNULL)
    return str(db)


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, cpu) seconds of one run of ``cmd``; its output is checked to be an answer."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[:2]} failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def importtime(cmd: list[str], env: dict[str, str], top: int) -> list[tuple[int, int, str]]:
    """(cumulative us, self us, module) of the ``top`` imports by cumulative time, for one explain."""
    run = [sys.executable, "-X", "importtime", "-c", "import sys; from errdex.entry import main;"
           " sys.argv = ['errdex', *sys.argv[1:]]; main()", *cmd[1:]]
    proc = subprocess.run(run, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    rows = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, cum, name = (x.strip() for x in line.removeprefix("import time:").split("|"))
        rows.append((int(cum), int(own), name))
    return sorted(rows, reverse=True)[:top]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--db", help="an indexed catalog (default: the jax 0.10.2 wheel's, built once)")
    ap.add_argument("--text", default=MESSAGE)
    ap.add_argument("--top", type=int, default=15, help="importtime entries to print")
    ap.add_argument("--compare", metavar="SRC", help="also time the errdex of this src/ directory, interleaved")
    args = ap.parse_args()

    sys.path.insert(0, str(HERE))
    from index_bench import compile_errdex

    compile_errdex()  # as an installed errdex has: PYTHONDONTWRITEBYTECODE would recompile each run
    db = args.db or jax_catalog()
    env = {**os.environ, "ERRDEX_HOOK": "0"}
    explain = [*errdex_command(), "explain", args.text, "--db", db]
    baseline = [sys.executable, "-c", "pass"]
    other_env = None
    if args.compare:
        import compileall

        compileall.compile_dir(args.compare, quiet=1)
        other_env = {**env, "PYTHONPATH": str(Path(args.compare).resolve())}
    first = subprocess.run(explain, env=env, capture_output=True, text=True, check=True)  # builds the index once
    print(first.stdout.splitlines()[2] if len(first.stdout.splitlines()) > 2 else first.stdout)
    if other_env is not None:
        other = subprocess.run(explain, env=other_env, capture_output=True, text=True, check=True)
        if other.stdout != first.stdout:
            raise SystemExit(f"the --compare errdex answers differently:\n{other.stdout}")
    for _ in range(3):  # warm the page cache and the bytecode of both
        timed(baseline, env)
        timed(explain, env)
    base_w, base_c, ex_w, ex_c, ot_w, ot_c = [], [], [], [], [], []
    for _ in range(args.rounds):
        w, c = timed(baseline, env)
        base_w.append(w)
        base_c.append(c)
        w, c = timed(explain, env)
        ex_w.append(w)
        ex_c.append(c)
        if other_env is not None:
            w, c = timed(explain, other_env)
            ot_w.append(w)
            ot_c.append(c)
    bw, ew = statistics.median(base_w), statistics.median(ex_w)
    bc, ec = statistics.median(base_c), statistics.median(ex_c)
    print(f"rounds: {args.rounds} (interleaved); catalog: {db}; load average {os.getloadavg()[0]:.1f}")
    print(f"python -c pass   wall median {bw * 1000:7.1f} ms   cpu median {bc * 1000:7.1f} ms")
    print(f"errdex explain   wall median {ew * 1000:7.1f} ms   cpu median {ec * 1000:7.1f} ms")
    print(f"ratio (explain / python -c pass): wall {ew / bw:.2f}x   cpu {ec / max(bc, 1e-6):.2f}x   (target <= 5)")
    if other_env is not None:
        ow, oc = statistics.median(ot_w), statistics.median(ot_c)
        print(f"--compare errdex wall median {ow * 1000:7.1f} ms   cpu median {oc * 1000:7.1f} ms   "
              f"ratio: wall {ow / bw:.2f}x   cpu {oc / max(bc, 1e-6):.2f}x   (same answer: checked)")
    print(f"\npython -X importtime of one explain, top {args.top} by cumulative time:")
    print(f"{'cumulative us':>14} {'self us':>9}  module")
    for cum, own, name in importtime(explain, env, args.top):
        print(f"{cum:>14} {own:>9}  {name}")


if __name__ == "__main__":
    main()
