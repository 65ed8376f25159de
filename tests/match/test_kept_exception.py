"""An exception an instance keeps and raises again (telnetlib3 5.0.1, issue 17's eighty-third round: its stream
reader's ``set_exception(exc)``, then ``raise self._exception`` in each read; its test suite hands in
``RuntimeError("boom")`` or a class of its own defined in the test function, printed by Python as
``test_core.test_closed_by_error.<locals>.CustomException: blah!``).  The text and the class are the caller's:
the answer is the group of raises of a value made elsewhere (``indexdata.loose_raise``), never one of them alone,
and the class of a test function is read as the class Python printed (``lines.LOCAL_TYPE_NAME``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain, parse_safely

READER = '''
from typing import Optional


class TelnetReader:
    def __init__(self):
        self._buffer = bytearray()
        self._exception: Optional[Exception] = None

    def set_exception(self, exc: Exception) -> None:
        self._exception = exc

    async def readline(self):
        if self._exception is not None:
            raise self._exception
        return bytes(self._buffer)

    async def readexactly(self, n):
        if self._exception is not None:
            raise self._exception
        if n < 0:
            raise ValueError("readexactly size can not be less than zero")
        return bytes(self._buffer[:n])


class TelnetWriter:
    def __init__(self, reader):
        self._reader = reader

    async def drain(self):
        exc = self._reader._exception
        if exc is not None:
            raise exc
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "kept", "telnetish", {"__init__.py": "", "stream.py": READER})


def _group(lib: Catalog, text: str) -> set[str]:
    r = explain(lib, text)
    top = r.matches[0]
    assert top.method == "class" and not r.confident
    return {f"{top.qualname}", *(t.qualname for t in top.tied)}


def test_a_class_of_a_test_function_is_read_as_python_prints_it() -> None:
    p = parse_safely("test_core.test_closed_by_error.<locals>.CustomException: blah!")
    assert (p.exception, p.message) == ("test_core.test_closed_by_error.<locals>.CustomException", "blah!")


@pytest.mark.parametrize("text", ["RuntimeError: boom", "test_core.test_closed_by_error.<locals>.CustomException: blah!",
                                  "boom", "candy corn 4 everyone"])
def test_the_kept_exception_is_one_of_the_raises_of_a_value(lib: Catalog, text: str) -> None:
    assert _group(lib, text) == {"TelnetReader.readline", "TelnetReader.readexactly", "TelnetWriter.drain"}
