"""A module's decorator keys, read once for all its functions (``registered_table``), as the walker keeps them:
the same keys ``registered_keys`` gives one function."""

from __future__ import annotations

import ast
import textwrap

from errdex.extract.registered import registered_keys, registered_table

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


def test_the_table_holds_each_decorated_function_by_its_path() -> None:
    table = registered_table(ast.parse(SOURCE))
    assert table == {
        ("select__ancestor_axes",): ("ancestor", "ancestor-or-self"),
        ("XPath30Parser", "nud"): ("(end)",),
        ("XPath30Parser", "led"): ("new",),  # the last definition is the one bound; a text with blanks is no key
        ("XPath30Parser", "Inner", "evaluate"): ("+",),
        ("outer", "helper"): ("inner",),
    }  # the first `Shadowed`'s method is not bound: its key is not read


def test_registered_keys_reads_the_table() -> None:
    tree = ast.parse(SOURCE)
    for qual, keys in registered_table(tree).items():
        assert registered_keys(tree, qual) == keys
    assert registered_keys(tree, ("Shadowed", "nud")) == ()
    assert registered_keys(tree, ("XPath30Parser",)) == ()  # a class is not registered
    assert registered_keys(tree, ()) == ()  # a module-level raise
