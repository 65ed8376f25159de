"""A helper method that returns ``cls(message, line, column, source)`` with ``cls=QuerySemanticError`` its default,
the class's ``__init__`` formatting a class attribute template with its arguments (eql 1.0.1's
``LarkToEQL._error`` and ``EqlParseError``): each caller's ``raise self._error(node, "...", cls=...)`` gets the
frame with its own text in it, and the class it passes (``extract/factories.py``, ``extract/formatted.py``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

ERRORS = '''
    import re


    class QueryError(Exception):
        """Base class for query errors."""


    class QueryParseError(QueryError):
        """Error while parsing a query."""

        template = u"Error at line:{},column:{}\\n{}\\n{}\\n{}"

        def __init__(self, error_msg, line, column, source, width=1, trailer=None):
            self.error_msg = error_msg
            self.line = line
            self.column = column
            self.source = source
            self.trailer = trailer
            leading = re.sub(r'[^\\t]', ' ', source)[:column]
            self.caret = leading + ("^" * width)
            message = self.template.format(line + 1, column + 1, error_msg, source, self.caret)
            if trailer:
                message += "\\n" + trailer
            super(QueryParseError, self).__init__(message)


    class QuerySyntaxError(QueryParseError):
        """Error with query syntax."""


    class QuerySemanticError(QueryParseError):
        """Error with query semantics."""


    class QuerySchemaError(QuerySemanticError):
        """Error for missing fields."""
'''

PARSER = '''
    from .errors import QuerySchemaError, QuerySemanticError, QuerySyntaxError


    class Walker(object):
        def __init__(self, text):
            self.lines = text.splitlines()

        def _error(self, node, message, end=False, cls=QuerySemanticError, width=None, **kwargs):
            """Generate an error for a node."""
            params = {}
            for child in node.children:
                params[child.type] = child.value
            params.update(kwargs)
            message = message.format(**params)
            line_number = node.line - 1 if not end else node.end_line - 1
            column = node.column - 1 if not end else node.end_column - 1
            source = "\\n".join(self.lines[:line_number + 1][-3:])
            trailer = "\\n".join(self.lines[line_number + 1:][:3])
            if width is None:
                width = 1
            return cls(message, line_number, column, source, width=width, trailer=trailer)

        def field(self, node, event_type):
            if node.value == "magic":
                raise self._error(node, "Field not recognized for {event_type} event", cls=QuerySchemaError,
                                  event_type=event_type)
            raise self._error(node, "Invalid syntax", cls=QuerySyntaxError)

        def sequence(self, node):
            raise self._error(node, "Repeated sequence runs must be greater than 1")

'''


def _extract(tmp_path: Path):  # type: ignore[no-untyped-def]
    (tmp_path / "querylang").mkdir()
    (tmp_path / "querylang" / "__init__.py").touch()
    (tmp_path / "querylang" / "errors.py").write_text(textwrap.dedent(ERRORS))
    (tmp_path / "querylang" / "parser.py").write_text(textwrap.dedent(PARSER))
    return extract_dir(tmp_path)


FRAME = "Error at line:{line + 1},column:{column + 1}\n%s\n{source}\n{leading}{\"^\" * width}"


def test_the_callers_text_fills_the_class_frame(tmp_path: Path) -> None:
    result = _extract(tmp_path)
    schema = site_in(result, "querylang/parser.py", "Walker.field", 0)
    assert schema.exception_resolved == "querylang.errors.QuerySchemaError"
    texts = [t.render() for t in schema.templates]
    assert FRAME % "Field not recognized for {event_type} event" in texts
    assert FRAME % "Field not recognized for {event_type} event" + "\n{trailer}" in texts
    syntax = site_in(result, "querylang/parser.py", "Walker.field", 1)
    assert syntax.exception_resolved == "querylang.errors.QuerySyntaxError"
    assert FRAME % "Invalid syntax" in [t.render() for t in syntax.templates]


def test_the_class_parameters_default_when_none_is_passed(tmp_path: Path) -> None:
    site = site_in(_extract(tmp_path), "querylang/parser.py", "Walker.sequence")
    assert site.exception_resolved == "querylang.errors.QuerySemanticError"
    assert FRAME % "Repeated sequence runs must be greater than 1" in [t.render() for t in site.templates]

