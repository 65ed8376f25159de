"""An exception's ``__str__`` returning ``self.render()``, whose ``render`` hands the text the constructor kept to
a function of the package that builds a report around it (tatsu 5.24.0's ``FailedParse.render`` ->
``memento(msg, text, info, stack)``, which ``print(...)``s lines into a ``StringIO``): the site's text is the
raise's own with the renderer's text around it, and a subclass overriding the property the renderer reads
(``FailedToken.message``) has its own (issue 17's sixty-eighth round)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

MEMENTO = '''
from io import StringIO


def memento(msg, text, line, rulestack, color=None):
    out = StringIO()
    print(f'error: {msg}', file=out)
    print(f'  -> <unknown>[{line + 1}]', file=out)
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

    def render(self, color=None):
        text = self.cursor.text
        msg = self.message
        return memento(msg, text, self.cursor.line, self.stack, color=color)

    def __str__(self):
        return self.render()


class FailedToken(FailedParse):
    def __init__(self, cursor, stack, token):
        super().__init__(cursor, stack, token)
        self.token = token

    @property
    def message(self):
        return 'expecting {}'.format(repr(self.token))


class FailedExpectingEndOfText(FailedParse):
    pass


class Report(ParseException):
    def __init__(self, title, msg):
        super().__init__(title, msg)
        self.title = title
        self.msg = msg

    def render(self):
        return memento(self.title, self.msg, 0, [])

    def __str__(self):
        return self.render()
'''

CONTEXT = '''
from .exceptions import FailedExpectingEndOfText, FailedToken, Report


class ParseContext:
    def token(self, token):
        if self.cursor.match(token) is None:
            raise FailedToken(self.cursor, self.callstack, token)
        return token

    def eofcheck(self):
        if not self.cursor.atend():
            raise FailedExpectingEndOfText(self.cursor, self.callstack, 'Expecting end of text')

    def report(self):
        raise Report('Grammar report', 'no rules')
'''


def _write(root: Path) -> None:
    pkg = root / "peglet"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, code in (("memento.py", MEMENTO), ("exceptions.py", EXCEPTIONS), ("context.py", CONTEXT)):
        (pkg / name).write_text(textwrap.dedent(code))


def _texts(root: Path, qualname: str) -> list[str]:
    return [t.render() for t in site_in(extract_dir(root), "peglet/context.py", qualname).templates]


def test_the_kept_text_with_the_renderers_text_around_it(tmp_path: Path) -> None:
    _write(tmp_path)
    assert _texts(tmp_path, "ParseContext.eofcheck") == [
        "{self.render()<before>}Expecting end of text{self.render()<after>}"]


def test_a_subclass_property_the_renderer_reads(tmp_path: Path) -> None:
    _write(tmp_path)
    assert _texts(tmp_path, "ParseContext.token") == [
        "{self.render()<before>}expecting {repr(self.token)}{self.render()<after>}"]


def test_a_renderer_handed_two_kept_texts_is_left_a_call(tmp_path: Path) -> None:
    """``memento(self.title, self.msg, 0, [])``: which of them the report shows is not known."""
    _write(tmp_path)
    assert _texts(tmp_path, "ParseContext.report") == ["{self.render()}"]
