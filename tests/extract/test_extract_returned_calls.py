"""A helper that raises, called as the value a function returns (``return tokenizer.raise_syntax_error(
"...")``, packaging's ``_parse_marker_op``): the call passes its message to the helper's raise like a
call made as a statement (the text ``Expected marker operator, one of <=, <, !=, ==, >=, >, ~=, ===,
in, not in`` was captured from packaging's own test suite)."""

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
