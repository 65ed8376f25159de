"""An exception object handed to a setter and raised later by another method (issue 17's ninety-second round).

grpclib 0.4.9's ``Wrapper.cancel(self, error)`` keeps ``self._error = error`` and ``__exit__`` raises it; the
deadline's callback hands it ``asyncio.TimeoutError('Deadline exceeded')`` built on the spot, never raised.  The
raise of ``self._error`` is where that object's traceback starts: its texts are those the module's callers hand
the setter (directly, or through a local), beside a value of any text.  An attribute a handler keeps
(``except Exception as e: self._exc = e``) and a setter handed a caller's own parameter get nothing."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from deadlineshape import UTILS

STREAM = '''
    from typing import Optional


    class StreamReader:
        def __init__(self) -> None:
            self._exception: Optional[Exception] = None

        def set_exception(self, exc: Exception) -> None:
            self._exception = exc

        async def readline(self):
            if self._exception is not None:
                raise self._exception
            return b""


    class StreamProtocol:
        def __init__(self, reader: StreamReader) -> None:
            self.reader = reader

        def connection_lost(self, exc):
            if exc is None:
                err = ConnectionResetError(f"Connection lost to {self}")
                self.reader.set_exception(err)
            else:
                self.reader.set_exception(exc)

        def eof_received(self):
            self.reader.set_exception(EOFError("peer closed the stream"))


    class Worker:
        def __init__(self) -> None:
            self._exc: Optional[Exception] = None

        def run(self):
            try:
                self.step()
            except Exception as e:
                self._exc = e

        def step(self):
            raise RuntimeError("worker step failed")

        def join(self):
            if self._exc is not None:
                raise self._exc
'''


def _found(tmp_path: Path) -> dict[tuple[str, str], list[str]]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "utils.py").write_text(textwrap.dedent(UTILS))
    (tmp_path / "pkg" / "stream.py").write_text(textwrap.dedent(STREAM))
    sites = extract_dir(tmp_path).sites
    return {(s.qualname, s.exception): sorted({t.render() for t in s.templates}) for s in sites}


def test_a_setter_handed_a_fresh_object_gives_its_text_to_the_raise(tmp_path: Path) -> None:
    found = _found(tmp_path)
    assert found[("Wrapper.__exit__", "self._error")] == ["", "Deadline exceeded"]  # any text, and the callback's
    assert found[("DeadlineWrapper.start", "asyncio.TimeoutError")] == ["Deadline exceeded"]
    # another class's calls of the setter, directly and through a local; a caller's own parameter adds nothing
    assert found[("StreamReader.readline", "self._exception")] == [
        "", "Connection lost to {self}", "peer closed the stream"]


def test_an_attribute_a_handler_keeps_gets_nothing(tmp_path: Path) -> None:
    found = _found(tmp_path)
    assert found[("Worker.join", "self._exc")] == [""]
