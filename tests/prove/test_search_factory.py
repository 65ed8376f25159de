"""A method of what a public function returns (``barlib.progress(...).steps``, ``prove/search_strategies.py``):
the search makes the object with the function's arguments, takes the first item of a generator method, and, for
an object that must be entered first, tries it in its ``with`` block as the after, on a small progress-bar
library (tests/fixtures/prove_barlib) whose bar refuses to run outside ``with``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from errdex.catalog import open_catalog
from errdex.prove.mistake import only_drops
from errdex.prove.search import SEARCH_SCRIPT, targets_for

from .provekit import indexed_fixture, run_search

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_barlib"


def test_the_made_object_is_used_in_its_with_block(tmp_path: Path) -> None:
    pkg, db = indexed_fixture(FIXTURE, "barlib", tmp_path)
    cat = open_catalog(db)
    key = cat.snapshots("acme/barlib")[-1].key
    site = next(s for s in cat.sites(key) if "with block" in s.template.render())
    targets = [t.request() for t in targets_for(cat, key, [site.error_id])]
    cat.close()
    assert targets and "barlib.progress(...).steps" in targets[0]["entries"]  # type: ignore[operator]
    before, afters, work = run_search(SEARCH_SCRIPT, "barlib", pkg, targets, tmp_path)
    assert "for item in barlib.progress(" in before and ").steps():" in before, before
    assert afters[0].startswith("import barlib\n\nwith barlib.progress(") and "    for item in bar.steps():" in afters[0]
    for code, rc in ((before, 1), (afters[0], 0)):
        run = subprocess.run([sys.executable, "-c", code], cwd=work, env={**os.environ, "PYTHONPATH": str(pkg)},
                             capture_output=True, text=True, timeout=60, check=False)
        assert run.returncode == rc, run.stderr
    assert not only_drops(before, afters[0])
