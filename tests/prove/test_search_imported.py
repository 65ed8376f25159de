"""A raise in a private function of a public module that no public call reaches (``prove/search.py``,
``importable_as_written``): the function itself is the search's entry, as the import system reaches it
(``layoutlib.tiles._tiled_layout``); one in a private module (``layoutlib._impl``) is not, on a small layout
library (tests/fixtures/prove_layoutlib)."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.catalog import open_catalog
from errdex.prove.search import SEARCH_SCRIPT, targets_for

from .provekit import indexed_fixture, run_search

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_layoutlib"


def test_a_private_function_of_a_public_module_is_searched_as_written(tmp_path: Path) -> None:
    pkg, db = indexed_fixture(FIXTURE, "layoutlib", tmp_path)
    cat = open_catalog(db)
    key = cat.snapshots("acme/layoutlib")[-1].key
    sites = {s.template.render(): s for s in cat.sites(key)}
    tiled = next(s for t, s in sites.items() if "is not 2D" in t)
    hidden = next(s for t, s in sites.items() if "negative dimension" in t)
    got = {t.error_id: t for t in targets_for(cat, key, [tiled.error_id, hidden.error_id])}
    cat.close()
    assert got[tiled.error_id].entries == ("layoutlib.tiles._tiled_layout",) and got[tiled.error_id].imported
    assert got[hidden.error_id].entries == () and not got[hidden.error_id].imported  # a private module: not offered
    before, afters, _ = run_search(SEARCH_SCRIPT, "layoutlib", pkg, [got[tiled.error_id].request()], tmp_path)
    assert before.startswith("import layoutlib.tiles\n") and "layoutlib.tiles._tiled_layout(" in before
    assert afters and all("layoutlib.tiles._tiled_layout(" in a for a in afters)


def test_two_changes_when_one_gets_past_the_raise_and_a_later_check_stops_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """``sparse_meta(meta=(0, 0), bits=32)``: no single change runs clean (``meta=(0, 2)`` gets past the
    trailing-dimension check and stops at the bit width's); that change with ``bits=8`` does
    (``search_pairs.pair_variants``, through ``search_afters.clean_variants``)."""
    monkeypatch.syspath_prepend(str(FIXTURE))
    from errdex.prove import search_afters, search_run

    text = (FIXTURE / "layoutlib" / "tiles.py").read_text().splitlines()
    line = next(i for i, x in enumerate(text, 1) if "raise ValueError(f\"Expected the trailing" in x)
    s = search_run.Search({"path": "layoutlib/tiles.py", "line": line, "end_line": line}, "layoutlib", 1.0)
    plan = {"module": "layoutlib.tiles", "call": "sparse_meta", "ctor": None,
            "args": [("meta", None, ["(0, 2)"]), ("bits", None, ["8"])]}
    how = {"plan": plan, "ctor": None, "args": [("meta", "(0, 0)"), ("bits", "32")]}
    assert s.at_site(s.run("import layoutlib.tiles\nlayoutlib.tiles.sparse_meta(meta=(0, 0), bits=32)\n"))
    got = search_afters.clean_variants(s, how, 0, {}, nearby=False)
    assert got and got[0][0].endswith("layoutlib.tiles.sparse_meta(meta=(0, 2), bits=8)\n")
    from errdex.prove import search_pairs

    monkeypatch.setattr(search_pairs, "MAX_PAIRS", 0)  # (pair_variants lives in search_pairs.py)
    assert search_afters.clean_variants(s, how, 0, {}, nearby=False) == []  # one change alone: nothing runs clean
