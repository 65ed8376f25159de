"""The argument search for errors no test reaches (prove/search.py, search_script.py, guard_values.py), on a
small fixture package (tests/fixtures/prove_searchlib): what the guards give, which entries are searched, the
search itself (deterministic for a seed), and ``errdex prove --search`` end to end in the sandbox."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.model import ErrorSite
from errdex.prove.guard_values import guard_values
from errdex.prove.search import SEARCH_SCRIPT, targets_for

from .provekit import cli

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_searchlib"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("search")
    pkg = root / "searchlib"
    shutil.copytree(FIXTURE, pkg)
    db = str(root / "c.sqlite")
    r = cli("index", str(pkg), "--repo", "acme/searchlib", "--ref", "1.0", "--db", db, home=root / "home")
    assert r.returncode == 0, r.stderr
    return pkg, db


def _sites(cat: Catalog) -> tuple[str, dict[str, ErrorSite]]:
    snap = cat.snapshots("acme/searchlib")[-1]
    return snap.key, {s.template.render().split(" ")[0] + "|" + s.qualname: s for s in cat.sites(snap.key)}


def _site(sites: dict[str, ErrorSite], text: str) -> ErrorSite:
    return next(s for s in sites.values() if text in s.template.render())


def test_guard_values_compare_and_length(indexed: tuple[Path, str]) -> None:
    cat = open_catalog(indexed[1])
    _, sites = _sites(cat)
    alone = guard_values(_site(sites, "square mode"))
    assert alone.by_name["mode"] == ("'square'", "'squarex'", "''")  # compared values only, no truth values
    # the checks before this one (mode in the tuple, factor at most 100) and this one
    square = guard_values(_site(sites, "square mode"), [_site(sites, "unknown mode"), _site(sites, "at most 100")])
    assert "'square'" in square.by_name["mode"] and "'linear'" in square.by_name["mode"]
    assert square.by_name["factor"] == ("99", "100", "101")
    assert "[0, 0, 0, 0]" in square.by_name["values"] and "[0, 0, 0]" in square.by_name["values"]
    assert "'xxxx'" in square.by_name["values"]
    factor = guard_values(_site(sites, "at most 100"))
    assert factor.by_name["factor"][:3] == ("99", "100", "101")
    window = guard_values(_site(sites, "larger than the window"))
    assert window.by_name == {} and window.lines  # step > self.size: no constant, but a line to reach
    cat.close()


def test_targets_are_public_entries(indexed: tuple[Path, str]) -> None:
    cat = open_catalog(indexed[1])
    key, sites = _sites(cat)
    ts = {t.error_id: t for t in targets_for(cat, key, [s.error_id for s in sites.values()])}
    assert ts[_site(sites, "square mode").error_id].entries[0] == "searchlib.scale"
    assert ts[_site(sites, "larger than the window").error_id].entries[0] == "searchlib.Window.slide"
    # a private function of a public module, nothing calls it: the function itself, as the import system reaches it
    assert ts[_site(sites, "only reached").error_id].entries == ("searchlib.core._checked",)
    cat.close()


def _search(pkg: Path, targets: list[dict[str, object]], tmp: Path, seed: int = 0) -> dict[str, dict[str, object]]:
    req, out = tmp / "in.json", tmp / "out.json"
    req.write_text(json.dumps({"package": "searchlib", "budget_s": 5.0, "seed": seed, "targets": targets}))
    work = tmp / "work"
    work.mkdir(exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(pkg)}
    r = subprocess.run([sys.executable, str(SEARCH_SCRIPT), str(req), str(out)], cwd=work, env=env,
                       capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stderr
    return {str(x["error_id"]): x for x in json.loads(out.read_text())["results"]}


def test_search_script_finds_shrinks_and_repeats(indexed: tuple[Path, str], tmp_path: Path) -> None:
    """Run here with this interpreter (Hypothesis is a test dependency); errdex runs it in the sandbox."""
    pkg, db = indexed
    cat = open_catalog(db)
    key, sites = _sites(cat)
    wanted = [_site(sites, t) for t in ("square mode", "larger than the window", "at most 100", "unknown mode")]
    targets = [t.request() for t in targets_for(cat, key, [s.error_id for s in wanted])]
    cat.close()
    got = _search(pkg, targets, tmp_path)
    square = got[wanted[0].error_id]
    before = str(square["before"])
    assert before.startswith("import searchlib\n") and "mode='square'" in before and "searchlib.scale(" in before
    afters = [str(a) for a in square["afters"]]  # type: ignore[attr-defined]
    assert afters and all(a.startswith("import searchlib\n\nsearchlib.scale(") for a in afters)
    window = str(got[wanted[1].error_id]["before"])
    assert window.startswith("import searchlib\n\nsearchlib.Window(") and ").slide(" in window
    assert "factor=101" in str(got[wanted[2].error_id]["before"])  # the boundary the guard compares with
    assert got[wanted[3].error_id]["before"]
    (tmp_path / "again").mkdir()
    again = _search(pkg, targets, tmp_path / "again")
    assert {k: v["before"] for k, v in again.items()} == {k: v["before"] for k, v in got.items()}
    (tmp_path / "other").mkdir()
    other = _search(pkg, targets, tmp_path / "other", seed=7)  # another seed still finds every one
    assert all(v["before"] for v in other.values())


@pytest.mark.network
def test_prove_search_end_to_end(indexed: tuple[Path, str], tmp_path: Path) -> None:
    pkg, db = indexed
    r = cli("prove", "--search", "--budget", "5", "--artifact", str(pkg), "--package", "searchlib", "--db", db,
             "--json", home=tmp_path / "home")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)["search"]
    cat = open_catalog(db)
    key, sites = _sites(cat)
    by = {e["error_id"]: e for e in doc["errors"]}
    assert doc["unreached_sites"] == len(sites) == 6
    for text in ("square mode", "larger than the window", "at most 100", "unknown mode", "must not be negative"):
        site = _site(sites, text)
        assert by[site.error_id]["proven"], (text, by[site.error_id]["reason"])
        a = cat.get_analysis(site.error_id, key)
        assert a is not None and a.example_fix.proof is not None and a.example_fix.proof.candidate.startswith("search")
        assert a.example_fix.proof.before.error_id == site.error_id
        # an after that drops an argument gave way to one that keeps them all when one ran clean (keep.py)
        assert a.example_fix.proof.arguments == "kept" or a.example_fix.proof.arguments.startswith("drops ")
    assert "none of its argument variants ran clean" in by[_site(sites, "only reached").error_id]["reason"]
    assert doc["proven_pairs"] == 5 and doc["seconds_per_proof"] > 0
    cat.close()


def test_observed_errors_whose_test_proved_nothing_are_searched_when_the_search_can_try_them(
        indexed: tuple[Path, str]) -> None:
    from errdex.commands.prove_search import searchable_ids

    _, db = indexed
    cat = open_catalog(db)
    try:
        key, sites = _sites(cat)
        ids = [s.error_id for s in sites.values()]
        picked = searchable_ids(cat, key, [*ids, "0000000000000000"])
        assert picked and set(picked) <= set(ids) and "0000000000000000" not in picked  # unknown ids dropped
        assert searchable_ids(cat, key, []) == []
    finally:
        cat.close()
