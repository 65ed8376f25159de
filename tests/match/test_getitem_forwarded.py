"""``self[name]`` in a ``try`` reaches the class's own ``__getitem__``: the ``KeyError`` text it raises is the text
an ``except KeyError as error: raise AttributeError(str(error))`` forwards (issue 17's seventy-fourth round).
acme 5.9.0's ``Directory.__getattr__`` does so, and a message ``'Directory field "foo" not found'`` is printed
alike by both raises: a tie of the two, and the ``AttributeError`` site for that class's last line.  The
library is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

MESSAGES = '''
from typing import Any


class Directory:
    """Directory."""

    def __init__(self, jobj):
        self._jobj = jobj

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError as error:
            raise AttributeError(str(error))

    def __getitem__(self, name: str) -> Any:
        try:
            return self._jobj[name]
        except KeyError:
            raise KeyError(f'Directory field "{name}" not found')


class Resource:
    def __init__(self, body):
        self.body = body

    def __getattr__(self, name: str) -> Any:
        try:
            return self.body[name]
        except KeyError as error:
            raise AttributeError(str(error))
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "getitem", "acmekit", {"__init__.py": "", "messages.py": MESSAGES})


def test_the_message_ties_getitem_and_getattr(lib: Catalog) -> None:
    r = explain(lib, "'Directory field \"foo\" not found'")
    top = r.matches[0]
    assert sorted([top.qualname, *(t.qualname for t in top.tied)]) == ["Directory.__getattr__", "Directory.__getitem__"]
    assert not r.confident


def test_the_attribute_errors_last_line_is_getattrs(lib: Catalog) -> None:
    r = explain(lib, "AttributeError: 'Directory field \"foo\" not found'")
    assert r.matches[0].qualname == "Directory.__getattr__" and r.matches[0].line == 15
