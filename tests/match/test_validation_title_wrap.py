"""A package joining pydantic's error ``msg``s into its own error wraps the validator's text after the title
pydantic puts before it (ical 14.3.1, round 38: ``ComponentModel.__init__`` catches ``ValidationError`` and
raises ``CalendarParseError(": ".join(["The calendar is not valid: Failed to parse ... component", *msgs]))``,
each msg ``Value error, <the text its validator raised>``).  The validator's ``Failed to validate '{v}' as
{types}: {err_msg}`` is wholly the wrapper's value once ``Value error, `` is read off (``wrap.VALIDATION_TITLES``),
so the wrapper ranks first; before, the last ``Expected value to match ...`` text at the end ranked above it.
Without the title, a value with other text before it still wraps nothing."""

from __future__ import annotations

import pytest
from sitekit import site

from errdex.match import explain_parsed, parse_safely
from errdex.match.index import MatchIndex, build
from errdex.model import Segment, Snapshot

SNAP = Snapshot(repo="example/icallike", ref="v1", url_base="https://github.com/example/icallike/blob/v1")

COMPONENT = "c000000000000001"
REGISTRY = "c000000000000002"
DATE = "c000000000000003"
DATE_TIME = "c000000000000004"

SITES = [
    site("icallike/component.py", 164, "icallike.exceptions.CalendarParseError",
         Segment(text="The calendar is not valid: Failed to parse "), Segment(expr="self.__class__.__name__.upper()"),
         Segment(text=" component: "), Segment(expr="msg"), eid=COMPONENT),
    site("icallike/types/data_types.py", 145, "ValueError",
         Segment(text="Failed to validate '"), Segment(expr="prop.value"), Segment(text="' as "),
         Segment(expr="' or '.join(sub_type.__name__ for sub_type in field_types)"), Segment(text=": "),
         Segment(expr="err_msg"), eid=REGISTRY),
    site("icallike/types/date.py", 38, "ValueError",
         Segment(text="Expected value to match DATE pattern: '"), Segment(expr="prop.value"), Segment(text="'"),
         eid=DATE),
    site("icallike/types/date_time.py", 29, "ValueError",
         Segment(text="Expected value to match DATE-TIME pattern: "), Segment(expr="prop.value"), eid=DATE_TIME),
]

TEXT = ("The calendar is not valid: Failed to parse TESTMODEL component: Value error, Failed to validate "
        "'2025NotADate' as datetime or date: Expected value to match DATE-TIME pattern: 2025NotADate; "
        "Expected value to match DATE pattern: '2025NotADate'")


@pytest.fixture(scope="module")
def idx() -> MatchIndex:
    return build((SNAP, s) for s in SITES)


def test_the_package_error_joining_validation_msgs_is_the_answer(idx: MatchIndex) -> None:
    matches = explain_parsed(idx, parse_safely(TEXT), top=3).matches
    assert matches[0].id == COMPONENT
    assert matches[0].wraps == REGISTRY


def test_other_text_before_the_validator_s_wraps_nothing(idx: MatchIndex) -> None:
    text = TEXT.replace("Value error, ", "Bad value here, ")
    matches = explain_parsed(idx, parse_safely(text), top=3).matches
    assert matches[0].wraps is None
