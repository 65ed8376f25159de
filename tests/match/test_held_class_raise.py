"""A raise calling a class that a value holds: a parameter (``raise thrownexception(thrownmessage)``) or a
record's field (``raise limit.rangeexception(limit.rangeerrorstring)``, the records built elsewhere with
``Limit("Invalid month string.", 1, 12, MonthOutOfBoundsError, "Month must be between 1..12.")``).  The
class and the text are the caller's, so a printed class that no site names (aniso8601 10.0.1's
``MonthOutOfBoundsError``, captured: ``aniso8601.exceptions.MonthOutOfBoundsError: Month must be between
1..12.``), or one that its sites name with no text of their own (docopt-ng's ``DocoptExit``), is answered
by those raises, tied and never confident.  A printed name that is no qualified class (``Warning: ...``
may be a tag) gets no such answer, and a message found exactly keeps its site.  The package is written in
the captured shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

EXCEPTIONS = '''
class ISOFormatError(ValueError):
    """Raised when ISO 8601 string fails a format check."""


class RangeCheckError(ValueError):
    """Parent type of range check errors."""


class MonthOutOfBoundsError(RangeCheckError):
    """Raised when parsed month is out of range."""


class DayOutOfBoundsError(RangeCheckError):
    """Raised when parsed day is out of range."""


class ParseExit(SystemExit):
    def __init__(self, message=""):
        SystemExit.__init__(self, message)
'''

BUILDERS = '''
from collections import namedtuple

from .exceptions import DayOutOfBoundsError, ISOFormatError, MonthOutOfBoundsError, ParseExit

Limit = namedtuple("Limit", ["casterrorstring", "min", "max", "rangeexception", "rangeerrorstring"])


def cast(value, castfunction, caughtexceptions=(ValueError,), thrownexception=ISOFormatError,
         thrownmessage=None):
    try:
        result = castfunction(value)
    except caughtexceptions:
        raise thrownexception(thrownmessage)
    return result


def range_check(valuestr, limit):
    value = cast(valuestr, int, thrownmessage=limit.casterrorstring)
    if limit.min is not None and value < limit.min:
        raise limit.rangeexception(limit.rangeerrorstring)
    if limit.max is not None and value > limit.max:
        raise limit.rangeexception(limit.rangeerrorstring)
    return value


class BaseTimeBuilder:
    DATE_MM_LIMIT = Limit("Invalid month string.", 1, 12, MonthOutOfBoundsError, "Month must be between 1..12.")
    DATE_DD_LIMIT = Limit("Invalid day string.", 1, 31, DayOutOfBoundsError, "Day must be between 1..31.")

    @classmethod
    def build_date(cls, MM=None, DD=None):
        return range_check(MM, cls.DATE_MM_LIMIT), range_check(DD, cls.DATE_DD_LIMIT)


class Tokens(list):
    def __init__(self, source, error=ParseExit):
        self += source.split()
        self.error = error


def parse_long(tokens, value):
    if value is None:
        raise tokens.error("%s requires argument" % tokens[0])
    return value


def fail(tokens, message):
    raise tokens.error(message)


def check(argv):
    if not argv:
        raise ParseExit()
    if argv[0] == "-":
        raise ParseExit("Warning: found unmatched (duplicate?) arguments %r" % argv)
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "heldclass", "isodates",
                               {"__init__.py": "", "exceptions.py": EXCEPTIONS, "builders.py": BUILDERS})


def test_a_class_no_site_names_is_answered_by_the_raises_of_a_held_class(lib: Catalog) -> None:
    top = explain(lib, "isodates.exceptions.MonthOutOfBoundsError: month 13 is out of range").matches[0]
    assert top.method == "class" and not top.confident
    # `range_check` holds the texts built into the records' field now (``extract/tuplefields.py``): a text
    # that none of them is leaves it out of the group
    assert sorted([(top.qualname, top.line), *((t.qualname, t.line) for t in top.tied)]) == [
        ("cast", 14), ("fail", 49)]


def test_a_text_built_into_a_records_field_is_found_at_the_raise_reading_it(lib: Catalog) -> None:
    """``limit.rangeerrorstring``: the texts the package builds into that field of its named tuple (issue 17's
    twenty-seventh round); before, the class's group (``cast``, ``fail`` and both ``range_check`` raises)."""
    top = explain(lib, "isodates.exceptions.MonthOutOfBoundsError: Month must be between 1..12.").matches[0]
    assert top.method == "exact" and not top.confident
    assert sorted([(top.qualname, top.line), *((t.qualname, t.line) for t in top.tied)]) == [
        ("range_check", 21), ("range_check", 23)]


def test_a_class_named_with_no_text_joins_the_held_class_raises(lib: Catalog) -> None:
    top = explain(lib, "isodates.exceptions.ParseExit: unexpected ending").matches[0]
    assert top.method == "class" and not top.confident
    assert sorted([top.qualname, *(t.qualname for t in top.tied)]) == ["cast", "check", "fail"]


def test_a_held_class_called_with_text_is_found_by_it(lib: Catalog) -> None:
    """``raise tokens.error("%s requires argument" % ...)``: the builtin rule gives the call its text."""
    top = explain(lib, "isodates.exceptions.ParseExit: --long requires argument").matches[0]
    assert (top.method, top.qualname) == ("exact", "parse_long")


def test_a_tag_is_no_held_class(lib: Catalog) -> None:
    """``Warning: found unmatched ...`` reads as a class ``Warning`` and a text: the text is found exactly."""
    top = explain(lib, "Warning: found unmatched (duplicate?) arguments ['-']").matches[0]
    assert (top.method, top.qualname) == ("exact", "check")
