"""Replay one real corpus (bench/data/packaging-26.4.jsonl: 243 events from packaging's own test
suite) against a catalog of the packaging 26.4 that errdex's own environment installs, and hold
the figures above floors well below the measured ones (docs/matching.md, "With the tie rule").

Measured: top-1 100.0 / 98.7 / 94.0 % (traceback / last line / message), confident-wrong
0.0 / 0.4 / 1.2 %.  The floors catch a regression of matching as a whole, not a point."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "bench" / "data" / "packaging-26.4.jsonl"
FLOORS = {"traceback": (0.97, 0.01), "last_line": (0.9, 0.02), "message": (0.85, 0.03)}  # (top-1 >=, cw <=)

pytestmark = pytest.mark.slow


def test_packaging_corpus_stays_above_its_floors(tmp_path: Path) -> None:
    if importlib.metadata.version("packaging") != "26.4":
        pytest.skip("the corpus was captured from packaging 26.4; this environment has another version")
    db = tmp_path / "packaging.sqlite"
    env = dict(os.environ, ERRDEX_HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "errdex", "index", "installed:packaging", "--db", str(db)],
                          capture_output=True, text=True, env=env, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from match_heldout import evaluate
    finally:
        sys.path.remove(str(ROOT / "bench"))
    result = evaluate(str(db), DATA)
    for mode, (top1, cw) in FLOORS.items():
        c = result[mode]
        assert c["n"] >= 200 and c["n_all"] + c["empty"] == 243, (mode, dict(c))  # empty: no message to paste
        assert c["top1"] / c["n"] >= top1, (mode, dict(c))
        assert c["cw"] / c["n_all"] <= cw, (mode, dict(c))
