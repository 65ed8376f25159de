"""Raises of a value a function was handed, with no text of their own, answered by the class fallback as a tie
(issue 17's seventy-fourth round).  funcy 2.1's ``raiser(exception_or_class=Exception, *args, **kwargs)``
returns a closure raising ``exception_or_class(*args, **kwargs)`` or ``exception_or_class`` bare (a class, an
instance, or ``Exception(text)`` of a text); the test suite handed it its own ``MyError``.  Those raises were
indexed with no value template (the bare one has no text at all; the call hands on spread arguments) and were
neither loose nor held-class raises: no answer.  The library is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

FLOW = '''
from datetime import datetime, timedelta
from functools import wraps


class FlowError(Exception):
    pass


def raiser(exception_or_class=Exception, *args, **kwargs):
    """Constructs function that raises the given exception with given arguments on any invocation."""
    if isinstance(exception_or_class, str):
        exception_or_class = Exception(exception_or_class)

    def _raiser(*a, **kw):
        if args or kwargs:
            raise exception_or_class(*args, **kwargs)
        else:
            raise exception_or_class
    return _raiser


def limit_error_rate(fails, timeout, exception=FlowError):
    """If function fails to complete fails times in a row, calls to it will be intercepted for timeout."""
    if isinstance(timeout, int):
        timeout = timedelta(seconds=timeout)

    def decorator(func):
        @wraps(func)
        def wrapper(*args, **kwargs):
            if wrapper.blocked:
                if datetime.now() - wrapper.blocked < timeout:
                    raise exception
                wrapper.blocked = None
            return func(*args, **kwargs)
        wrapper.blocked = None
        return wrapper
    return decorator


def retry(tries, errors=Exception):
    if tries < 1:
        raise FlowError("tries must be at least one, got %d" % tries)
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "raiser", "flowkit", {"__init__.py": "", "flow.py": FLOW})


def _lines(r: object) -> list[int]:
    top = r.matches[0]  # type: ignore[attr-defined]
    return sorted([top.line, *(t.line for t in top.tied)])


def test_a_users_class_with_a_text_ties_the_value_raises(lib: Catalog) -> None:
    r = explain(lib, "tests.test_flow.MyError: some message")
    assert _lines(r) == [17, 19, 33] and not r.confident


def test_a_builtin_class_raised_bare(lib: Catalog) -> None:
    r = explain(lib, "TypeError")
    assert _lines(r) == [19, 33] and not r.confident
