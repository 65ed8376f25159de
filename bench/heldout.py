"""Replay issue 17's held-out rounds from nothing: download each wheel, index it, measure.

The rounds and their sets are in ``bench/data/rounds.toml`` (a set = the distribution pip
downloads, ``name==version``, and the events captured from that library's own test suite).  For
each set of the rounds asked for, this

1. downloads the wheel once (``pip download --no-deps --only-binary :all: name==version`` into
   ``--wheels DIR``, default ``$ERRDEX_HOME/wheels``), the same file every later run reuses;
2. indexes it with **this checkout's** errdex (``python -m errdex index WHEEL --db CAT/<name>.sqlite``
   with ``PYTHONPATH`` on the ``src`` beside this script), after removing the old catalog and its
   stored match indexes, so that the figures are those of the code measured; ``--keep`` reuses a
   catalog already there (the match index is rebuilt all the same: it is matching code too);
3. replays the events with ``bench/match_heldout.py``'s evaluation (the tie rule) and prints, per
   round, a row per set and input mode and the round's pooled rows, then one line per round.

Run from an older commit's ``git archive`` (its own ``bench/heldout.py`` or this one with
``PYTHONPATH`` on its ``src``), the same command measures that code: nothing else is shared but the
wheel cache.  Usage::

    ERRDEX_HOME=... .venv/bin/python bench/heldout.py --round 11 --cat $ERRDEX_HOME/cat
    .venv/bin/python bench/heldout.py --round 4 --round 5 --cat DIR --misses misses.jsonl
    .venv/bin/python bench/heldout.py --round all --cat DIR      # rounds 1 to 11 (0 only when named)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
sys.path[:0] = [str(SRC), str(HERE)]  # this checkout's errdex, and match_heldout beside this file

from match_eval import INPUTS  # noqa: E402
from match_heldout import _row, evaluate  # noqa: E402

ROUNDS = HERE / "data" / "rounds.toml"


def load_rounds(path: Path) -> dict[int, dict[str, object]]:
    """Round number -> its table (``title``, ``sets``: ``dist`` and ``data`` each)."""
    with path.open("rb") as fh:
        return {int(r["n"]): r for r in tomllib.load(fh)["round"]}


def canonical(name: str) -> str:
    """A distribution's name as a wheel file spells it (PEP 427: runs of ``-_.`` are ``_``)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def find_wheel(wheels: Path, dist: str) -> Path | None:
    name, _, version = dist.partition("==")
    prefix = f"{canonical(name)}-{version}-"
    found = sorted(p for p in wheels.glob("*.whl") if p.name.lower().startswith(prefix))
    return found[0] if found else None


def fetch_wheel(wheels: Path, dist: str) -> Path:
    """The wheel of ``dist`` in the cache, downloaded first if it is not there."""
    if (wheel := find_wheel(wheels, dist)) is not None:
        return wheel
    wheels.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
                           "--dest", str(wheels), dist], capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"pip download {dist} failed:\n{done.stdout}{done.stderr}")
    if (wheel := find_wheel(wheels, dist)) is None:
        sys.exit(f"pip downloaded no wheel for {dist} into {wheels}")
    return wheel


