"""A raise in a private function of a public module that no public call reaches (``prove/search.py``,
``importable_as_written``): the function itself is the search's entry, as the import system reaches it
(``layoutlib.tiles._tiled_layout``); one in a private module (``layoutlib._impl``) is not, on a small layout
library (tests/fixtures/prove_layoutlib)."""

from __future__ import annotations

from pathlib import Path

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
