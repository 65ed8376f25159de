"""A re-raise that prints the caught exception's own text (itsdangerous 2.2.0's
``raise BadTimeSignature(str(sig_error), ...)`` of a caught ``BadSignature``): from the message
alone the two sites are a tie, not a confident answer naming the first; with the class printed it
is the re-raise; with a traceback the innermost frame decides.  The text is a real one captured from
itsdangerous' test suite (``bench/data/itsdangerous-2.2.0.jsonl``)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

EXC = '''
class BadData(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message

    def __str__(self):
        return self.message


class BadSignature(BadData):
    def __init__(self, message, payload=None):
        super().__init__(message)
        self.payload = payload


class BadTimeSignature(BadSignature):
    def __init__(self, message, payload=None, date_signed=None):
        super().__init__(message, payload)
        self.date_signed = date_signed
'''

SIGNER = '''
from .exc import BadSignature


class Signer:
    sep = "."

    def unsign(self, signed_value):
        value, sig = signed_value.rsplit(self.sep, 1)
        if sig != "ok":
            raise BadSignature(f"Signature {sig!r} does not match", payload=value)
        return value
'''

TIMED = '''
from .exc import BadSignature, BadTimeSignature
from .signer import Signer


class TimestampSigner(Signer):
    def unsign(self, signed_value, max_age=None):
        try:
            result = super().unsign(signed_value)
            sig_error = None
        except BadSignature as e:
            sig_error = e
            result = e.payload or ""
        if sig_error is not None:
            raise BadTimeSignature(str(sig_error), payload=result)
        return result
'''

TEXT = "Signature b'tK59oOmd0fhZg7SBfv_gV4BYV_' does not match"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "forwarded", "signing",
                               {"__init__.py": "", "exc.py": EXC, "signer.py": SIGNER, "timed.py": TIMED})


def test_the_message_alone_is_a_tie_of_the_raise_and_the_re_raise(lib: Catalog) -> None:
    top = explain(lib, TEXT).matches[0]
    assert not top.confident
    assert {top.path, *(t.path for t in top.tied)} == {"signing/signer.py", "signing/timed.py"}


def test_the_printed_class_names_the_re_raise(lib: Catalog) -> None:
    r = explain(lib, f"signing.exc.BadTimeSignature: {TEXT}")
    top = r.matches[0]
    assert top.path == "signing/timed.py" and top.confident and not top.tied
    # the caught error's site is named as the text's origin and listed below
    assert any(m.path == "signing/signer.py" and m.id == top.wraps for m in r.matches[1:])


def test_a_traceback_decides(lib: Catalog) -> None:
    tb = textwrap.dedent(f'''\
        Traceback (most recent call last):
          File "/app/run.py", line 3, in <module>
            s.unsign(value)
          File "/venv/lib/python3.13/site-packages/signing/timed.py", line 15, in unsign
            raise BadTimeSignature(str(sig_error), payload=result)
        signing.exc.BadTimeSignature: {TEXT}
        ''')
    top = explain(lib, tb).matches[0]
    assert top.path == "signing/timed.py" and top.pinned_by_frame and top.confident and not top.tied
