"""A library template that copies the interpreter's own wording (omegaconf 2.4.0's ``ListConfig.__setitem__``
raises ``ValueError(f"attempt to assign sequence of size {len(value)} to extended slice of size
{len(indexes)}")``, CPython's text for ``lst[::2] = [1, 2, 3]``; its test suite gets the same text from a
plain list too): from the message alone it is the best reading but no confident answer, as for the other
CPython wordings (``match/origin.py``); a traceback through the site decides."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

LISTCONFIG = '''
class ListConfig:
    def __setitem__(self, index, value):
        if isinstance(index, slice):
            indexes = range(*index.indices(len(self)))
            if index.step not in (None, 1) and len(value) != len(indexes):
                raise ValueError(
                    f"attempt to assign sequence of size {len(value)} to extended slice of size {len(indexes)}"
                )
        self._set(index, value)


class X509Name:
    def __setattr__(self, name, value):
        if not isinstance(name, str):
            raise TypeError(f"attribute name must be string, not '{type(name).__name__}'")
        super().__setattr__(name, value)


def int_to_bytes(value, signed=False, width=None):
    if width is not None and value.bit_length() > width * 8:
        raise OverflowError("int too big to convert")
    return value
'''

TEXT = "ValueError: attempt to assign sequence of size 3 to extended slice of size 2"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "mimic", "conf", {"__init__.py": "", "listconfig.py": LISTCONFIG})


def test_the_interpreter_wording_alone_is_not_confident(lib: Catalog) -> None:
    top = explain(lib, TEXT).matches[0]
    assert top.qualname == "ListConfig.__setitem__" and not top.confident


def test_a_traceback_through_the_site_decides(lib: Catalog) -> None:
    tb = ('Traceback (most recent call last):\n  File "/x/site-packages/conf/listconfig.py", line 7, in __setitem__\n'
          '    raise ValueError(\n' + TEXT)
    top = explain(lib, tb).matches[0]
    assert top.qualname == "ListConfig.__setitem__" and top.confident


def test_int_to_bytes_wording_is_the_interpreters(lib: Catalog) -> None:
    # asn1crypto 1.5.1 (round 22) copies CPython's `int.to_bytes` overflow text in a Python 2 fallback, and its
    # tests get the text from `int.to_bytes` itself: the site is the best reading, not a confident one
    top = explain(lib, "OverflowError: int too big to convert").matches[0]
    assert top.qualname == "int_to_bytes" and not top.confident


def test_setattr_wording_is_the_interpreters(lib: Catalog) -> None:
    # pyOpenSSL 26.4.0's `X509Name.__setattr__` (round 28) copies CPython's `setattr` text, and its tests get it
    # from `setattr(name, None, ...)` on a plain object too (an event with no site of the library)
    top = explain(lib, "TypeError: attribute name must be string, not 'NoneType'").matches[0]
    assert top.qualname == "X509Name.__setattr__" and not top.confident
