"""Errors an instance collects in a list attribute, one raised at the end (issue 17's fifty-eighth round):
json-five 1.1.2's ``JSONParser`` appends ``JSON5DecodeError(message, token)`` to ``self.errors`` in several
methods (``message`` built there) and ``parse`` raises ``self.errors[0]``.  The raise's texts are the appended
instances', each read where it is appended (``extract/storedlist.py``)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

from errdex.extract.storedlist import appended

UTILS = '''
    class JSON5DecodeError(ValueError):
        def __init__(self, msg, token):
            super().__init__(msg)
            self.msg = msg
            self.token = token
'''

PARSER = '''
    from .utils import JSON5DecodeError


    class JSONParser:
        def __init__(self):
            self.errors: list[JSON5DecodeError] = []
            self.expecting = []

        def parse(self, tokens):
            model = self._parse(tokens)
            if self.errors:
                if len(self.errors) > 1:
                    raise JSON5DecodeError(f"There were {len(self.errors)} errors", None)
                raise self.errors[0]
            return model

        def seq(self, p):
            if p.trailing > 1:
                self.errors.append(JSON5DecodeError("Syntax Error: multiple trailing commas", p.token))

        def string(self, tok, lineno, colno):
            if "\\\\\\n" in tok.value:
                errmsg = f"Illegal line terminator (line {lineno} column {colno}) without continuation"
                self.errors.append(JSON5DecodeError(errmsg, tok))

        def error(self, token):
            if token:
                if self.expecting:
                    message = f"Syntax Error. Was expecting {' or '.join(self.expecting[-1])}"
                else:
                    message = "Syntax Error"
                self.errors.append(JSON5DecodeError(message, token))
            else:
                self.errors.append(JSON5DecodeError("Expecting value. Received unexpected EOF", None))


    class Collector:
        def __init__(self, sink):
            self.found = []
            sink.register(self.found)

        def add(self, caught):
            self.found.append(caught)

        def finish(self):
            if self.found:
                raise self.found[0]
'''


def _result(tmp_path: Path) -> object:
    (tmp_path / "json5").mkdir()
    (tmp_path / "json5" / "__init__.py").touch()
    (tmp_path / "json5" / "utils.py").write_text(textwrap.dedent(UTILS))
    (tmp_path / "json5" / "parser.py").write_text(textwrap.dedent(PARSER))
    return extract_dir(tmp_path)


def test_a_list_attribute_raised_gives_each_appended_text_built_where_appended(tmp_path: Path) -> None:
    s = site_in(_result(tmp_path), "json5/parser.py", "JSONParser.parse", 1)  # type: ignore[arg-type]
    assert s.exception_resolved == "json5.utils.JSON5DecodeError"
    assert sorted(t.render() for t in s.templates) == [
        "Expecting value. Received unexpected EOF",
        "Illegal line terminator (line {lineno} column {colno}) without continuation",
        "Syntax Error",
        "Syntax Error. Was expecting {' or '.join(self.expecting[-1])}",
        "Syntax Error: multiple trailing commas",
    ]


def test_a_list_holding_caught_or_handed_values_stays_a_value(tmp_path: Path) -> None:
    s = site_in(_result(tmp_path), "json5/parser.py", "Collector.finish")  # type: ignore[arg-type]
    assert [t.render() for t in s.templates] == ["{self.found[0]}"]
    tree = ast.parse(textwrap.dedent(PARSER))
    raise_ = next(n for n in ast.walk(tree) if isinstance(n, ast.Raise) and isinstance(n.exc, ast.Subscript)
                  and "found" in ast.unparse(n.exc))
    assert raise_.exc is not None
    assert appended(tree, ("Collector", "finish"), raise_.exc) == []
