"""A message that is the ``repr`` of an exception's arguments (``match/argstuple.py``): rule-engine 5.0.2's
``EngineError.__init__`` never calls ``BaseException.__init__``, so ``raise AttributeResolutionError(name,
object_type)`` prints ``('abc', <_MappingDataTypeDef name=MAPPING ...>)`` and ``raise LookupError(container,
item)`` ``(('one', 'two'), 100)`` (issue 17's forty-fourth round). Their templates ``({name!r}, {object_type!r})``
have no word: retrieval never found them, and the class fallback of a bare value answered. A text printed as a
tuple of N values now reaches the templates that are that frame around N placeholders, whose values are read at
the top-level separators; three characters of punctuation are a lead, never a confident answer."""

from __future__ import annotations

import pytest
from sitekit import lit, ph, site

from errdex.match import explain_parsed, parse_safely
from errdex.match.argstuple import ARGS_CAP, ARGS_TUPLE, args_tuple_fields, printed_fields, printed_values
from errdex.match.index import MatchIndex, build
from errdex.model import Segment, Snapshot

SNAP = Snapshot(repo="example/rules", ref="v1", url_base="https://github.com/example/rules/blob/v1")

ATTR = "c000000000000011"
LOOKUP = "c000000000000012"
TRIPLE = "c000000000000013"
VALUE = "c000000000000014"
WORDY = "c000000000000015"


SITES = [
    site("rules/resolver.py", 143, "rules.errors.AttributeResolutionError", lit("("), ph("name", "r"), lit(", "),
         ph("object_type", "r"), lit(")"), eid=ATTR),
    site("rules/access.py", 315, "rules.errors.LookupError", lit("("), ph("container", "r"), lit(", "), ph("item", "r"),
         lit(")"), eid=LOOKUP),
    site("rules/access.py", 400, "rules.errors.RangeError", lit("("), ph("low", "r"), lit(", "), ph("high", "r"), lit(", "),
         ph("value", "r"), lit(")"), eid=TRIPLE),
    site("rules/context.py", 77, "rules.errors.SymbolResolutionError", Segment(expr="error"), eid=VALUE),
    site("rules/parser.py", 276, "rules.errors.RuleSyntaxError", lit("('syntax error (illegal character "),
         Segment(expr="t.value[0]"), lit(")', "), ph("t", "r"), lit(")"), eid=WORDY),
]


@pytest.fixture(scope="module")
def idx() -> MatchIndex:
    return build((SNAP, s) for s in SITES)


def test_a_printed_tuple_finds_the_frames_of_as_many_values(idx: MatchIndex) -> None:
    text = "('abc', <_MappingDataTypeDef name=MAPPING python_type=dict >)"
    matches = explain_parsed(idx, parse_safely(text), top=3).matches
    top = matches[0]
    assert {top.id, *(t.id for t in top.tied)} == {ATTR, LOOKUP}  # the same shape: a tie, never the class fallback
    assert not top.confident and top.method == "exact"
    assert TRIPLE not in {m.id for m in matches}  # three placeholders, two values


def test_the_values_are_read_at_the_top_level_separators(idx: MatchIndex) -> None:
    # the first `, ` is inside the first value: read there, `('one'` is no repr and the match was refused
    top = explain_parsed(idx, parse_safely("(('one', 'two'), 100)"), top=3).matches[0]
    assert top.method == "exact" and not top.confident
    assert [v.value for v in top.values] == ["('one', 'two')", "100"]
    three = explain_parsed(idx, parse_safely("(1, 'x', None)"), top=3).matches[0]
    assert three.id == TRIPLE and not three.confident


def test_which_texts_and_templates_have_the_shape(idx: MatchIndex) -> None:
    assert printed_values("(('one', 'two'), 100)") == ["('one', 'two')", "100"]
    assert printed_values("('a, b', 'c\\'d')") == ["'a, b'", "'c\\'d'"]
    assert printed_fields("(1,)") is None  # a tuple of one value: an exception of one argument prints it alone
    assert printed_fields("(see below) and (above)") is None
    assert printed_fields("(1,2)") is None  # Python's tuple repr separates with ", "
    assert printed_fields("not a tuple, at all") is None
    two = ((True, "("), (False, "{a}"), (True, ", "), (False, "{b}"), (True, ")"))
    assert args_tuple_fields(two) == 2
    assert args_tuple_fields(((True, "("), (False, "{a}"), (True, ")"))) is None
    assert args_tuple_fields(((True, "("), (False, "{a}"), (True, ": "), (False, "{b}"), (True, ")"))) is None
    assert sorted(k for k in idx.rewraps if k.startswith(ARGS_TUPLE)) == [f"{ARGS_TUPLE}2", f"{ARGS_TUPLE}3"]


def test_a_template_whose_words_the_message_shares_ranks_above_the_frame(idx: MatchIndex) -> None:
    # Python printed the first value with double quotes (it holds a quote): the wordy template is read loosely
    text = "(\"syntax error (illegal character '.')\", LexToken(error,'.(length)',1,6))"
    matches = explain_parsed(idx, parse_safely(text), top=3).matches
    assert matches[0].id == WORDY and matches[0].method == "fuzzy"
    assert matches[1].score <= ARGS_CAP and matches[1].id in (ATTR, LOOKUP)
