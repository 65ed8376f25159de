"""A method of what a public function returns (``barlib.progress(...).steps``, ``prove/search_strategies.py``):
the search makes the object with the function's arguments, takes the first item of a generator method, and, for
an object that must be entered first, tries it in its ``with`` block as the after, on a small progress-bar
library (tests/fixtures/prove_barlib) whose bar refuses to run outside ``with``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from errdex.catalog import open_catalog
from errdex.prove.mistake import only_drops
from errdex.prove.search import SEARCH_SCRIPT, targets_for

from .provekit import cli

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_barlib"


def test_the_made_object_is_used_in_its_with_block(tmp_path: Path) -> None:
    pkg = tmp_path / "barlib"
    shutil.copytree(FIXTURE, pkg)
    db = str(tmp_path / "c.sqlite")
    r = cli("index", str(pkg), "--repo", "acme/barlib", "--ref", "1.0", "--db", db, home=tmp_path / "home")
    assert r.returncode == 0, r.stderr
    cat = open_catalog(db)
    key = cat.snapshots("acme/barlib")[-1].key
    site = next(s for s in cat.sites(key) if "with block" in s.template.render())
    targets = [t.request() for t in targets_for(cat, key, [site.error_id])]
    cat.close()
    assert targets and "barlib.progress(...).steps" in targets[0]["entries"]  # type: ignore[operator]
    req, out, work = tmp_path / "in.json", tmp_path / "out.json", tmp_path / "work"
    work.mkdir()
    req.write_text(json.dumps({"package": "barlib", "budget_s": 5.0, "seed": 0, "targets": targets}))
    p = subprocess.run([sys.executable, str(SEARCH_SCRIPT), str(req), str(out)], cwd=work,
                       env={**os.environ, "PYTHONPATH": str(pkg)}, capture_output=True, text=True, timeout=300,
                       check=False)
    assert p.returncode == 0, p.stderr
    got = json.loads(out.read_text())["results"][0]
    before, afters = str(got["before"]), [str(a) for a in got["afters"]]
    assert "for item in barlib.progress(" in before and ").steps():" in before, got
    assert afters[0].startswith("import barlib\n\nwith barlib.progress(") and "    for item in bar.steps():" in afters[0]
    for code, rc in ((before, 1), (afters[0], 0)):
        run = subprocess.run([sys.executable, "-c", code], cwd=work, env={**os.environ, "PYTHONPATH": str(pkg)},
                             capture_output=True, text=True, timeout=60, check=False)
        assert run.returncode == rc, run.stderr
    assert not only_drops(before, afters[0])
