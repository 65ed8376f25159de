"""A template of no word, values in a frame of punctuation: textx 4.4.0's ``TextXError.__str__`` prints
``{filename}:{line}:{col}: {message} => '{context}'``, the message an Arpeggio parser's (another library's words).
Word retrieval never found it, so from the message alone (issue 17's round 20: ``None:1:14: Expected 'first' or
'second' => 'rt  first *'``) a template sharing one word won.  Such a template (``indexdata.shaped``: three literal
parts, five characters) is kept in the index under ``SHAPED`` and verified whenever its every literal part is in
the text; being short, it is never a confident answer alone.  A lone separator (``{}: {}``) is no shape."""

from __future__ import annotations

import pytest
from sitekit import lit, ph, site

from errdex.match import explain_parsed, parse_safely
from errdex.match.index import MatchIndex, build
from errdex.match.indexdata import SHAPED, shaped
from errdex.model import Snapshot

SNAP = Snapshot(repo="example/texty", ref="v1", url_base="https://github.com/example/texty/blob/v1")

FRAMED = "c000000000000001"
WORDY = "c000000000000002"
PAIR = "c000000000000003"


SITES = [
    site("texty/model.py", 340, "texty.exceptions.TextXSyntaxError", ph("self.filename"), lit(":"), ph("self.line"),
         lit(":"), ph("self.col"), lit(": "), ph("e.message"), lit(" => '"), ph("e.context"), lit("'"), eid=FRAMED),
    site("texty/scoping.py", 413, "texty.exceptions.TextXSemanticError",
         lit("scope_redirection_logic must not return None"), eid=WORDY),
    site("texty/lang.py", 20, "ValueError", ph("key"), lit(": "), ph("value"), eid=PAIR),
]


@pytest.fixture(scope="module")
def idx() -> MatchIndex:
    return build((SNAP, s) for s in SITES)


def test_the_frame_of_punctuation_is_found_without_a_word(idx: MatchIndex) -> None:
    text = "None:1:14: Expected 'first' or 'second' => 'rt  first *          '"
    matches = explain_parsed(idx, parse_safely(text), top=3).matches
    assert matches[0].id == FRAMED
    assert not matches[0].confident  # a shape of punctuation is a lead, never a certainty


def test_a_lone_separator_is_no_shape(idx: MatchIndex) -> None:
    assert [idx.sites[idx.templates[t][0]][0] for t in idx.rewraps.get(SHAPED, ())] == [FRAMED]
    assert not shaped(((False, "{}"), (True, ": "), (False, "{}")))
    assert not shaped(((True, "at "), (False, "{}"), (True, ":"), (False, "{}"), (True, " =>")))  # a word


def test_two_marks_of_a_frame_are_a_shape() -> None:
    # cfgv 3.5.0's `ValidationError.__str__` around a caught text: `\n==> {ctx}\n=====> {e}` (round 23: its
    # `'utf-8' codec can't decode ...` and `Expecting value: ...` messages found no site at all)
    assert shaped(((True, " ==> "), (False, "{ctx}"), (True, " =====> "), (False, "{e}")))
    assert not shaped(((True, "("), (False, "{a}"), (True, ", "), (False, "{b}")))  # separators, not marks
    assert not shaped(((True, " ==> "), (False, "{ctx}"), (True, " file: "), (False, "{e}")))  # a word


def test_a_caught_text_in_two_marks_is_found() -> None:
    marks = [site("texty/cfg.py", 442, "texty.ValidationError", lit("\n==> "), ph("ctx"), lit("\n=====> "), ph("e"),
                  eid="c000000000000004"),
             site("texty/cfg.py", 447, "texty.ValidationError", lit("\n==> "), ph("ctx"), lit("\n=====> "), ph("e"),
                  eid="c000000000000005"), *SITES]
    text = "\n==> File /tmp/f\n=====> 'utf-8' codec can't decode byte 0x98 in position 0: invalid start byte"
    r = explain_parsed(build((SNAP, s) for s in marks), parse_safely(text), top=3)
    top = r.matches[0]
    assert {top.id, *(t.id for t in top.tied)} == {"c000000000000004", "c000000000000005"}
    assert not r.confident
