"""A pasted message with no class that is one value and nothing else (``'akey'``: ``str()`` of webob
1.8.11's ``raise KeyError(key)``; ``some_attr`` of its ``raise AttributeError(attr)``) matches no
template's text: the sites whose message is only a value are the answer, one labelled, unconfident,
tied group (a ``KeyError`` prints its key quoted, so a quoted value is one of theirs and a bare word
is not)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from matchkit import index_package, indexed_catalog

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain

HEADERS = '''
class Headers:
    def __init__(self, items):
        self._items = list(items)

    def __getitem__(self, key):
        for k, v in self._items:
            if k.lower() == key.lower():
                return v
        raise KeyError(key)

    def __delitem__(self, key):
        n = len(self._items)
        self._items = [(k, v) for k, v in self._items if k.lower() != key.lower()]
        if len(self._items) == n:
            raise KeyError(key)

    def __getattr__(self, attr):
        if attr.startswith("_"):
            raise AttributeError(attr)
        return self[attr]

    def add(self, key, value):
        if not isinstance(value, str):
            raise TypeError("Header values must be strings")
        self._items.append((key, value))
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "values", "hdrs", {"__init__.py": "", "headers.py": HEADERS})


def test_a_quoted_value_is_one_of_the_key_errors(lib: Catalog) -> None:
    r = explain(lib, "'akey'")
    top = r.matches[0]
    group = {(top.qualname, top.line), *((t.qualname, t.line) for t in top.tied)}
    assert group == {("Headers.__getitem__", 10), ("Headers.__delitem__", 16)}
    assert top.method == "class" and not r.confident and "single value" in top.tie_note


def test_a_bare_word_is_no_key_error(lib: Catalog) -> None:
    top = explain(lib, "_secret").matches[0]
    assert (top.qualname, top.tied_count, top.confident) == ("Headers.__getattr__", 0, False)


def test_a_sentence_is_no_value(lib: Catalog) -> None:
    r = explain(lib, "no such header here")
    assert not r.matches or r.matches[0].method != "class"


def test_a_value_names_no_library_of_several(tmp_path: Path) -> None:
    db = str(tmp_path / "two.sqlite")
    index_package(tmp_path, "hdrs", {"__init__.py": "", "headers.py": HEADERS}, db)
    index_package(tmp_path, "other", {"__init__.py": "", "m.py": "def f(k):\n    raise KeyError(k)\n"}, db)
    catalog = open_catalog(db)
    try:
        r = explain(catalog, "'akey'")
        assert not r.matches or r.matches[0].method != "class"
    finally:
        catalog.close()
