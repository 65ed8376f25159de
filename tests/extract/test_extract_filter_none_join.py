"""``sep.join(filter(None, [a, b, c]))``: the items that may be empty are there or not (parglare 0.22.0,
round 22: ``ParglareError.__init__``'s ``"\\n".join(filter(None, [f"{error_type}: {message}", context,
hint]))``, one placeholder before, 28 message-alone events matched nothing; ``extract/filtered.py``)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.extract.filtered import filter_none_items, kept_combinations
from errdex.extract.ir import Alt, Hole, Lit, cat

ERRORS = '''
    class ParglareError(Exception):
        def __init__(self, location, message, context_message=None, error_type="error", hint=None):
            self.location = location
            context = f"at {context_message}" if context_message else None
            hint = f"  hint: {hint}" if hint else None
            self.full_message = "\\n".join(filter(None, [f"{error_type}: {message}", context, hint]))

        def __str__(self):
            return f"{self.location}: {self.full_message}"


    class GrammarError(ParglareError):
        def __init__(self, location, message):
            super().__init__(location, message, error_type="grammar error")


    def check(terminal):
        raise GrammarError(location=terminal.location, message=f'Multiple definitions of rule "{terminal.name}"')
'''


def test_the_items_that_may_be_empty_are_there_or_not(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    site = next(s for s in extract_dir(tmp_path).sites if s.qualname == "check")
    found = {t.render() for t in site.templates}
    head = '{terminal.location}: grammar error: Multiple definitions of rule "{terminal.name}"'
    assert head in found  # no context, no hint: the first item alone
    assert head + "\n  hint: {hint}" in found


def test_which_lists_and_items() -> None:
    call = ast.parse('filter(None, [a, "b", c])', mode="eval").body
    items = filter_none_items(call)
    assert items is not None and len(items) == 3
    assert filter_none_items(ast.parse("filter(str.strip, [a, b])", mode="eval").body) is None
    assert filter_none_items(ast.parse("filter(None, items)", mode="eval").body) is None  # not a literal
    maybe = Alt((Hole("ctx"), Lit("")))
    combos = kept_combinations([cat(Lit("kind: "), Hole("msg")), maybe, Lit("")])
    assert combos == [(cat(Lit("kind: "), Hole("msg")), Hole("ctx")), (cat(Lit("kind: "), Hole("msg")),)]
