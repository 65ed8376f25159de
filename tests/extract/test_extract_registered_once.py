"""A module's decorator keys as the walker keeps them (``Registered``): each body on the way to a function read
once, each function's keys once; the same keys ``registered_keys`` gives one function."""

from __future__ import annotations

import ast
import textwrap

from errdex.extract.registered import Registered, registered_keys

SOURCE = textwrap.dedent('''
    @method(axis('ancestor', reverse_axis=True))
    @method(axis('ancestor-or-self', reverse_axis=True))
    def select__ancestor_axes(self, context=None):
        if context is None:
            raise self.missing_context()


    class XPath30Parser:
        @register('(end)')
        def nud(self):
            raise self.wrong_syntax()

        @register('old')
        def led(self):
            raise self.wrong_syntax()

        @register('new', "two words")
        async def led(self):
            raise self.wrong_syntax()

        class Inner:
            @infix('+')
            def evaluate(self):
                raise self.error('XPTY0004')


    class Shadowed:
        @register('gone')
        def nud(self):
            pass


    class Shadowed:
        def nud(self):
            pass


    def outer():
        @method('inner')
        def helper():
            pass
''')


QUALS = [("select__ancestor_axes",), ("XPath30Parser", "nud"), ("XPath30Parser", "led"),
         ("XPath30Parser", "Inner", "evaluate"), ("Shadowed", "nud"), ("outer",), ("outer", "helper"),
         ("XPath30Parser",), ("XPath30Parser", "Inner"), ("XPath30Parser", "missing"), ("missing", "nud"), ()]


def test_the_keys_by_function() -> None:
    registered = Registered(ast.parse(SOURCE))
    keys = {qual: registered.keys(qual) for qual in QUALS}
    assert {q: k for q, k in keys.items() if k} == {
        ("select__ancestor_axes",): ("ancestor", "ancestor-or-self"),
        ("XPath30Parser", "nud"): ("(end)",),
        ("XPath30Parser", "led"): ("new",),  # the last definition is the one bound; a text with blanks is no key
        ("XPath30Parser", "Inner", "evaluate"): ("+",),
        ("outer", "helper"): ("inner",),
    }  # the first `Shadowed`'s method is not bound: its key is not read; a class, a module-level raise: none
    assert [registered.keys(q) for q in QUALS] == list(keys.values())  # asked again: the same


def test_one_function_reads_as_many() -> None:
    tree = ast.parse(SOURCE)
    registered = Registered(tree)
    for qual in reversed(QUALS):  # the other way round: what was read for one path serves the next
        assert registered_keys(tree, qual) == registered.keys(qual)
