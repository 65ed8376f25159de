"""``KeyError`` prints the ``repr`` of its argument, escapes and all: hdmf 6.2.0's ``AlignedDynamicTable.add_row``
raises ``KeyError('\\n'.join(['row data keys do not match available categories', 'missing {} category keys:
{}'.format(len(missing), missing)]))``, which prints ``"row data keys ...\\nmissing 1 category keys: {'test1'}"``:
double quotes (the set's repr holds single ones) around a backslash and an ``n``, not a line break.  Its
template is that ``repr`` too, so the site matches exactly rather than losing to a class fallback (another
``raise KeyError(key)``).  The input is in the shape captured from hdmf's test suite
(``bench/data/hdmf-6.2.0.jsonl``); the library is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

TABLE = '''
class AlignedTable:
    def __init__(self, categories):
        self.categories = list(categories)

    def add_row(self, data):
        category_data = {k: data.pop(k) for k in self.categories if k in data}
        missing_categories = set(self.categories) - set(list(category_data.keys()))
        if missing_categories:
            raise KeyError(
                '\\n'.join([
                    'row data keys do not match available categories',
                    'missing {} category keys: {}'.format(len(missing_categories), missing_categories)
                ])
            )

    def rename(self, name):
        raise KeyError("bad name:\\tno " + name + " here")
'''

BUILDERS = '''
class Builder(dict):
    def __getitem__(self, key):
        if key not in self:
            raise KeyError(key)
        return super().__getitem__(key)

    def location(self, key):
        raise KeyError(f"'{key}' not found in {self!r}")
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "keyesc", "tbl",
                               {"__init__.py": "", "table.py": TABLE, "builders.py": BUILDERS})


MISSING = "\"row data keys do not match available categories\\nmissing 1 category keys: {'test1'}\""


@pytest.mark.parametrize("text", [f"KeyError: {MISSING}", MISSING])
def test_an_escaped_newline_in_a_key_errors_repr(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    top = r.matches[0]
    assert top.qualname == "AlignedTable.add_row" and top.method == "exact" and r.confident


def test_an_escaped_tab(lib: Catalog) -> None:
    r = explain(lib, "KeyError: 'bad name:\\tno x here'")
    assert r.matches[0].qualname == "AlignedTable.rename" and r.confident


def test_a_quoted_value_inside_still_reads(lib: Catalog) -> None:
    r = explain(lib, "KeyError: \"'k' not found in {'a': 1}\"")
    assert r.matches[0].qualname == "Builder.location"
