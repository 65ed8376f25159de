"""A client that raises, as it is, the exception its server raised and sent back (Pyro5 5.17, issue 17's
eighty-fifth round: ``Proxy._pyroInvoke`` does ``data = serializer.loads(msg.data)`` then, for an exception
reply, ``raise data``).  The message alone names the server's raise, whose text it is, but the traceback the user
got may end at the client's ``raise data``: the answer stays the server's raise, never confident, with a note
naming the client's line (``indexdata.received_value``, ``honesty.received_elsewhere``).  A package whose loose
raise takes a value from a loop or a list (``for error in errors: raise error``) keeps its confident answers, and
a traceback's frames still decide."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

CLIENT = '''
from . import serializers


class Proxy:
    def __init__(self, connection):
        self._conn = connection

    def _invoke(self, method, args):
        serializer = serializers.get(self._conn.serializer_id)
        self._conn.send(serializer.dumps((method, args)))
        msg = self._conn.recv()
        data = serializer.loads(msg.data)
        if msg.flags & 1:
            try:
                raise data  # if you see this in your traceback, inspect the remote traceback as well
            finally:
                del data
        return data
'''

SERVER = '''
class EchoServer:
    def error(self):
        """generates a simple exception"""
        raise ValueError("this is the generated error from the echo server error() method")
'''

SERIALIZERS = '''
import json

_SERIALIZERS = {}


def get(serializer_id):
    if serializer_id not in _SERIALIZERS:
        raise ValueError(f"unknown serializer id {serializer_id}")
    return _SERIALIZERS[serializer_id]
'''

CHECKER = '''
class Checker:
    def validate(self, item):
        if not item:
            raise ValueError("the checked item is empty and cannot be used")

    def check(self, errors):
        for error in errors:
            raise error
'''


@pytest.fixture(scope="module")
def pyro(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "received", "pyrolike",
                               {"__init__.py": "", "client.py": CLIENT, "echoserver.py": SERVER,
                                "serializers.py": SERIALIZERS})


@pytest.fixture(scope="module")
def checker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "collected", "checklike", {"__init__.py": "", "check.py": CHECKER})


@pytest.mark.parametrize("text", ["this is the generated error from the echo server error() method",
                                  "ValueError: this is the generated error from the echo server error() method"])
def test_a_text_the_client_may_have_received_is_not_confident(pyro: Catalog, text: str) -> None:
    r = explain(pyro, text)
    top = r.matches[0]
    assert top.path.endswith("echoserver.py") and top.method == "exact"
    assert not top.confident and not r.confident
    assert "client.py:16" in top.tie_note


def test_a_traceback_still_decides(pyro: Catalog) -> None:
    tb = ('Traceback (most recent call last):\n'
          '  File "/srv/pyrolike/echoserver.py", line 5, in error\n'
          '    raise ValueError("this is the generated error from the echo server error() method")\n'
          'ValueError: this is the generated error from the echo server error() method')
    top = explain(pyro, tb).matches[0]
    assert top.path.endswith("echoserver.py") and top.confident


def test_a_loose_raise_of_a_collected_error_leaves_the_answer_confident(checker: Catalog) -> None:
    r = explain(checker, "the checked item is empty and cannot be used")
    assert r.matches[0].path.endswith("check.py") and r.matches[0].confident
