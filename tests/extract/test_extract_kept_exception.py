"""An asyncio-style stream reader (telnetlib3 5.0.1, issue 17's eighty-third round): ``set_exception(exc)`` keeps an
exception the caller made (``self._exception: Optional[Exception] = None``) and every read raises it again
(``raise self._exception``); running out of data raises ``asyncio.IncompleteReadError(partial, None)``, whose own
``__init__`` writes the text, and ``LimitOverrunError(message, consumed)`` prints its message alone.

The annotation made the raised class ``typing.Optional`` (a class named by an annotation, ``Optional[X]`` read as
``Optional``): the value is an instance of any class, raised as it is.  asyncio's two classes gave the tuple of
their arguments (``({partial}, None)``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

READER = '''
    import asyncio
    from typing import Optional


    class TelnetReader:
        def __init__(self, limit=2 ** 16):
            self._buffer = bytearray()
            self._limit = limit
            self._exception: Optional[Exception] = None

        def set_exception(self, exc: Exception) -> None:
            self._exception = exc

        async def readuntil(self, separator=b"\\n"):
            if self._exception is not None:
                raise self._exception
            chunk = bytes(self._buffer)
            if len(chunk) > self._limit:
                raise asyncio.LimitOverrunError("Separator is not found, and chunk exceed the limit", len(chunk))
            self._buffer.clear()
            raise asyncio.IncompleteReadError(chunk, None)

        async def readexactly(self, n):
            incomplete = bytes(self._buffer)
            raise asyncio.IncompleteReadError(incomplete, n)


    class TelnetReaderUnicode(TelnetReader):
        async def read(self, n=-1):
            if self._exception is not None:
                raise self._exception
            return ""
'''


def test_a_kept_exception_and_asyncio_texts(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "stream_reader.py").write_text(textwrap.dedent(READER))
    sites = extract_dir(tmp_path).sites
    found = {(s.qualname, s.exception): sorted({t.render() for t in s.templates}) for s in sites}
    assert ("TelnetReader.readuntil", "self._exception") in found  # an instance of any class, not `Optional`
    assert ("TelnetReaderUnicode.read", "self._exception") in found
    assert found[("TelnetReader.readuntil", "asyncio.IncompleteReadError")] == [
        "{length} bytes read on a total of undefined expected bytes"]
    assert found[("TelnetReader.readexactly", "asyncio.IncompleteReadError")] == [
        "{length} bytes read on a total of {n} expected bytes"]
    assert found[("TelnetReader.readuntil", "asyncio.LimitOverrunError")] == [
        "Separator is not found, and chunk exceed the limit"]
