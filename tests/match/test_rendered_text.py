"""A text a renderer prints around the message it was handed (tatsu 5.24.0's ``FailedParse.__str__`` ->
``render()`` -> ``memento(msg, ...)``): the message, the last line and a pasted report find the raise whose
text is in it, even when a word of that text touches the renderer's part (``Expecting @name`` opens right
after ``error: `` and ends the line), and a raise whose text is not in it is not the answer.  The messages are
captured from tatsu's test suite (``bench/data/tatsu-5.24.0.jsonl``); the library is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

MEMENTO = '''
from io import StringIO


def memento(msg, text, line, col, rulestack, source=None):
    out = StringIO()
    print(f'error: {msg}', file=out)
    print(f'  -> {source or "<unknown>"}[{line + 1}:{col + 1}]', file=out)
    print('   |', file=out)
    lines = text.splitlines()
    if line < len(lines):
        print(f' {line + 1} | {lines[line]}', file=out)
    print(f'   | {" " * col}^  {msg[:40]}', file=out)
    print(file=out)
    for call in rulestack:
        print(f'-> {call}', file=out)
    return out.getvalue()
'''

EXCEPTIONS = '''
from .memento import memento


class ParseException(Exception):
    pass


class FailedParse(ParseException):
    def __init__(self, cursor, stack, msg):
        super().__init__(cursor, stack, msg)
        self.cursor = cursor
        self.stack = [ri.name for ri in stack]
        self.msg = msg

    @property
    def message(self):
        return self.msg

    def render(self):
        msg = self.message
        return memento(msg, self.cursor.text, self.cursor.line, self.cursor.col, self.stack)

    def __str__(self):
        return self.render()


class FailedMeta(FailedParse):
    pass


class FailedExpectingEndOfText(FailedParse):
    pass
'''

CONTEXT = '''
from .exceptions import FailedExpectingEndOfText, FailedMeta


class ParseContext:
    def matchname(self):
        if self.cursor.matchre(r"[A-Za-z_]\\w*") is None:
            raise FailedMeta(self.cursor, self.callstack, 'Expecting @name')

    def matchint(self):
        if self.cursor.matchre(r"[+-]?\\d+") is None:
            raise FailedMeta(self.cursor, self.callstack, 'Expecting @int')

    def eofcheck(self):
        if not self.cursor.atend():
            raise FailedExpectingEndOfText(self.cursor, self.callstack, 'Expecting end of text')
'''

NAME = "error: Expecting @name\n  -> <unknown>[1:1]\n   |\n 1 | 1hello\n   | ^  Expecting @name\n\n-> start\n"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "rendered", "peglet", {
        "__init__.py": "", "memento.py": MEMENTO, "exceptions.py": EXCEPTIONS, "context.py": CONTEXT})


def test_the_message_finds_the_raise_whose_text_it_shows(lib: Catalog) -> None:
    top = explain(lib, NAME).matches[0]
    assert (top.qualname, top.tied_count) == ("ParseContext.matchname", 0)


def test_the_last_line_too(lib: Catalog) -> None:
    top = explain(lib, "peglet.exceptions.FailedMeta: " + NAME).matches[0]
    assert (top.qualname, top.tied_count) == ("ParseContext.matchname", 0)


def test_a_text_of_several_words(lib: Catalog) -> None:
    text = "error: Expecting end of text\n  -> <unknown>[1:2]\n   |\n 1 | x x\n   |  ^  Expecting end of text\n"
    assert explain(lib, text).matches[0].qualname == "ParseContext.eofcheck"
