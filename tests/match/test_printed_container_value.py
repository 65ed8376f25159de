"""A list or a dict raised as it is prints as one value, spaces and all (eliot 1.18.0, round 31: ``check_for_errors``'s
``raise UnflushedTracebacks(logger.tracebackMessages)`` prints a list of dicts; its message alone answered fuzzily by
unrelated sites).  No template's text is in it: the sites whose message is only a value tie for it, unconfident,
as a lone word's do (``scope.value_sites``).  A list template of its shape found exactly (``[{errors}]``) keeps it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

TESTING = '''
class UnflushedTracebacks(Exception):
    """The L{MemoryLogger} had unflushed tracebacks."""


class TooManyCalls(Exception):
    """The function was called more than once."""


def check_for_errors(logger):
    if logger.tracebackMessages:
        raise UnflushedTracebacks(logger.tracebackMessages)
    logger.validate()


def call_once(f, called):
    if called:
        raise TooManyCalls(f)
    return f()


def check_level(level):
    if not isinstance(level, list):
        raise TypeError(f"Task level must be a list, not {type(level).__name__}")
'''

LISTED = '''
class Error(Exception):
    pass


def raise_current_error(queue):
    errors = []
    while queue:
        lib, func, reason = queue.pop()
        errors.append((lib, func, reason))
    raise Error(errors)


def check(value):
    if value is None:
        raise Error(value)
'''

EVENT = ("[{'reason': ZeroDivisionError('division by zero'), 'traceback': 'Traceback (most recent call last):\\n"
         "  File \"test_testing.py\", line 546, in runTest\\nZeroDivisionError: division by zero\\n', 'exception': "
         "<class 'ZeroDivisionError'>, 'task_level': [1], 'message_type': 'eliot:traceback'}]")


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "container", "logkit", {"__init__.py": "", "testing.py": TESTING})


@pytest.fixture(scope="module")
def listed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "listed", "sslkit", {"__init__.py": "", "listed.py": LISTED})


def _group(r: object) -> list[str]:
    top = r.matches[0]  # type: ignore[attr-defined]
    return sorted([top.qualname, *(t.qualname for t in top.tied)])


def test_a_printed_list_ties_the_sites_raising_a_lone_value(lib: Catalog) -> None:
    r = explain(lib, EVENT)
    assert _group(r) == ["call_once", "check_for_errors"]
    assert r.matches[0].method == "class" and not r.confident


def test_a_printed_dict_is_one_value_too(lib: Catalog) -> None:
    r = explain(lib, "{'a.txt': ['not found'], 'b.txt': ['bad header']}")
    assert _group(r) == ["call_once", "check_for_errors"] and not r.confident


def test_text_around_a_list_is_no_lone_value(lib: Catalog) -> None:
    r = explain(lib, "[1, 2] and [3]")
    assert r.matches == () or r.matches[0].method != "class"


def test_a_list_template_found_exactly_keeps_it(listed: Catalog) -> None:
    r = explain(listed, "[('SSL routines', '', 'wrong version number')]")
    assert r.matches[0].qualname == "raise_current_error" and r.matches[0].method != "class"
