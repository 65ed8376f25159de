"""Tied sites in functions named for what they read: the value's first word names one function (geomet
1.1.0, round 22: ``Invalid WKT: `%s``` at fourteen sites, two in each ``_load_<type>``, the value being the
WKT text whose first word is that type; 28 events were a group of fourteen).  The group narrows to that
function's sites, and the answer is never confident on such a reading (``match/named.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain

WKT = '''
INVALID_WKT_FMT = "Invalid WKT: `%s`"


def _load_point(tokens, string):
    if next(tokens) != "(":
        raise ValueError(INVALID_WKT_FMT % string)
    return tokens


def _load_multipoint(tokens, string):
    if next(tokens) != "(":
        raise ValueError(INVALID_WKT_FMT % string)
    if next(tokens) != ")":
        raise ValueError(INVALID_WKT_FMT % string)
    return tokens


def _load_polygon(tokens, string):
    if next(tokens) != "(":
        raise ValueError(INVALID_WKT_FMT % string)
    return tokens
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root: Path = tmp_path_factory.mktemp("named")
    db = str(root / "c.sqlite")
    index_package(root, "wktkit", {"__init__.py": "", "wkt.py": WKT}, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


def test_the_values_first_word_names_the_function(lib: Catalog) -> None:
    r = explain(lib, "ValueError: Invalid WKT: `MULTIPOINT 0 1, 0 0`")
    top = r.matches[0]
    assert [top.qualname, *(t.qualname for t in top.tied)] == ["_load_multipoint"] * 2 and not r.confident
    assert "set aside" in top.tie_note


def test_one_site_named_is_still_not_confident(lib: Catalog) -> None:
    r = explain(lib, "Invalid WKT: `POINT 0.0 1.0`")
    assert r.matches[0].qualname == "_load_point" and r.matches[0].tied_count == 0 and not r.confident


def test_a_value_naming_no_function_keeps_the_tie(lib: Catalog) -> None:
    r = explain(lib, "Invalid WKT: `CIRCLE 0 1`")
    assert r.matches[0].tied_count == 3 and not r.confident


POINTER = '''
class JSONPointer:
    def _index(self, key):
        raise IndexError(f"pointer index error: {key}")

    def _getitem(self, key):
        raise IndexError(f"pointer index error: {key}")
'''


def test_functions_of_no_one_family_keep_the_tie(tmp_path: Path) -> None:
    # python-jsonpath 2.2.1 (round 20): `index out of range: 99` names `_index`, but `_index` and `_getitem`
    # are no family of functions named for what they read
    db = str(tmp_path / "p.sqlite")
    index_package(tmp_path, "ptrkit", {"__init__.py": "", "pointer.py": POINTER}, db)
    catalog = open_catalog(db)
    try:
        r = explain(catalog, "IndexError: pointer index error: index out of range: 99")
        assert r.matches[0].tied_count == 1
    finally:
        catalog.close()
