"""A guard that asks ``issubclass(x, C)`` (``prove/guard_values.py``): the search draws the package's classes of kind
C, by name, and the after calls the class (an instance where the class was passed), on a small converter library
(tests/fixtures/prove_typelib) whose ``convert_type`` refuses an uninstantiated parameter type."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from errdex.catalog import open_catalog
from errdex.prove.guard_values import guard_values
from errdex.prove.mistake import only_drops
from errdex.prove.search import SEARCH_SCRIPT, targets_for

from .provekit import cli

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_typelib"


def test_a_class_is_drawn_and_the_after_instantiates_it(tmp_path: Path) -> None:
    pkg = tmp_path / "typelib"
    shutil.copytree(FIXTURE, pkg)
    db = str(tmp_path / "c.sqlite")
    r = cli("index", str(pkg), "--repo", "acme/typelib", "--ref", "1.0", "--db", db, home=tmp_path / "home")
    assert r.returncode == 0, r.stderr
    cat = open_catalog(db)
    key = cat.snapshots("acme/typelib")[-1].key
    site = next(s for s in cat.sites(key) if "uninstantiated" in s.template.render())
    assert guard_values(site).classes == ("ParamType",)
    targets = [t.request() for t in targets_for(cat, key, [site.error_id])]
    cat.close()
    assert targets and targets[0]["classes"] == ["ParamType"]
    req, out, work = tmp_path / "in.json", tmp_path / "out.json", tmp_path / "work"
    work.mkdir()
    req.write_text(json.dumps({"package": "typelib", "budget_s": 5.0, "seed": 0, "targets": targets}))
    p = subprocess.run([sys.executable, str(SEARCH_SCRIPT), str(req), str(out)], cwd=work,
                       env={**os.environ, "PYTHONPATH": str(pkg)}, capture_output=True, text=True, timeout=300,
                       check=False)
    assert p.returncode == 0, p.stderr
    got = json.loads(out.read_text())["results"][0]
    before, afters = str(got["before"]), [str(a) for a in got["afters"]]
    assert "convert_type(ty=typelib." in before and "Choice" not in before  # a class a call without arguments builds
    cls = before.split("ty=", 1)[1].split(")", 1)[0]
    assert afters[0].endswith(f"convert_type(ty={cls}())\n")  # the class called, not the argument left out
    assert not only_drops(before, afters[0])
