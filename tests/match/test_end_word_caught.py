"""A caught exception's text re-raised under a line prefix is not read for the function's name (python-toon
0.2.0, issue 17's ninety-third round): ``_Parser.key`` re-raises ``_parse_key``'s errors as ``Line {n}: {e}``,
and ``missing colon after key: 'user'``, raised by ``parse_field_line`` through the same prefix, ends with
``key``; that word was the other raise's, so the tie of the wrapper and the raise stands (``match/endword.py``).  Run
through the command line, as the held-out replay does (its stored match index orders the tied wrapper first)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.match import rank as R
from errdex.match.endword import by_end_word
from errdex.match.index import S_QUAL, T_SEGS, T_SITE, index_for

DECODER = '''
class ToonDecodeError(ValueError):
    """Raised when a document is not valid."""


class Line:
    def __init__(self, number, content):
        self.number = number
        self.content = content


class _Parser:
    def __init__(self, lines, strict=True):
        self.lines = lines
        self.strict = strict

    def error(self, line, message):
        prefix = f"Line {line.number}: " if line is not None else ""
        return ToonDecodeError(prefix + message)

    def assign(self, obj, key, value, line):
        if self.strict and key in obj:
            raise self.error(line, f"duplicate key {key!r}")
        obj[key] = value

    def key(self, token, line):
        try:
            return _parse_key(token)
        except ToonDecodeError as e:
            raise self.error(line, str(e)) from None

    def parse_field_line(self, obj, content, line):
        colon = content.find(":")
        if colon < 0:
            raise self.error(line, f"missing colon after key: {content!r}")
        key = self.key(content[:colon], line)
        self.assign(obj, key, content[colon + 1:].strip(), line)


def _parse_key(token):
    token = token.strip(" ")
    if token.startswith('"'):
        if not token.endswith('"') or len(token) < 2:
            raise ToonDecodeError(f"unterminated quoted key: {token!r}")
        return token[1:-1]
    return token
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, str]]:
    root = tmp_path_factory.mktemp("caughtword")
    db = str(root / "c.sqlite")
    index_package(root, "toonkit", {"__init__.py": "", "decoder.py": DECODER}, db)
    env = {**os.environ, "ERRDEX_HOME": str(root / "home"), "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    return db, env


@pytest.mark.parametrize("text", ["Line 2: missing colon after key: 'user'", "Line 3: duplicate key 'name'"])
def test_a_caught_texts_last_word_does_not_pick_the_rewrapper(lib: tuple[str, dict[str, str]], text: str) -> None:
    db, env = lib
    out = subprocess.run([sys.executable, "-m", "errdex", "explain", "--db", db, "--json", "--top", "1", text],
                         env=env, capture_output=True, text=True, check=True).stdout
    top = json.loads(out)["matches"][0]
    group = {top["qualname"], *(t["qualname"] for t in top["tied"])}
    assert {"_Parser.key"} < group and group & {"_Parser.parse_field_line", "_Parser.assign"}, group
    assert "set aside" not in top["tie_note"] and not top["confident"]


def test_the_hint_skips_a_caught_text_with_the_wrapper_on_top(lib: tuple[str, dict[str, str]]) -> None:
    # the held-out replay's order: the wrapper ``Line {line.number}: {e}`` on top, tied with the raise that wrote
    # the text; the caught text's last word ``key`` names the wrapper's function, and is no hint of it
    db, _ = lib
    idx = index_for(open_catalog(db))
    by_qual = {idx.sites[idx.templates[t][T_SITE]][S_QUAL]: t for t in range(len(idx.templates))
               if idx.templates[t][T_SEGS][:1] == ((True, "Line "),)}
    wrapper, raiser = by_qual["_Parser.key"], by_qual["_Parser.parse_field_line"]
    top = R.Scored(template=wrapper, site=idx.templates[wrapper][T_SITE], score=0.94, method="exact", pinned=False,
                   values=(("{line.number}", "2"), ("{e}", "missing colon after key: 'user'")), wraps=-1)
    assert by_end_word(idx, top, [idx.templates[raiser][T_SITE]]) is None
    # a value of the wrapper's own still names a function (the rule is kept, not switched off)
    own = R.Scored(template=wrapper, site=top.site, score=0.94, method="exact", pinned=False,
                   values=(("{line.number}", "2"), ("{token}", "bad key")), wraps=-1)
    assert by_end_word(idx, own, [idx.templates[raiser][T_SITE]]) is not None
