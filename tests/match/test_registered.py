"""Tied raises told apart by the key their function's decorator registers it under, quoted by the text
(elementpath 5.1.4, round 15: ``raise self.missing_context()`` in eighty-two handlers registered with
``@method(axis('ancestor-or-self'))``, whose error prints ``'ancestor-or-self' axis at line 1, column 1:
[err:XPDY0002] ...``).  Extraction keeps the decorator keys (``extract/registered.py``), matching narrows
the tied group to the sites registered under the quoted word (``match/registered.py``), never confident."""

from __future__ import annotations

import ast
from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.extract.registered import registered_keys
from errdex.match import explain

ERRORS = '''
class XPathError(Exception):
    def __init__(self, message, code=None, token=None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.token = token

    def __str__(self):
        if self.token is None:
            return '[{}] {}'.format(self.code, self.message)
        return '{2} at line {3}, column {4}: [{1}] {0}'.format(
            self.message, self.code, self.token, *self.token.position)


class MissingContextError(XPathError):
    """Raised when the dynamic context is required for evaluate the XPath expression."""
'''

TOKENS = '''
from .errors import MissingContextError


class Token:
    def __init__(self, parser, value=None):
        self.parser = parser
        self.value = value
        self.position = parser.position

    def __str__(self):
        return f"'{self.symbol}' {self.label}"

    def missing_context(self, message=None):
        return MissingContextError(message or 'Dynamic context required for evaluate', 'err:XPDY0002', self)


class ContextItemToken(Token):
    symbol = '.'
    label = 'context item expression'

    def select(self, context=None):
        if context is None:
            raise self.missing_context()
        yield context.item
'''

PARSER = '''
from .tokens import Token


class Parser:
    symbol_table = {}

    @classmethod
    def register(cls, symbol, label='symbol'):
        token_class = type(symbol, (Token,), {'symbol': symbol, 'label': label})
        cls.symbol_table[symbol] = token_class
        return token_class

    @classmethod
    def axis(cls, symbol):
        return cls.register(symbol, label='axis')

    @classmethod
    def method(cls, token_class):
        def bind(func):
            setattr(token_class, func.__name__.partition('__')[0], func)
            return func
        return bind
'''

AXES = '''
from .parser import Parser

method = Parser.method
axis = Parser.axis


@method(axis('ancestor'))
@method(axis('ancestor-or-self'))
def select__ancestor_axes(self, context=None):
    if context is None:
        raise self.missing_context()
    yield from context.iter_ancestors(axis=self.symbol)


@method(axis('parent'))
def select__parent_axis(self, context=None):
    if context is None:
        raise self.missing_context()
    yield from context.iter_parent()


@method(axis('following'))
def select__following_axis(self, context=None):
    if context is None:
        raise self.missing_context()
    yield from context.iter_followings()


@method(axis('preceding'))
def select__preceding_axis(self, context=None):
    if context is None:
        raise self.missing_context()
    yield from context.iter_preceding()
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "registered", "xpathkit", {
        "__init__.py": "", "errors.py": ERRORS, "tokens.py": TOKENS, "parser.py": PARSER, "axes.py": AXES})


def test_the_quoted_key_picks_the_handler_registered_under_it(lib: Catalog) -> None:
    r = explain(lib, "xpathkit.errors.MissingContextError: 'ancestor-or-self' axis at line 1, column 1: "
                     "[err:XPDY0002] Dynamic context required for evaluate")
    top = r.matches[0]
    assert top.qualname == "select__ancestor_axes" and top.tied_count == 0 and not r.confident
    assert "'ancestor-or-self'" in top.tie_note


def test_a_key_no_handler_is_registered_under_leaves_the_tie(lib: Catalog) -> None:
    r = explain(lib, "'.' context item expression at line 1, column 1: [err:XPDY0002] Dynamic context required for "
                     "evaluate")
    top = r.matches[0]
    assert top.tied_count == 4 and not r.confident


def test_the_keys_are_the_decorator_calls_short_string_literals() -> None:
    tree = ast.parse('''
@method(axis('following', reverse=False), 'a b', "x" * 2)
@deprecated("use select() instead")
def select__following_axis(self):
    pass


class Token:
    @register('(end)')
    def nud(self):
        pass

    def led(self):
        pass
''')
    assert registered_keys(tree, ("select__following_axis",)) == ("following",)
    assert registered_keys(tree, ("Token", "nud")) == ("(end)",)
    assert registered_keys(tree, ("Token", "led")) == ()
    assert registered_keys(tree, ("missing",)) == ()
