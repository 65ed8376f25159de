"""A method saved in a local before a loop (imapclient 4.1.0's ``read_until = self.read_until`` in
``Lexer.read_token_stream``): a call of the local is a call edge to the method, so what the method raises is
reached (``calls._method_aliases``; issue 17's fifty-third round).  A local bound again is no alias."""

from __future__ import annotations

import ast
import textwrap

from errdex.extract.calls import call_edges

LEXER = textwrap.dedent('''
    class Lexer:
        def read_until(self, stream, end):
            raise ValueError("No closing '%s'" % chr(end))

        def skip(self, stream):
            return next(stream)

        def read_token_stream(self, stream):
            read_until = self.read_until
            for c in stream:
                yield read_until(stream, c)

        def read_other(self, stream, use_skip):
            step = self.read_until
            if use_skip:
                step = self.skip
            return step(stream, 34)
''')


def _callees(caller: str) -> set[str]:
    edges = call_edges(ast.parse(LEXER), "pkg.lexer", "pkg/lexer.py")
    return {e.callee for e in edges if e.caller == f"pkg.lexer.Lexer.{caller}" and e.kind == "call"}


def test_a_saved_method_is_called_through_its_local() -> None:
    assert "pkg.lexer.Lexer.read_until" in _callees("read_token_stream")


def test_a_local_bound_twice_is_no_alias() -> None:
    assert "pkg.lexer.Lexer.read_until" not in _callees("read_other")
    assert "pkg.lexer.Lexer.skip" not in _callees("read_other")
