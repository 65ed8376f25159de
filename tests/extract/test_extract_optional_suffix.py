"""An interpolated conditional whose one branch is an f-string and the other empty text: the
message has the suffix or not, two templates (textx 4.4's ``TextXError.__str__``:
``"{}:{}:{}: {}{}".format(..., self.message, f" => '{self.context}'" if self.context else "")``;
captured text from its own test suite: ``None:1:6: Expected ',' => 'a, c *b'``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

SRC = '''
    class GrammarError(Exception):
        def __init__(self, message, line=None, context=None):
            super().__init__(message)
            self.line = line
            self.message = message
            self.context = context

        def __str__(self):
            return "{}: {}{}".format(
                str(self.line), self.message, f" => '{self.context}'" if self.context else ""
            )


    def parse(text, pos):
        raise GrammarError("expected a rule name", line=pos, context=text)


    def check(items, n):
        if n:
            raise ValueError(f"bad {n}{f' of {len(items)}' if items else items}")
'''


def test_conditional_fstring_suffix_gives_both_texts(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    (pkg / "grammar.py").write_text(textwrap.dedent(SRC))
    sites = sorted((s for s in extract_dir(tmp_path).sites if s.path == "pkg/grammar.py"), key=lambda s: s.line)
    parse, check = sites
    texts = [t.render() for t in parse.templates]
    assert "{str(self.line)}: expected a rule name => '{text}'" in texts  # the raise's context=text
    assert "{str(self.line)}: expected a rule name" in texts
    # a branch that is a value (not text) keeps the whole conditional one placeholder
    assert [t.render() for t in check.templates] == ["bad {n}{f' of {len(items)}' if items else items}"]
