"""A re-raise that prints a caught exception's text (``except TypeError as err: raise ValueError(str(err))``)
ties with a raise of the caught class only when its ``try`` body can raise that text: the raise sits on
the body's lines, or the body calls the function holding it (extraction then gives the re-raise that
text, ``extract/forwarded.py``).  A body that raises the class from elsewhere (``a + b``: the
interpreter's ``TypeError``) is no tie of every ``raise TypeError(...)`` of the package (elementpath's
``raise self.error('XPTY0004', err)`` around its operators: 30-40 such re-raises)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.index import index_for
from errdex.match.indexdata import BY_CAUGHT, S_QUAL, T_SITE

CHECKS = '''
class SpecError(Exception):
    pass


class Spec:
    def __call__(self, data):
        if not data:
            raise SpecError("the spec found no data to read")
        return data


class Vocab:
    def term(self, name):
        raise KeyError(f"no term '{name}' in this vocabulary")

    def __getattr__(self, name):
        try:
            return self.term(name)
        except KeyError as e:
            raise AttributeError(e)


def need_name(name):
    if not isinstance(name, str):
        raise TypeError("the name must be a string of letters")


def need_size(size):
    if not isinstance(size, int):
        raise TypeError("the size must be a whole number of bytes")
'''

OPS = '''
from tlib.checks import need_size, SpecError


class OpError(Exception):
    pass


def add(a, b):
    try:
        return a + b
    except TypeError as err:
        raise OpError(str(err)) from err


def scale(a, factor):
    try:
        if not isinstance(factor, (int, float)):
            raise TypeError("the factor must be a number, not text")
        return a * factor
    except TypeError as err:
        raise OpError(str(err)) from err


def grow(buf, size):
    try:
        need_size(size)
    except TypeError as err:
        raise OpError(str(err)) from err
    return buf * size


def read_all(specs, data):
    for spec in specs:
        try:
            data = spec(data)
        except SpecError as e:
            raise OpError(e)
    return data
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "caught", "tlib",
                               {"__init__.py": "", "checks.py": CHECKS, "ops.py": OPS})


def test_a_body_that_cannot_raise_the_text_is_no_tie(lib: Catalog) -> None:
    r = explain(lib, "the name must be a string of letters")
    top = r.matches[0]
    assert top.qualname == "need_name"
    assert not top.tied  # `a + b`: the interpreter's TypeError, not a tie of every `raise TypeError`
    # though a call no one follows might reach it: not confident, the re-raises counted in the note
    assert not r.confident and "re-raises of a caught TypeError" in top.tie_note


def test_a_quoted_key_error_carried_by_the_re_raise_ties(lib: Catalog) -> None:
    r = explain(lib, "\"no term 'x' in this vocabulary\"")
    top = r.matches[0]
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"Vocab.term", "Vocab.__getattr__"}
    assert not r.confident


def test_a_raise_on_the_body_lines_ties(lib: Catalog) -> None:
    r = explain(lib, "the factor must be a number, not text")
    top = r.matches[0]
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"scale"}
    assert len(top.tied) == 1  # its own raise and the re-raise below it, not `add`'s
    assert not r.confident


def test_a_body_that_calls_the_raise_ties(lib: Catalog) -> None:
    r = explain(lib, "the size must be a whole number of bytes")
    top = r.matches[0]
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"need_size", "grow"}
    assert not r.confident


def test_a_body_catching_the_package_s_own_class_ties(lib: Catalog) -> None:
    # `spec(data)`, a parameter called: the call is not followed, but only the package raises
    # `SpecError`, so the body raised it at one of its raises, perhaps the top's
    r = explain(lib, "the spec found no data to read")
    top = r.matches[0]
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"Spec.__call__", "read_all"}
    assert not r.confident


def test_the_index_keeps_each_body_s_lines(lib: Catalog) -> None:
    idx = index_for(lib)
    spans = {idx.sites[idx.templates[t][T_SITE]][S_QUAL]: idx.try_lines.get(t)
             for t in idx.rewraps.get(BY_CAUGHT + "TypeError", ())}
    assert spans == {"add": (11, 11), "scale": (18, 20), "grow": (27, 27)}
