"""A raise of a name an enclosing ``if isinstance(name, C)`` narrows raises ``C`` (pint 0.26.2's
``for stmt in parsed: if isinstance(stmt, common.DefinitionSyntaxError): raise stmt``, the error
built where the parser returned it); a name whose binding already says what it holds keeps that."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

ERRORS = '''
    class DefinitionError(ValueError):
        pass


    class SyntaxProblem(DefinitionError):
        def __init__(self, msg):
            self.msg = msg

        def __str__(self):
            return self.msg
'''

PARSER = '''
    from . import errors


    def parse(lines):
        for line in lines:
            if "=" not in line:
                yield errors.SyntaxProblem(f"Exactly two terms expected in {line!r}")
            else:
                yield line.split("=")


    def load(lines):
        for stmt in parse(lines):
            if isinstance(stmt, (errors.SyntaxProblem, KeyError)):
                raise stmt
            if isinstance(stmt, str):
                raise ValueError(stmt)


    def convert(a, b):
        factor = errors.DefinitionError(f"cannot convert {a} to {b}")
        if isinstance(factor, Exception):
            raise factor
'''


def test_an_isinstance_guard_names_the_raised_class(tmp_path: Path) -> None:
    pkg = tmp_path / "units"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "errors.py").write_text(textwrap.dedent(ERRORS))
    (pkg / "parser.py").write_text(textwrap.dedent(PARSER))
    result = extract_dir(tmp_path)
    loose = site_in(result, "units/parser.py", "load")
    assert loose.exception_resolved == "units.errors.SyntaxProblem"
    bound = site_in(result, "units/parser.py", "convert")
    assert bound.exception_resolved == "units.errors.DefinitionError"
    assert [t.render() for t in bound.templates] == ["cannot convert {a} to {b}"]
