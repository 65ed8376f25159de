"""Calls that reach a raise from where the walk used to miss them: a helper called as the value a
function returns (``return tokenizer.raise_syntax_error("...")``, packaging's ``_parse_marker_op``),
which passes its message to the helper's raise like a call made as a statement (the text ``Expected
marker operator, one of <=, <, !=, ==, >=, >, ~=, ===, in, not in`` was captured from packaging's own
test suite), and a lambda calling a helper that raises the class and arguments it is given."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

TOKENIZER = '''
    class ParserSyntaxError(Exception):
        """The parser met text it cannot read."""


    class Tokenizer:
        def __init__(self, source):
            self.source = source

        def raise_syntax_error(self, message):
            raise ParserSyntaxError(message)
'''

PARSER = '''
    def parse_marker_op(tokenizer: "Tokenizer", match):
        if match is not None:
            return match
        return tokenizer.raise_syntax_error(
            "Expected marker operator, one of <=, <, !=, ==, >=, >, ~=, ===, in, not in"
        )


    def parse_extras(tokenizer: "Tokenizer", ok):
        if not ok:
            tokenizer.raise_syntax_error("Expected comma between extra names")
'''


def test_a_returned_call_passes_its_message_to_the_helpers_raise(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "_tokenizer.py").write_text(textwrap.dedent(TOKENIZER))
    (tmp_path / "pkg" / "_parser.py").write_text(
        "from pkg._tokenizer import Tokenizer\n" + textwrap.dedent(PARSER))
    site = next(s for s in extract_dir(tmp_path).sites if s.qualname == "Tokenizer.raise_syntax_error")
    rendered = {t.render() for t in site.templates}
    assert "Expected marker operator, one of <=, <, !=, ==, >=, >, ~=, ===, in, not in" in rendered
    assert "Expected comma between extra names" in rendered


HELPERS = '''
    def raise_(exception, *args):
        raise exception(*args)


    def strictly_n(iterable, n, too_short=None, too_long=None):
        if too_short is None:
            too_short = lambda item_count: raise_(
                ValueError,
                f"Too few items in iterable (got {item_count})",
            )
        if too_long is None:
            too_long = lambda item_count: raise_(
                ValueError,
                f"Too many items in iterable (got at least {item_count})",
            )
        return too_short, too_long
'''


def test_a_helper_raising_the_class_and_arguments_its_callers_pass(tmp_path: Path) -> None:
    # more-itertools' `raise_(exception, *args)`, called from lambdas: the printed texts
    # "Too few items in iterable (got 4)" / "Too many items in iterable (got at least 4)" were
    # captured from its own test suite
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(textwrap.dedent(HELPERS))
    site = next(s for s in extract_dir(tmp_path).sites if s.qualname == "raise_")
    assert site.exception_resolved == "ValueError"
    assert [t.render() for t in site.templates] == ["Too few items in iterable (got {item_count})",
                                                     "Too many items in iterable (got at least {item_count})"]
