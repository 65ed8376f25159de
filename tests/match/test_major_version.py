"""Python 2/3 compatibility branches: a site under a version test every Python 3 passes raises everywhere.

asn1tools 0.169's ``String.encode`` raises ``'Expected data of type str, but got {}.'`` under ``if
sys.version_info[0] > 2:`` (and again under ``else:``), while its base ``Type.encode`` raises ``'Expected
data of type {}, but got {}.'`` with the type's name.  A version test used to mark both branches as raised
on some Pythons only (a backport's text, ``indexdata.version_gated``), which capped the live branch below
the base's generic text: ``A: Expected data of type str, but got 1.`` was answered with ``Type.encode``."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.majorversion import on_python3

CODECS = textwrap.dedent('''\
    import sys


    class EncodeError(Exception):
        def __init__(self, message, location=None):
            super().__init__(message)
            self.message = message
            self.location = [location] if location else []

        def add_location(self, element):
            self.location.append(element)

        def __str__(self):
            if self.location:
                return "{}: {}".format(".".join(self.location[::-1]), self.message)
            return self.message


    class Type(object):
        TYPE = None

        def encode(self, data):
            if not isinstance(data, self.TYPE):
                raise EncodeError(
                    'Expected data of type {}, but got {}.'.format(self.TYPE.__name__, data))


    class String(Type):
        def encode(self, data):
            if sys.version_info[0] > 2:
                if not isinstance(data, str):
                    raise EncodeError('Expected data of type str, but got {}.'.format(data))
            else:
                if not isinstance(data, (str, unicode)):
                    raise EncodeError('Expected data of type str, but got {}.'.format(data))
            return data
    ''')


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "major", "codec", {"__init__.py": "", "codecs.py": CODECS})


@pytest.mark.parametrize("text", [
    "codec.codecs.EncodeError: A: Expected data of type str, but got 1.",
    "EncodeError: Expected data of type str, but got None.",
])
def test_the_python3_branch_is_no_gated_site(lib: Catalog, text: str) -> None:
    top = explain(lib, text).matches[0]
    assert (top.qualname, top.line) == ("String.encode", 32), text


@pytest.mark.parametrize(("condition", "expected"), [
    ("sys.version_info[0] > 2", True), ("not (sys.version_info[0] > 2)", False),
    ("sys.version_info >= (3,)", True), ("sys.version_info < (3, 0)", False), ("sys.version_info < (3,)", False),
    ("sys.version_info.major == 2", False), ("3 <= sys.version_info[0]", True), ("six.PY2", False),
    ("not PY2", True), ("PY3 or x", True), ("PY3 and x", None), ("not PY3 and x", False),
    ("sys.version_info >= (3, 8)", None), ("hexversion >= 0x30D00A2", None), ("sys.version_info[:2] >= (3, 8)", None),
    ("version_info[0] == 3", True), ("x >", None),
])
def test_on_python3(condition: str, expected: bool | None) -> None:
    assert on_python3(condition) is expected
