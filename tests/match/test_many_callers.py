"""A helper that raises every caller's message: pycparser 3.12's ``CParser._parse_error(self, msg, coord)``
raises ``ParseError(f"{coord}: {msg}")`` for 45 calls in the parser, 37 distinct texts.  Two causes left
the raise with ``{coord}: {msg}`` alone: more than 32 distinct caller texts (the cap is now 64,
``resolve.MAX_CALLER_TEMPLATES``), and calls written as black wraps a long call, the text on the line after
the ``(`` (``self._parse_error(\\n    "Expected declaration after attributes", coord)``), in a method that
raises nothing itself: the quick text test that decides whether such a method is walked at all looked
for a quote right after ``(`` or ``, `` only.  The package is written in that shape (a parser whose
methods each reject one construct)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

WORDS = ("declaration", "typedef", "declarator", "specifier list", "struct reference", "expression", "constant",
         "string literal", "designator", "pragma", "labeled statement", "selection statement",
         "iteration statement", "jump statement", "abstract declarator", "enum body", "initializer",
         "parameter list", "function definition", "storage class", "type qualifier", "alignment specifier",
         "static assertion", "generic association", "compound literal", "bit field", "array size",
         "attribute list", "case label", "default label", "goto target", "cast", "sizeof operand",
         "member name")

HEAD = '''
class ParseError(Exception):
    """The text is not valid C."""


class Parser:
    def __init__(self, tokens):
        self.tokens = list(tokens)
        self.pos = 0

    def _coord(self):
        return f"<input>:1:{self.pos + 1}"

    def _peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _parse_error(self, msg, coord):
        raise ParseError(f"{coord}: {msg}")
'''

METHOD = '''
    def _parse_{name}(self):
        tok = self._peek()
        if tok is None or tok.kind != "{kind}":
            self._parse_error("Invalid {word}", self._coord())
        self.pos += 1
        return tok
'''

WRAPPED = '''
    def _attach_attributes(self, nodes, attributes):
        """Attach declaration prefixes, shared by comma-separated declarators."""
        if not nodes:
            self._parse_error(
                "Expected declaration after attributes", attributes[0].coord
            )
        for node in nodes:
            node.attributes = attributes
        return nodes
'''


def _parser() -> str:
    methods = [METHOD.format(name=w.replace(" ", "_"), kind=w.upper().replace(" ", "_"), word=w) for w in WORDS]
    return HEAD + "".join(methods) + WRAPPED


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "callers", "cparse", {"__init__.py": "", "parser.py": _parser()})


@pytest.mark.parametrize("text", [
    "<input>:1:7: Invalid member name",  # the last of 35 callers
    "<input>:1:1: Invalid declaration",
    ":1:1: Expected declaration after attributes",  # the wrapped call in a method that raises nothing
    "cparse.parser.ParseError: name.h:7:9: Expected declaration after attributes",
])
def test_each_callers_text_finds_the_helpers_raise(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    assert r.matches and r.matches[0].qualname == "Parser._parse_error"
    assert r.matches[0].method == "exact"
    assert r.matches[0].template != "{coord}: {msg}"
