"""An exception's ``__str__`` that extends the caller's text on branches before framing it: jsonmerge 1.9.2's
``JSONMergeError.__str__`` does ``r = self.message``, ``if ref is not None: r = "%s: %s" % (r, ref)``, then
``if self.strategy_name is not None: r = "'%s' merge strategy: %s" % (self.strategy_name, r)``.  The local
``r`` in the last format was read as an opaque value (it holds one of two texts built from the parameter),
so every raise of the class printed ``'{strategy_name}' merge strategy: {r}`` and sixteen sites tied on any
message.  A local made from a parameter's text as passed (extended, edited, on branches) is now followed
into the format; one that shows a value (``{value!r}``) stays a placeholder, as does a sum (idna's
``position = offset + match.start() + 1``, which the IR would read as text after text).  The package is written in
that shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

EXCEPTIONS = '''
class MergeError(Exception):
    def __init__(self, message, value=None, strategy_name=None):
        self.message = message
        self.value = value
        self.strategy_name = strategy_name

    def __str__(self):
        r = self.message

        try:
            ref = self.value.ref
        except AttributeError:
            ref = None

        if ref is not None:
            r = "%s: %s" % (r, ref)

        if self.strategy_name is not None:
            r = "'%s' merge strategy: %s" % (self.strategy_name, r)

        return r


class BaseInstanceError(MergeError):
    pass


class HeadInstanceError(MergeError):
    pass
'''

STRATEGIES = '''
from jmerge.exceptions import BaseInstanceError, HeadInstanceError


class Strategy:
    def merge(self, walk, base, head, schema, **kwargs):
        raise NotImplementedError


class Append(Strategy):
    def merge(self, walk, base, head, schema, **kwargs):
        if not walk.is_type(head, "array"):
            raise HeadInstanceError("Head is not an array", head)
        if not walk.is_type(base, "array"):
            raise BaseInstanceError("Base is not an array", base)
        return base + head


class ObjectMerge(Strategy):
    def merge(self, walk, base, head, schema, **kwargs):
        if not walk.is_type(head, "object"):
            raise HeadInstanceError("Head is not an object", head)
        if not walk.is_type(base, "object"):
            raise BaseInstanceError("Base is not an object", base)
        return {**base, **head}


def check_key(text, offset):
    start = text.find("$")
    if start >= 0:
        position = offset + start + 1
        raise BaseInstanceError(f"Bad character at position {position}", None)
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "built", "jmerge",
                               {"__init__.py": "", "exceptions.py": EXCEPTIONS, "strategies.py": STRATEGIES})


@pytest.mark.parametrize(("text", "line"), [
    ("'append' merge strategy: Head is not an array: #", 13),
    ("'objectMerge' merge strategy: Base is not an object: #/foo", 24),
    ("Base is not an array: #/a", 15),
    ("jmerge.exceptions.HeadInstanceError: 'objectMerge' merge strategy: Head is not an object: #", 22),
])
def test_the_raise_of_the_framed_text_is_found(lib: Catalog, text: str, line: int) -> None:
    r = explain(lib, text)
    assert (r.matches[0].line, r.matches[0].method) == (line, "exact")
    assert not r.matches[0].tied


def test_a_sum_of_a_parameter_stays_a_value(lib: Catalog) -> None:
    r = explain(lib, "Bad character at position 4")
    assert (r.matches[0].qualname, r.matches[0].method) == ("check_key", "exact")
    assert r.matches[0].template == "Bad character at position {position}"
