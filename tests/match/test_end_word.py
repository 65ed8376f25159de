"""Tied sites told apart by the word a value ends with, the whole name of one function of the group
(cyclopts 4.x, issue 17's seventy-second round: ``CoercionError`` prints ``Invalid value for {keyword}:
unable to convert "{token}" into {type}.`` at twenty sites, one small converter a type among them; ``into
bool.`` names ``_bool``).  The group narrows to that function's sites and the answer stays unconfident
(``match/endword.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

CONVERT = '''
class CoercionError(ValueError):
    def __init__(self, keyword, token, target_type):
        self.keyword = keyword
        self.token = token
        self.target_type = target_type

    def __str__(self):
        return f'Invalid value for {self.keyword}: unable to convert "{self.token}" into {self.target_type.__name__}.'


def _bool(keyword, s):
    s = s.lower()
    if s in {"yes", "y", "1", "true", "t"}:
        return True
    if s in {"no", "n", "0", "false", "f"}:
        return False
    raise CoercionError(keyword, s, bool)


def _bytes(keyword, s):
    try:
        return s.encode("utf-8")
    except UnicodeError:
        raise CoercionError(keyword, s, bytes) from None


def _convert_tuple(keyword, type_, tokens):
    if len(tokens) != 2:
        raise CoercionError(keyword, tokens, type_)
    return tuple(tokens)


def _convert(keyword, type_, token):
    try:
        return type_(token)
    except ValueError:
        raise CoercionError(keyword, token, type_) from None


def get_enum_member(keyword, type_, token):
    try:
        return type_[token.upper()]
    except KeyError:
        raise CoercionError(keyword, token, type_) from None
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "endword", "clikit", {"__init__.py": "", "convert.py": CONVERT})


def test_the_values_last_word_names_the_function(lib: Catalog) -> None:
    r = explain(lib, 'clikit.convert.CoercionError: Invalid value for --flag: unable to convert "2" into bool.')
    top = r.matches[0]
    assert top.qualname == "_bool" and top.tied_count == 0 and not r.confident
    assert "ends with 'bool'" in top.tie_note and "set aside" in top.tie_note


def test_a_word_naming_no_function_alone_keeps_the_tie(lib: Catalog) -> None:
    # ``int`` is converted by the general ``_convert``: no function is named ``int``, the tie stands
    r = explain(lib, 'Invalid value for --count: unable to convert "x" into int.')
    top = r.matches[0]
    assert top.tied_count == 4 and not r.confident and "ends with" not in top.tie_note


def test_a_name_of_several_words_is_not_named_by_one_of_them(lib: Catalog) -> None:
    # ``tuple`` is the last word of ``_convert_tuple``, not its whole name: no narrowing
    r = explain(lib, 'Invalid value for --pair: unable to convert "a" into tuple.')
    assert r.matches[0].tied_count == 4 and not r.confident


BUILDER = '''
class DuplicateSectionError(ValueError):
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return f"Section {self.name!r} already exists"


class BlockBuilder:
    def __init__(self, names):
        self._names = names

    def section(self, name):
        if name in self._names:
            raise DuplicateSectionError(name)
        self._names.append(name)

    def add_section(self, name):
        if name in self._names:
            raise DuplicateSectionError(name)
        self._names.append(name)

    def rename(self, old, name):
        if name in self._names:
            raise DuplicateSectionError(name)
        self._names[self._names.index(old)] = name
'''


@pytest.fixture(scope="module")
def builder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "endword_quoted", "cfgkit", {"__init__.py": "", "builder.py": BUILDER})


def test_a_quoted_word_cites_the_input_and_names_nothing(builder: Catalog) -> None:
    # configupdater's shape: the user's section name ``'new_section'`` ends with ``section`` by chance; a quoted
    # part is what was handed in, not what handled it, so the tie of the three raises stands
    r = explain(builder, "Section 'new_section' already exists")
    assert r.matches[0].tied_count == 2 and not r.confident and "ends with" not in r.matches[0].tie_note
