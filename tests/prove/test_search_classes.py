"""A guard that asks ``issubclass(x, C)`` (``prove/guard_values.py``): the search draws the package's classes of kind
C, by name, and the after calls the class (an instance where the class was passed), on a small converter library
(tests/fixtures/prove_typelib) whose ``convert_type`` refuses an uninstantiated parameter type."""

from __future__ import annotations

from pathlib import Path

from errdex.catalog import open_catalog
from errdex.prove.guard_values import guard_values
from errdex.prove.mistake import only_drops
from errdex.prove.search import SEARCH_SCRIPT, targets_for

from .provekit import indexed_fixture, run_search

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_typelib"


def test_a_class_is_drawn_and_the_after_instantiates_it(tmp_path: Path) -> None:
    pkg, db = indexed_fixture(FIXTURE, "typelib", tmp_path)
    cat = open_catalog(db)
    key = cat.snapshots("acme/typelib")[-1].key
    site = next(s for s in cat.sites(key) if "uninstantiated" in s.template.render())
    assert guard_values(site).classes == ("ParamType",)
    targets = [t.request() for t in targets_for(cat, key, [site.error_id])]
    cat.close()
    assert targets and targets[0]["classes"] == ["ParamType"]
    before, afters, _ = run_search(SEARCH_SCRIPT, "typelib", pkg, targets, tmp_path)
    assert "convert_type(ty=typelib." in before and "Choice" not in before  # a class a call without arguments builds
    cls = before.split("ty=", 1)[1].split(")", 1)[0]
    assert afters[0].endswith(f"convert_type(ty={cls}())\n")  # the class called, not the argument left out
    assert not only_drops(before, afters[0])
