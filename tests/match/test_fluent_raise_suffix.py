"""A raise of a new instance through a method that returns it, its text the caught message with a suffix
(dbf 0.99.11, round 37)::

    class DbfError(Exception):
        def __init__(self, message, *args):
            Exception.__init__(self, message, *args)
            self.message = message
        def from_exc(self, exc):
            self.__cause__ = exc
            return self

    try:
        length, decimals, flags = init(pieces, flags)
    except FieldSpecError:
        exc = sys.exc_info()[1]
        raise FieldSpecError(exc.message + ' (%s:%s)' % (meta.filename, name)).from_exc(None)

The raise's value is the constructor's (``msgraise.fluent``), so the site has the text ``{exc.message}
({meta.filename}:{name})``; that text wraps the caught message (``indexdata.caught``: ``exc.message``), so the
handler, whose new instance the traceback ends in, ranks above the helper that raised the original."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

EXCEPTIONS = '''
class DbfError(Exception):
    """Fatal errors elicit this response."""

    def __init__(self, message, *args):
        Exception.__init__(self, message, *args)
        self.message = message

    def from_exc(self, exc):
        self.__cause__ = exc
        return self


class FieldSpecError(DbfError, ValueError):
    """invalid field specification"""
'''

TABLES = '''
import sys

from .exceptions import DbfError, FieldSpecError


def add_numeric(format, flags):
    length, decimals = int(format[0]), int(format[1])
    if not 0 < length < 21:
        raise FieldSpecError("Numeric fields must be between 1 and 20, not %d" % length)
    if decimals and not 0 < decimals <= length - 2:
        raise FieldSpecError("Decimals must be between 0 and Length-2 (Length: %d, Decimals: %d)" % (length, decimals))
    return length, decimals, flags


def add_character(format, flags):
    length = int(format[0])
    if not 0 < length < 256:
        raise FieldSpecError("Character fields must be between 1 and 255, not %d" % length)
    return length, 0, flags


class Table:
    inits = {"N": add_numeric, "C": add_character}

    def __init__(self, filename):
        self.filename = filename
        self.fields = {}

    def add_fields(self, name, field_type, pieces):
        if name in self.fields:
            raise DbfError("Field '%s' already exists" % name)
        init = self.inits[field_type]
        try:
            length, decimals, flags = init(pieces, 0)
        except FieldSpecError:
            exc = sys.exc_info()[1]
            raise FieldSpecError(exc.message + ' (%s:%s)' % (self.filename, name)).from_exc(None)
        self.fields[name] = (field_type, length, decimals)

    def field_info(self, name):
        if name not in self.fields:
            raise DbfError("field %s does not exist" % name).from_exc(None)
        return self.fields[name]
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "fluentraise", "dbfkit",
                               {"__init__.py": "", "exceptions.py": EXCEPTIONS, "tables.py": TABLES})


def test_a_raise_through_a_method_returning_the_instance_has_the_constructors_text(lib: Catalog) -> None:
    r = explain(lib, "dbfkit.exceptions.DbfError: field AGE does not exist")
    top = r.matches[0]
    assert top.qualname == "Table.field_info" and top.method == "exact" and r.confident


@pytest.mark.parametrize("text", [
    "dbfkit.exceptions.FieldSpecError: Decimals must be between 0 and Length-2 (Length: 3, Decimals: 2) (blah:AGE)",
    "dbfkit.exceptions.FieldSpecError: Character fields must be between 1 and 255, not 300 (blah:NAME)",
])
def test_the_handler_adding_a_suffix_ranks_above_the_original(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    top = r.matches[0]
    assert top.qualname == "Table.add_fields" and top.method == "exact", [(m.qualname, m.score) for m in r.matches]
