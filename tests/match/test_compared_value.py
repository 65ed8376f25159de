"""An assert whose text states the comparison the value failed: beartype 0.23.1 writes ``assert indent_level > 0,
f'{indent_level} <= 0.'`` (``_data/check/code/datacodeindent.py``) and ``assert pith_index >= 0, f'{pith_index} <
0.'`` (``_check/code/snip/codesnipcls.py``, and five more such asserts).  The text has no word to be looked up by
(``0`` is too short to index), so ``AssertionError: -1 <= 0.`` found no template and fell back to a class guess.
A template that is one value then a comparison with a number is found by its literal text and verified like the
other wordless ones; with so little literal text it is never confident, and the sites of one text tie.  The
package is written in that shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

INDENT = '''
class IndentLevelToCode(dict):
    def __missing__(self, indent_level):
        assert isinstance(indent_level, int), f"{repr(indent_level)} not integer."
        assert indent_level > 0, f"{indent_level} <= 0."
        code = "    " * indent_level
        self[indent_level] = code
        return code
'''

SNIP = '''
class PithIndexToVarName(dict):
    def __missing__(self, pith_index):
        assert isinstance(pith_index, int), f"{repr(pith_index)} not integer."
        assert pith_index >= 0, f"{pith_index} < 0."
        name = f"__pith_{pith_index}"
        self[pith_index] = name
        return name


def get_args_of_len(hint, args_len):
    assert isinstance(args_len, int), f"{repr(args_len)} not integer."
    assert args_len >= 1, f"{args_len} < 0."
    return hint.__args__[:args_len]
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "compared", "snipcode",
                               {"__init__.py": "", "indent.py": INDENT, "snip.py": SNIP})


@pytest.mark.parametrize("text", ["AssertionError: -1 <= 0.", "0 <= 0."])
def test_the_value_compared_is_found(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    assert r.matches and r.matches[0].qualname == "IndentLevelToCode.__missing__"
    assert r.matches[0].method == "exact" and not r.matches[0].confident


def test_the_sites_of_one_comparison_tie(lib: Catalog) -> None:
    r = explain(lib, "AssertionError: -1 < 0.")
    top = r.matches[0]
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"PithIndexToVarName.__missing__", "get_args_of_len"}
    assert not top.confident


def test_another_comparison_is_not_it(lib: Catalog) -> None:
    r = explain(lib, "AssertionError: -1 >= 0.")
    assert not any(m.method == "exact" for m in r.matches)
