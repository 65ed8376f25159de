"""An object shown as text with more texts than a site keeps beside the rest reads as a placeholder (elementpath
5.1.4, round 15: ``ElementPathError.__str__`` formats ``'{2} at line {3}, column {4}: [{1}] {0}'.format(
self.message, self.code, self.token, *self.token.position)``, the token ``self`` passed by ``XPathToken.error``,
whose ``__str__`` has seven texts; times the message's, past the eight a site keeps, the site kept the first
token text only and ``'/' operator at line 1, column 2: [err:XPTY0019] ...`` fitted none of its texts)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

EXCEPTIONS = '''
    class ElementPathError(Exception):
        def __init__(self, message, code=None, token=None):
            super().__init__(message)
            self.message = message
            self.code = code
            self.token = token

        def __str__(self):
            return '{2} at line {3}: [{1}] {0}'.format(self.message, self.code, self.token, self.token.line)


    def xpath_error(code, message=None, token=None):
        if message is None:
            message = 'custom XPath error'
        return ElementPathError(message, 'err:' + code, token)
'''

TOKENS = '''
    from pkg.exceptions import xpath_error


    class XPathToken(object):
        symbol = ''

        def __str__(self):
            if self.symbol == '$':
                return '$%s variable reference' % self.value
            elif self.symbol == ',':
                return 'comma operator'
            elif self.symbol == '(':
                return 'parenthesized expression'
            elif self.symbol == '[':
                return 'predicate'
            return '%r operator' % self.symbol

        def error(self, code, message=None):
            return xpath_error(code, message, self)

        def select_child(self, context):
            if context.item is None:
                raise self.error('XPTY0019', f"Intermediate step contains an atomic value {context.item!r}")

        def check(self):
            raise ValueError(f"unexpected {self}")
'''


def _sites(tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "exceptions.py").write_text(textwrap.dedent(EXCEPTIONS))
    (tmp_path / "pkg" / "tokens.py").write_text(textwrap.dedent(TOKENS))
    return {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}


def test_object_with_too_many_texts_is_a_placeholder(tmp_path: Path) -> None:
    found = _sites(tmp_path)["XPathToken.select_child"]
    # five token texts times two messages is past the eight kept: the token is one placeholder that fits all
    assert found == ["{self} at line {self.token.line}: [err:XPTY0019] custom XPath error",
                     "{self} at line {self.token.line}: [err:XPTY0019] Intermediate step contains an atomic value "
                     "{context.item}"]


def test_object_whose_texts_fit_keeps_them(tmp_path: Path) -> None:
    found = _sites(tmp_path)["XPathToken.check"]
    assert found == ["unexpected ${self.value} variable reference", "unexpected comma operator",
                     "unexpected parenthesized expression", "unexpected predicate", "unexpected {self.symbol} operator"]
