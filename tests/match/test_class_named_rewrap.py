"""A caught text re-raised after the name of the class that caught it: prophy 1.2.5's struct decoder
(``composite.py``) catches a field's ``ProphyError`` and raises ``ProphyError("{}: {}".format(
self.__class__.__name__, e))``, so ``XS: too few bytes to decode integer`` is the wrapper's text around the
scalar's.  Its template ``{self.__class__.__name__}: {e}`` has one character of literal text, less than a
rewrap needs (``wrap._rewraps``): the scalar's site, which does not explain ``XS: ``, was the answer.  A
leading class name and a caught placeholder make it a rewrap (``wholly`` reads the name as one word); a
template whose first placeholder is any value (``{key}: {e}``) still wraps nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

EXCEPTION = '''
class ProphyError(Exception):
    """Any encoding or decoding error."""
'''

SCALAR = '''
import struct

from codec.exception import ProphyError


def decode_integer(data, pos, size):
    if len(data) < pos + size:
        raise ProphyError("too few bytes to decode integer")
    return struct.unpack_from("<i", data, pos)[0], size
'''

COMPOSITE = '''
from codec.exception import ProphyError


class Struct:
    _descriptor = ()

    def decode(self, data):
        pos = 0
        for field in self._descriptor:
            try:
                pos += field.decode(self, data, pos)
            except ProphyError as e:
                raise ProphyError("{}: {}".format(self.__class__.__name__, e))
        return pos


def load(table, key):
    try:
        return table[key].load()
    except ProphyError as e:
        raise ProphyError("{}: {}".format(key, e))
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "class_named_rewrap", "codec",
                               {"__init__.py": "", "exception.py": EXCEPTION, "scalar.py": SCALAR,
                                "composite.py": COMPOSITE})


def test_the_class_named_wrapper_outranks_the_text_it_caught(lib: Catalog) -> None:
    r = explain(lib, "codec.exception.ProphyError: XS: too few bytes to decode integer")
    assert r.matches[0].qualname == "Struct.decode"
    assert r.matches[1].qualname == "decode_integer"  # the wrapped cause just below it


def test_the_bare_caught_text_is_still_the_scalars(lib: Catalog) -> None:
    assert explain(lib, "codec.exception.ProphyError: too few bytes to decode integer").matches[0].qualname \
        == "decode_integer"
