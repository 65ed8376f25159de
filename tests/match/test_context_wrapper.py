"""A context manager that raises again, as a class looked up at run time, whatever its ``with`` block raised
(dnspython 2.8.0's ``ExceptionWrapper.__exit__``: ``raise self.exception_class(str(exc_val)) from exc_val``)
prints the text of every site inside the block as another class.  From the message alone, or from a last
line naming a class the site does not raise, the site and the wrapper tie and neither is confident; a class
the site raises itself, or a traceback, decides.  The texts are captured from dnspython's test suite
(``bench/data/dnspython-2.8.0.jsonl``); the package is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.indexdata import any_class_rewrap

EXCEPTION = '''
class DNSException(Exception):
    """Abstract base class shared by all dnspython exceptions."""


class SyntaxError(DNSException):
    """Text input is malformed."""


class ExceptionWrapper:
    def __init__(self, exception_class):
        self.exception_class = exception_class

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if exc_type is not None and not isinstance(exc_val, self.exception_class):
            raise self.exception_class(str(exc_val)) from exc_val
        return False
'''

DSBASE = '''
import dnsmini.exception


def check_digest(digest_type, digest):
    if digest_type == 0:
        raise ValueError("digest type 0 is reserved")
    if len(digest) != 32:
        raise ValueError("digest length inconsistent with digest type")


def from_text(tok):
    with dnsmini.exception.ExceptionWrapper(dnsmini.exception.SyntaxError):
        check_digest(int(tok[0]), tok[1])


def svcb_from_text(params):
    if params:
        raise SyntaxError("parameters in AliasMode")
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "ctxwrap", "dnsmini",
                               {"__init__.py": "", "exception.py": EXCEPTION, "dsbase.py": DSBASE})


def test_the_message_alone_ties_the_site_with_the_wrapper(lib: Catalog) -> None:
    r = explain(lib, "digest type 0 is reserved")
    top = r.matches[0]
    assert top.qualname == "check_digest" and not r.confident
    assert [t.qualname for t in top.tied] == ["ExceptionWrapper.__exit__"]


def test_a_class_the_site_does_not_raise_ties_it_with_the_wrapper(lib: Catalog) -> None:
    r = explain(lib, "dnsmini.exception.SyntaxError: parameters in AliasMode")
    assert r.matches[0].qualname == "svcb_from_text" and not r.confident
    assert "ExceptionWrapper.__exit__" in [t.qualname for t in r.matches[0].tied]


def test_the_sites_own_class_or_a_traceback_decides(lib: Catalog) -> None:
    r = explain(lib, "ValueError: digest type 0 is reserved")
    assert r.matches[0].qualname == "check_digest" and r.confident and not r.matches[0].tied
    tb = ('Traceback (most recent call last):\n'
          '  File "/venv/lib/python3.13/site-packages/dnsmini/dsbase.py", line 6, in check_digest\n'
          '    raise ValueError("digest type 0 is reserved")\n'
          'ValueError: digest type 0 is reserved\n')
    assert explain(lib, tb).confident


def test_a_looked_up_class_called_with_the_caught_text_is_an_any_class_rewrap() -> None:
    assert any_class_rewrap("self.exception_class(str(exc_val))", "exc_val")
    assert any_class_rewrap("self.classes[kind](str(e))", None)
    assert not any_class_rewrap("SyntaxError(str(exc_val))", "exc_val")  # a class by its name: rewraps
    assert not any_class_rewrap("self.exception_class(msg)", "exc_val")  # text of its own
