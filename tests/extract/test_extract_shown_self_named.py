"""``self`` shown as text (``shownself``) where its class's ``__str__`` returns a conditional expression, or prints
``self.__class__.__name__`` (abnf 2.9.1, issue 17's eighty-third round: ``raise ParseError(self, start)`` in the
parser classes, whose error prints ``f"{self.parser!s}: {self.start}"``; ``Literal.__str__`` returns
``f"Literal({value})" if isinstance(self.value, tuple) else "Literal('%s'%s)" % (...)`` and ``Rule.__str__``
``f"{self.__class__.__name__}('{self.name}')"``; read as a bare ``{self}: {start}`` or a wordless
``{self.__class__.__name__}('{self.name}'): {start}``, no message found them)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

PARSER = '''
    class ParseError(Exception):
        def __init__(self, parser, start):
            self.args = ()
            self.parser = parser
            self.start = start

        def __str__(self):
            return f"{self.parser!s}: {self.start}"


    class Literal:
        def __init__(self, value, case_sensitive=False):
            self.value = value
            self.case_sensitive = case_sensitive

        def lparse(self, source, start):
            if source[start:start + len(self.value)] != self.value:
                raise ParseError(self, start)
            return start + len(self.value)

        def __str__(self):
            value = tuple(rf"\\x{ord(x):02x}" if x < " " else x for x in self.value)
            return (
                f"Literal({value})"
                if isinstance(self.value, tuple)
                else "Literal('%s'%s)" % ("".join(value), ", case_sensitive" if self.case_sensitive else "")
            )


    class Rule:
        def __init__(self, name):
            self.name = name

        def parse_all(self, source):
            start = len(source) - 1
            if start:
                raise ParseError(self, start)

        def __str__(self):
            return f"{self.__class__.__name__}('{self.name}')"


    class GrammarRule(Rule):
        pass
'''


def _found(tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "parser.py").write_text(textwrap.dedent(PARSER))
    return {s.qualname: sorted({t.render() for t in s.templates}) for s in extract_dir(tmp_path).sites}


def test_a_conditional_expression_returned_by_str_is_its_text(tmp_path: Path) -> None:
    assert _found(tmp_path)["Literal.lparse"] == sorted([
        "Literal({value}): {start}",
        "Literal('{\"\".join(value)}', case_sensitive): {start}",
        "Literal('{\"\".join(value)}'): {start}",
    ])


def test_the_class_name_self_prints_is_each_class_of_the_package_then_any(tmp_path: Path) -> None:
    # a subclass outside the package (a grammar a user writes) prints its own name: the placeholder stays
    assert _found(tmp_path)["Rule.parse_all"] == sorted([
        "Rule('{self.name}'): {start}",
        "GrammarRule('{self.name}'): {start}",
        "{self.__class__.__name__}('{self.name}'): {start}",
    ])