def index(wheel: Path, db: Path, *, keep: bool, jobs: int) -> float:
    """Index ``wheel`` into ``db`` with this checkout's errdex; the seconds it took (0 when kept)."""
    for stale in db.parent.glob(db.name + ".match.*"):
        stale.unlink()
    if keep and db.exists():
        return 0.0
    for old in db.parent.glob(db.name + "*"):
        old.unlink()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")])))
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "errdex", "index", str(wheel), "--db", str(db), "--jobs", str(jobs)],
                   check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--round", action="append", required=True, metavar="N",
                    help="a round of rounds.toml (repeat for several; 'all' = every round but 0)")
    ap.add_argument("--cat", type=Path, required=True, help="directory of the catalogs, one per wheel")
    ap.add_argument("--wheels", type=Path, help="wheel cache (default $ERRDEX_HOME/wheels)")
    ap.add_argument("--keep", action="store_true", help="reuse a catalog already in --cat instead of reindexing")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes of each `errdex index` (default 2)")
    ap.add_argument("--misses", type=Path, help="write every miss as a JSON line (with its round) to this file")
    ap.add_argument("--rounds", type=Path, default=ROUNDS, help="the rounds file (default bench/data/rounds.toml)")
    args = ap.parse_args()

    rounds = load_rounds(args.rounds)
    wanted = _wanted(args.round, rounds)
    home = Path(os.environ.get("ERRDEX_HOME") or Path.home() / ".errdex")
    wheels = (args.wheels or home / "wheels").resolve()
    args.cat.mkdir(parents=True, exist_ok=True)
    misses: list[dict[str, object]] | None = [] if args.misses else None
    summary: list[tuple[int, dict[str, Counter[str]]]] = []
    indexed: set[Path] = set()
    for n in wanted:
        rnd = rounds[n]
        print(f"\n== round {n}: {rnd['title']}")
        print(f"{'data set':<24} {'input':<10} {'site ev':>7} {'top-1':>7} {'top-3':>7} {'conf-wrong':>16} {'empty':>5}")
        pooled = {name: Counter[str]() for name in INPUTS}
        notes: list[str] = []
        for s in rnd["sets"]:  # type: ignore[attr-defined]
            wheel = fetch_wheel(wheels, s["dist"])
            db = args.cat.resolve() / f"{canonical(s['dist'].partition('==')[0])}.sqlite"
            if db not in indexed:
                took = index(wheel, db, keep=args.keep, jobs=args.jobs)
                indexed.add(db)
                if took:
                    print(f"  (indexed {wheel.name} in {took:.0f} s)", file=sys.stderr)
            data = HERE / "data" / s["data"]
            found: list[dict[str, object]] | None = [] if misses is not None else None
            res = evaluate(str(db), data, found)
            if misses is not None and found is not None:
                misses.extend({"round": n, **m} for m in found)
            for name in INPUTS:
                pooled[name].update(res[name])
                _row(data.stem, name, res[name])
            excluded = res["traceback"]["filtered"] + res["traceback"]["rewritten"]
            if excluded:
                notes.append(f"{data.stem}: {excluded} events excluded, the truth unknown "
                             f"({res['traceback']['rewritten']} rewritten tracebacks, "
                             f"{res['traceback']['filtered']} filtered)")
        for name in INPUTS:
            _row(f"round {n}", name, pooled[name])
        for note in notes:
            print(note)
        summary.append((n, pooled))
    if misses is not None:
        args.misses.write_text("".join(json.dumps(m, default=str) + "\n" for m in misses))
    _summary(summary)


def _wanted(asked: list[str], rounds: dict[int, dict[str, object]]) -> list[int]:
    out: list[int] = []
    for text in asked:
        for item in text.split(","):
            ns = [n for n in sorted(rounds) if n] if item == "all" else [int(item)]
            for n in ns:
                if n not in rounds:
                    sys.exit(f"no round {n} in the rounds file (rounds: {', '.join(map(str, sorted(rounds)))})")
                if n not in out:
                    out.append(n)
    return out


def _summary(summary: list[tuple[int, dict[str, Counter[str]]]]) -> None:
    """One line per round: site events / all, top-1 and top-3 per mode, confident-wrong per mode."""
    print("\nround  site ev / all   top-1 tb / last / msg    top-3 tb / last / msg    confident-wrong tb / last / msg")
    for n, c in summary:
        t, ll, m = (c[name] for name in INPUTS)

        def pct(k: str, x: Counter[str], base: str = "n") -> str:
            return f"{100 * x[k] / max(x[base], 1):.1f}"

        cw = " / ".join(f"{x['cw']}" for x in (t, ll, m))
        cwp = " / ".join(pct("cw", x, "n_all") for x in (t, ll, m))
        print(f"{n:>5}  {t['n']:>7} / {t['n_all']:<5} {pct('top1', t):>6} / {pct('top1', ll)} / {pct('top1', m)}%"
              f"   {pct('top3', t):>6} / {pct('top3', ll)} / {pct('top3', m)}%   {cw} ({cwp}%)")


if __name__ == "__main__":
    main()
