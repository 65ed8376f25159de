"""A template of no word with some punctuation, not a ``shaped`` frame: abnf 2.9.1's ``ParseError`` prints its parser's
``__str__`` and the offset, ``{self.__class__.__name__}('{self.name}'): {start}`` for a rule of a grammar class
the user writes (``IncrementalRule('word'): 1``).  Retrieval finds no word of it, so a last line printing the class
answered with the class's sites of no text (``{cached.parser}: {cached.start}``, tied) alone: the index lists such
templates by their class (``WORDLESS_OF``) and a message printed with that class's name is checked against each;
found, its sites come first in the class's group (never confident: punctuation does not tell them from the
class's sites of no text, which fit as well)."""

from __future__ import annotations

import pytest
from sitekit import lit, ph, site

from errdex.match import explain_parsed, parse_safely
from errdex.match.index import MatchIndex, build
from errdex.match.indexdata import WORDLESS_OF
from errdex.model import Snapshot

SNAP = Snapshot(repo="example/grammar", ref="v1", url_base="https://github.com/example/grammar/blob/v1")

CACHED = "d000000000000001"
LPARSE = "d000000000000002"
PARSE_ALL = "d000000000000003"
LITERAL = "d000000000000004"
UNDEFINED = "d000000000000005"

ERR = "grammar.parser.ParseError"
SITES = [
    site("grammar/parser.py", 431, ERR, ph("cached.parser"), lit(": "), ph("cached.start"), eid=CACHED),
    site("grammar/parser.py", 945, ERR, ph("self.__class__.__name__"), lit("('"), ph("self.name"), lit("'): "),
         ph("start"), eid=LPARSE),
    site("grammar/parser.py", 1085, ERR, ph("self.__class__.__name__"), lit("('"), ph("self.name"), lit("'): "),
         ph("start"), eid=PARSE_ALL),
    site("grammar/parser.py", 604, ERR, lit("Literal('"), ph("value"), lit("'): "), ph("start"), eid=LITERAL),
    site("grammar/parser.py", 922, "grammar.parser.GrammarError", lit('Undefined rule "'), ph("self.name"), lit('"'),
         eid=UNDEFINED),
]


@pytest.fixture(scope="module")
def idx() -> MatchIndex:
    return build((SNAP, s) for s in SITES)


def test_the_class_lists_its_wordless_templates(idx: MatchIndex) -> None:
    listed = {idx.sites[idx.templates[t][0]][0] for t in idx.rewraps.get(WORDLESS_OF + "ParseError", ())}
    assert listed == {LPARSE, PARSE_ALL}  # not a lone separator (`{}: {}`), not a template of words


def test_a_last_line_of_the_class_finds_the_wordless_template_first(idx: MatchIndex) -> None:
    # found exactly, first in the class's group; the class's site of no text fits too (`{}: {}`) and stays in it
    r = explain_parsed(idx, parse_safely("grammar.parser.ParseError: IncrementalRule('word'): 1"), top=3)
    top = r.matches[0]
    assert top.method == "class" and not r.confident
    assert [top.id, *(t.id for t in top.tied)][:2] in ([LPARSE, PARSE_ALL], [PARSE_ALL, LPARSE])
    assert {top.id, *(t.id for t in top.tied)} == {LPARSE, PARSE_ALL, CACHED}


def test_another_class_printed_checks_none_of_them(idx: MatchIndex) -> None:
    r = explain_parsed(idx, parse_safely("grammar.parser.GrammarError: IncrementalRule('word'): 1"), top=3)
    assert all(m.id not in (LPARSE, PARSE_ALL) or m.method != "exact" for m in r.matches)


def test_a_message_that_does_not_fit_keeps_the_class_group(idx: MatchIndex) -> None:
    r = explain_parsed(idx, parse_safely("grammar.parser.ParseError: <grammar.parser.Prose object at 0x7f>: 0"),
                       top=3)
    assert r.matches[0].method == "class"
