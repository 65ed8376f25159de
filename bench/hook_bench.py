"""Benchmark: what the runtime hook (``errdex hook install``) costs a Python environment.

Two identical virtual environments of one interpreter (Python 3.11 when
found, else this one), each holding only click (copied from errdex's own
environment, as pip would unpack it); the hook is installed into one.  All
measured in the same run:

- start-up: ``python -c pass`` in both, interleaved; the ratio of the medians
  and their difference in milliseconds (target: <= 5 ms), plus the hook's own
  line of ``python -X importtime``;
- first error: a script raising click's ``BadParameter``, in the hooked
  environment with a fresh catalog: click is not indexed, so this run indexes
  and analyses it (``installed:click``) before answering;
- later errors: the same script again (median of ``--rounds``), against the
  same script with ``ERRDEX_HOOK=0`` (Python printing the traceback alone):
  the difference is what the explanation costs.

Usage: ``.venv/bin/python bench/hook_bench.py [--rounds 11] [--python PATH]``
"""

from __future__ import annotations

import argparse
import glob
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPT = """import click

@click.command()
@click.option("--count", type=int)
def main(count):
    print(count)

main(["--count", "x"], standalone_mode=False)
"""


def find_python() -> str:
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    for c in [shutil.which("python3.11"), *sorted(glob.glob(os.path.join(root, "versions", "3.11*", "bin", "python3")))]:
        if c and subprocess.run([c, "-c", "import sys; raise SystemExit(sys.version_info[:2] != (3, 11))"],
                                capture_output=True, check=False).returncode == 0:
            return c
    return sys.executable


def make_venv(python: str, target: Path) -> Path:
    import click

    from errdex.sources.interpreter import probe

    subprocess.run([python, "-m", "venv", "--without-pip", str(target)], check=True, capture_output=True)
    exe = target / "bin" / "python"
    site = Path(probe(str(exe)).purelib)
    pkg = Path(click.__file__).parent
    shutil.copytree(pkg, site / "click", ignore=shutil.ignore_patterns("__pycache__"))
    for info in pkg.parent.glob("click-*.dist-info"):
        shutil.copytree(info, site / info.name)
    subprocess.run([str(exe), "-m", "compileall", "-q", str(site)], check=True, capture_output=True)
    return exe


def wall(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, str]:
    return timed(cmd, env, cwd)[0::2]  # type: ignore[return-value]


def timed(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    """(wall, cpu, stderr) of one run; cpu is user + system of the child, steadier on a loaded machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, proc.stderr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--startup-rounds", type=int, default=41)
    ap.add_argument("--python", help="the interpreter of the two environments (default: a 3.11, else this one)")
    args = ap.parse_args()

    from errdex.runtime import installer

    python = args.python or find_python()
    work = Path(tempfile.mkdtemp(prefix="errdex-hook-bench-"))
    try:
        plain = make_venv(python, work / "plain")
        hooked = make_venv(python, work / "hooked")
        installer.install(str(hooked))
        base_env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "ERRDEX_"))}
        env = {**base_env, "ERRDEX_HOME": str(work / "home")}
        script = work / "app.py"
        script.write_text(SCRIPT)
        print(f"interpreter: {python} ({subprocess.run([python, '--version'], capture_output=True, text=True).stdout.strip()})")

        # start-up, interleaved
        for _ in range(5):
            wall([str(plain), "-c", "pass"], env, work)
            wall([str(hooked), "-c", "pass"], env, work)
        runs: dict[str, list[tuple[float, float]]] = {"without": [], "with": []}
        for _ in range(args.startup_rounds):
            runs["without"].append(timed([str(plain), "-c", "pass"], env, work)[:2])
            runs["with"].append(timed([str(hooked), "-c", "pass"], env, work)[:2])
        for i, what in ((0, "wall"), (1, "cpu")):
            a = statistics.median(r[i] for r in runs["without"])
            b = statistics.median(r[i] for r in runs["with"])
            print(f"start-up ({what}), {args.startup_rounds} interleaved rounds: without the hook {a * 1000:.1f} ms, "
                  f"with it {b * 1000:.1f} ms: ratio {b / a:.3f}x, {(b - a) * 1000:+.2f} ms (target <= 5 ms)")
        own = []
        for _ in range(args.startup_rounds):
            imp = subprocess.run([str(hooked), "-X", "importtime", "-c", "pass"], env=env, capture_output=True,
                                 text=True, check=False)
            line = [x for x in imp.stderr.splitlines() if x.rstrip().endswith("_errdex_hook")]
            if line:
                own.append(int(line[0].split("|")[1]))
        print(f"  the hook's own import (python -X importtime, cumulative, median of {len(own)}): "
              f"{statistics.median(own) / 1000:.2f} ms" if own else "  the hook was not imported!")

        # first error: click is indexed from the environment, then explained
        first, err = wall([str(hooked), str(script)], env, work)
        assert "errdex: click.exceptions.BadParameter" in err, err[-2000:]
        off_env = {**env, "ERRDEX_HOOK": "0"}
        bare = statistics.median(wall([str(hooked), str(script)], off_env, work)[0] for _ in range(args.rounds))
        print(f"first error (indexes and analyses click, builds the match index): {first:.2f} s "
              f"(the script alone, ERRDEX_HOOK=0: {bare * 1000:.0f} ms)")

        # later errors, interleaved with the bare script
        later, alone = [], []
        for _ in range(args.rounds):
            t, c, err = timed([str(hooked), str(script)], env, work)
            assert "errdex: click.exceptions.BadParameter" in err, err[-2000:]
            later.append((t, c))
            alone.append(timed([str(hooked), str(script)], off_env, work)[:2])
        for i, what in ((0, "wall"), (1, "cpu")):
            lt, al = statistics.median(x[i] for x in later), statistics.median(x[i] for x in alone)
            print(f"later errors ({what}), {args.rounds} interleaved rounds: {lt * 1000:.0f} ms with the "
                  f"explanation, {al * 1000:.0f} ms without: the explanation adds {(lt - al) * 1000:.0f} ms")
        print("\n" + err[err.index("errdex:"):].rstrip())
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
