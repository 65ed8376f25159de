"""A client that raises, as it is, the exception its server raised and sent back (Pyro5 5.17, issue 17's
eighty-fifth round: ``Proxy._pyroInvoke`` does ``data = serializer.loads(msg.data)`` then, for an exception
reply, ``raise data``).  The message alone names the server's raise, whose text it is, but the traceback the user
got may end at the client's ``raise data``: the answer stays the server's raise, never confident, with a note
naming the client's line (``indexdata.received_value``, ``honesty.received_elsewhere``).  A package whose loose
raise takes a value from a loop or a list (``for error in errors: raise error``) keeps its confident answers, and
a traceback's frames still decide.  An exception object kept within the process (a worker thread's, a future's,
a stream reader's ``set_exception``) was raised before it was kept and keeps its traceback when raised again: the
innermost frame is still the raise that wrote the text, and the answer stays confident (the eighty-eighth round).
An error a package builds and yields without raising it, raised later by a caller (jsonschema's ``error =
exceptions.best_match(validator.iter_errors(instance))`` then ``raise error``), still counts."""

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

WORKER = '''
import threading


class Worker:
    def __init__(self, job):
        self._job = job
        self._exception = None
        self._future = None

    def _run(self):
        try:
            self._job()
        except Exception as e:
            self._exception = e

    def join(self):
        t = threading.Thread(target=self._run)
        t.start()
        t.join()
        if self._exception is not None:
            raise self._exception

    def result(self):
        exc = self._future.exception()
        if exc is not None:
            raise exc
        return self._future.result()


def parse_size(text):
    if not text.isdigit():
        raise ValueError(f"the size {text!r} is not a whole number of bytes")
    return int(text)
'''

YIELDED = {
    "__init__.py": "",
    "exceptions.py": '''
class ValidationError(Exception):
    pass


def best_match(errors):
    return next(iter(errors), None)
''',
    "keywords.py": '''
from .exceptions import ValidationError


def minimum(validator, minimum, instance):
    if instance < minimum:
        yield ValidationError(f"{instance!r} is less than the minimum of {minimum!r}")


def check_minimum(instance, minimum):
    if instance < minimum:
        raise ValidationError(f"{instance!r} is less than the minimum of {minimum!r}")
''',
    "validators.py": '''
from . import exceptions, keywords


def validate(instance, schema):
    error = exceptions.best_match(keywords.minimum(None, schema["minimum"], instance))
    if error is not None:
        raise error
''',
}


@pytest.fixture(scope="module")
def pyro(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "received", "pyrolike",
                               {"__init__.py": "", "client.py": CLIENT, "echoserver.py": SERVER,
                                "serializers.py": SERIALIZERS})


@pytest.fixture(scope="module")
def checker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "collected", "checklike", {"__init__.py": "", "check.py": CHECKER})


@pytest.fixture(scope="module")
def yielded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "yielded", "schemalike", YIELDED)


@pytest.fixture(scope="module")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "kept", "workerlike", {"__init__.py": "", "worker.py": WORKER})


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


@pytest.mark.parametrize("text", ["the size 'ten' is not a whole number of bytes",
                                  "ValueError: the size 'ten' is not a whole number of bytes"])
def test_an_exception_kept_within_the_process_leaves_the_answer_confident(worker: Catalog, text: str) -> None:
    top = explain(worker, text).matches[0]
    assert top.path.endswith("worker.py") and top.qualname == "parse_size" and top.confident
    assert "as it is" not in (top.tie_note or "")


def test_an_error_built_and_yielded_then_raised_by_a_caller_is_not_confident(yielded: Catalog) -> None:
    top = explain(yielded, "schemalike.exceptions.ValidationError: 3 is less than the minimum of 5").matches[0]
    # the text's raise (the same text is yielded unraised by ``minimum``, which extraction does not index)
    assert top.path.endswith("keywords.py") and top.qualname == "check_minimum" and not top.confident
    assert "validators.py:8" in top.tie_note
