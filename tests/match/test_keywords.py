"""Tied sites of a class-built text told apart by the keyword arguments it prints (dataclass-wizard 1.0.0,
round 24: ``ParseError`` prints each extra keyword of its raise as a ``  name: value`` line, and twenty-nine
sites raise it).  The sites passing the keywords the text shows are kept, as a hint: not confident; a text
showing none stays the whole group (``match/keywords.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from kwerrors import PARSE_ERROR
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain

CONVERT = '''
from .errors import ParseError


def as_enum(o, base_type):
    try:
        return base_type[o]
    except KeyError as e:
        raise ParseError(e, o, "load", valid_values=list(base_type.__members__), lookup_key=o)


def as_pattern(o, pattern):
    if not pattern.match(o):
        raise ParseError(ValueError("no match"), o, "load", pattern=pattern.pattern)
    return o


def as_int(o):
    try:
        return int(o)
    except ValueError as e:
        raise ParseError(e, o, "load")


def as_float(o):
    try:
        return float(o)
    except ValueError as e:
        raise ParseError(e, o, "load", _field_name="x")
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root: Path = tmp_path_factory.mktemp("keywords")
    db = str(root / "c.sqlite")
    index_package(root, "wizardkit", {"__init__.py": "", "errors.py": PARSE_ERROR, "convert.py": CONVERT}, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


def test_the_keywords_the_text_prints_pick_the_raise_passing_them(lib: Catalog) -> None:
    r = explain(lib, "wizardkit.errors.ParseError: Failed to load value 'Hello'.\n  error: 'Hello'\n"
                     "  valid_values: ['CAMEL', 'SNAKE']\n  lookup_key: 'Hello'")
    top = r.matches[0]
    assert top.qualname == "as_enum" and top.tied_count == 0 and not r.confident
    assert "keyword arguments" in top.tie_note


def test_a_text_printing_no_keyword_stays_a_tie(lib: Catalog) -> None:
    r = explain(lib, "wizardkit.errors.ParseError: Failed to load value 'x'.\n  error: invalid literal for int()")
    top = r.matches[0]
    assert sorted([top.qualname, *(t.qualname for t in top.tied)]) == ["as_enum", "as_float", "as_int", "as_pattern"]
    assert not r.confident
