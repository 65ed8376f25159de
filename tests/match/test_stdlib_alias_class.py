"""The standard library's classes named in lower case, and the old names of builtin classes: amqp 5.4.2's
``transport.py`` raises ``socket.timeout()`` in its read loop, and Python (3.10 on) prints that class as
``TimeoutError``; ``IOError`` / ``socket.error`` are ``OSError``.  The raise is of a class (not a value built by
a call ``socket.timeout()``), and the site is found by the name its traceback prints.  The last lines are
captured from amqp's test suite (``bench/data/amqp-5.4.2.jsonl``: ``TimeoutError`` with no text); the library
is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

TRANSPORT = '''
import errno
import socket
from contextlib import contextmanager
from ssl import SSLError


class UnexpectedFrame(Exception):
    pass


class _AbstractTransport:
    def __init__(self, sock):
        self.sock = sock
        self._read_buffer = b""

    @contextmanager
    def having_timeout(self, timeout):
        try:
            yield self.sock
        except SSLError as exc:
            if "timed out" in str(exc):
                raise socket.timeout()
            raise
        except OSError as exc:
            if exc.errno == errno.EWOULDBLOCK:
                raise socket.timeout()
            raise

    def read_frame(self):
        try:
            frame_header = self.sock.recv(7)
        except socket.timeout:
            raise
        if not frame_header:
            raise IOError("Server unexpectedly closed connection")
        if frame_header[0] not in (1, 2, 3, 8):
            raise UnexpectedFrame(f"Received frame_end {frame_header[0]:#04x} while expecting 0xce")
        return frame_header


def handle_error(error_code, reply_text):
    error = lookup(error_code)
    raise error
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "stdalias", "amqpl", {"__init__.py": "", "transport.py": TRANSPORT})


def test_a_lower_case_stdlib_class_is_found_by_its_printed_name(lib: Catalog) -> None:
    top = explain(lib, "TimeoutError").matches[0]
    assert (top.method, top.confident) == ("class", False)
    assert [top.qualname, *(t.qualname for t in top.tied)] == ["_AbstractTransport.having_timeout"] * 2
    assert top.exception == "socket.timeout"


def test_an_old_name_of_oserror_is_found_by_its_printed_name(lib: Catalog) -> None:
    """The text is the site's, whole: the printed ``OSError`` is its class, not another one (no penalty)."""
    top = explain(lib, "OSError: Server unexpectedly closed connection").matches[0]
    assert (top.qualname, top.method, top.tied_count, top.confident) == ("_AbstractTransport.read_frame", "exact", 0,
                                                                         True)
