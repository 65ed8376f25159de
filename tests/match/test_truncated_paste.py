"""A message pasted without its end (the paste cut inside the template's text) is the beginning of that
site's message: it is named, unconfident, rather than the class fallback that lists the raises of the
printed class with no text (pint 0.26.2's ``DefinitionSyntaxError``, raised with text at some sites and
with a caller's at others)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.verify import truncated

ERRORS = '''
class DefinitionSyntaxError(ValueError):
    def __init__(self, msg):
        self.msg = msg

    def __str__(self):
        return self.msg
'''

PARSER = '''
from .errors import DefinitionSyntaxError


def build(names, valid):
    invalid = [n for n in names if n not in valid]
    if invalid:
        raise DefinitionSyntaxError(
            f"Cannot build a dimension container with {', '.join(invalid)} that is not a valid dimension name"
        )
    return dict.fromkeys(names, 1)


def check(text):
    if text.count("(") < text.count(")"):
        raise DefinitionSyntaxError("unopened parentheses in " + repr(text))


def from_string(line, parse):
    for definition in parse(line):
        if isinstance(definition, Exception):
            raise DefinitionSyntaxError(str(definition))
        return definition
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "cut", "dims",
                               {"__init__.py": "", "errors.py": ERRORS, "parser.py": PARSER})


def test_a_cut_paste_names_its_site(lib: Catalog) -> None:
    r = explain(lib, "dims.errors.DefinitionSyntaxError: Cannot build a dimension container with meter that is no")
    top = r.matches[0]
    assert (top.qualname, top.method, r.confident) == ("build", "fuzzy", False)


def test_a_text_of_no_site_keeps_the_class_fallback(lib: Catalog) -> None:
    top = explain(lib, "dims.errors.DefinitionSyntaxError: something else entirely went wrong").matches[0]
    assert top.method == "class"


def test_truncated() -> None:
    segs = ((True, "Cannot build a dimension container with "), (False, "x"), (True, " that is not a valid name"))
    assert truncated(segs, "Cannot build a dimension c")
    assert truncated(segs, "Cannot build a dimension container with meter that is no")
    assert not truncated(segs, "Cannot build a dimension container with meter that is not a valid name")
    assert not truncated(segs, "Cannot")  # too little of it to say
    assert not truncated(segs, "Cannot build a dimension container with meter")  # ends in a value: no cut seen
