"""A short wrapper anchored at both ends by literals ranks above the message it wraps: cantools 45.1.0's
``load_string`` catches each format loader's error and raises ``UnsupportedDatabaseFormatError``, whose
text is ``DBC: "<the caught text>"`` (issue 17's round 19: ``DBC: "unused VAL_ entries in DBC:\\n    VAL_ 99
signal1"`` was named confidently at the loader's ``ValueError``).  ``DBC: "{e_dbc}"`` has less literal
text than a wrapper needs (``wrap.MIN_LITERAL``) and its placeholder no caught exception's name, but it is one
value between two literals, the first with a word: that value being wholly the loader's message says it
wrapped it (``wrap._framed``).  A frame of less than a word (``at "{x}"``) still wraps nothing."""

from __future__ import annotations

import pytest
from sitekit import site

from errdex.match import explain_parsed, parse_safely
from errdex.match.index import MatchIndex, build
from errdex.model import Segment, Snapshot

SNAP = Snapshot(repo="example/canlike", ref="v1", url_base="https://github.com/example/canlike/blob/v1")

WRAPPER = "b000000000000001"
LOADER = "b000000000000002"
QUOTED = "b000000000000003"
RANGE = "b000000000000004"


SITES = [
    site("canlike/database/__init__.py", 377, "canlike.errors.UnsupportedDatabaseFormatError",
         Segment(text='DBC: "'), Segment(expr="e_dbc"), Segment(text='"'), eid=WRAPPER),
    site("canlike/formats/dbc.py", 1434, "ValueError",
         Segment(text="unused VAL_ entries in DBC:\n    "), Segment(expr="errors"), eid=LOADER),
    site("canlike/formats/kcd.py", 40, "ValueError", Segment(text='at "'), Segment(expr="name"), Segment(text='"'),
         eid=QUOTED),
    site("canlike/formats/sym.py", 90, "ValueError",
         Segment(text="frame id "), Segment(expr="frame_id"), Segment(text=" is out of range"), eid=RANGE),
]


@pytest.fixture(scope="module")
def idx() -> MatchIndex:
    return build((SNAP, s) for s in SITES)


def test_the_named_frame_around_the_loaders_message_is_the_answer(idx: MatchIndex) -> None:
    matches = explain_parsed(idx, parse_safely('DBC: "unused VAL_ entries in DBC:\n    VAL_ 99 signal1"'),
                             top=3).matches
    assert matches[0].id == WRAPPER
    assert matches[0].wraps == LOADER
    assert [m.id for m in matches[:2]] == [WRAPPER, LOADER]  # the wrapped cause just below it


def test_a_frame_without_a_word_of_its_own_wraps_nothing(idx: MatchIndex) -> None:
    matches = explain_parsed(idx, parse_safely('at "frame id 7 is out of range"'), top=3).matches
    assert matches[0].id == RANGE
    assert matches[0].wraps is None
