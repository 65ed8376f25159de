"""A message whose first line is the library's own text and whose indented detail lines quote the error it
caught as ``Type: text``: zope.configuration 7.1's ``ConfigurationError(f"Missing parameter: {n!r}").add_details(v)``
prints the opening, then ``'    ' + line`` for each of ``traceback.format_exception_only(v)``'s lines
(``Missing parameter: 'no_default'\\n    zope.schema._bootstrapinterfaces.RequiredMissing: no_default``).
The parser cut the message at the indented ``Type: text`` line and read it as ``RequiredMissing``'s: no answer.
Python prints an exception's line at the margin, so one indented under a line of text is the message's. The
package is written in that shape; a log record's line above (naming a level) and a last line at the margin keep
their reading."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain, parse
from zopeconfshape import EXCEPTIONS

CONFIG = '''
from zconf.exceptions import ConfigurationError


class ValidationError(Exception):
    pass


def toargs(context, schema, data):
    args = {}
    for name, field in schema:
        n = name
        s = data.get(n, data)
        if s is not data:
            try:
                args[str(name)] = field.fromUnicode(str(s))
            except ValidationError as v:
                raise ConfigurationError("Invalid value for %r" % (n)).add_details(v)
        elif field.required:
            try:
                field.validate(field.default)
            except ValidationError as v:
                raise ConfigurationError(f"Missing parameter: {n!r}").add_details(v)
            args[str(name)] = field.default
    return args
'''

MISSING = "Missing parameter: 'no_default'\n    zope.schema._bootstrapinterfaces.RequiredMissing: no_default"
INVALID = "Invalid value for 'count'\n    zope.schema._bootstrapinterfaces.TooSmall: (-1, 0)"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "detailline", "zconf",
                               {"__init__.py": "", "exceptions.py": EXCEPTIONS, "config.py": CONFIG})


def test_the_indented_detail_line_is_message_text() -> None:
    p = parse(MISSING)
    assert (p.exception, p.message) == ("", MISSING)


def test_a_log_line_or_a_margin_line_above_keeps_the_error() -> None:
    logged = parse("2026-01-02 10:00:01 ERROR config failed\n    zope.schema.RequiredMissing: no_default")
    assert (logged.exception, logged.message) == ("zope.schema.RequiredMissing", "no_default")
    margin = parse("config failed\nzope.schema.RequiredMissing: no_default")
    assert (margin.exception, margin.message) == ("zope.schema.RequiredMissing", "no_default")


@pytest.mark.parametrize("text", [MISSING, INVALID])
def test_the_raise_that_opened_it_is_found(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    assert r.matches and r.matches[0].qualname == "toargs"
    assert r.matches[0].line == (23 if text == MISSING else 18)
