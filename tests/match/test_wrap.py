"""Wrapped messages: a template whose placeholder holds another template's whole message ranks first.

The fixture is a small catalog built in memory: ``check_program`` catches a
``ProgTypeError`` and raises a new one whose message is the old one's, then
"while checking program:" and a listing (JAX's ``check_jaxpr`` does this), so
the message starts with the inner template's text, which has more literal
text than the wrapper's own.
"""

from __future__ import annotations

import pytest
from sitekit import lit, ph, site

from errdex.commands.explain import render
from errdex.match import explain_parsed, parse_safely
from errdex.match import wrap as W
from errdex.match.index import MatchIndex, build
from errdex.match.model import ParsedException
from errdex.match.rank import REPR_MESSAGE, exact_score, subclass_of, type_factor
from errdex.match.reading import printed_type
from errdex.match.verify import verify
from errdex.model import Snapshot, to_json

SNAP = Snapshot(repo="example/tinyprog", ref="v1", url_base="https://github.com/example/tinyprog/blob/v1")


WRAPPER = "a000000000000001"
INNER = "a000000000000002"
RESHAPE = "a000000000000003"
BARE = "a000000000000004"
ARANGE = "a000000000000005"
INCONCLUSIVE = "a000000000000006"
CONFIG = "a000000000000007"
RERAISE = "a000000000000008"

SITES = [
    site("tinyprog/core.py", 100, "ProgTypeError",
         ph("msg"), lit("\n\nwhile checking program:\n\n"), ph("program_str"), eid=WRAPPER),
    site("tinyprog/core.py", 200, "ProgTypeError",
         lit("Value for variable '"), ph("v"), lit("' inconsistently typed as "), ph("aval"),
         lit(" for let-binder of type "), ph("v.aval"), eid=INNER),
    site("tinyprog/arrays.py", 10, "ValueError",
         lit("cannot reshape array of size "), ph("n"), lit(" into shape "), ph("shape"), eid=RESHAPE),
    # a site that raises a caught message as it is: only a placeholder, it explains nothing
    site("tinyprog/core.py", 300, "ProgTypeError", ph("msg"), eid=BARE),
    site("tinyprog/numeric.py", 50, "InconclusiveDimension",
         lit("In arange with non-constant arguments the step ("), ph("step"),
         lit(") must be resolved statically.\nDetails: "), ph("e"), eid=ARANGE),
    site("tinyprog/shapes.py", 70, "InconclusiveDimension",
         lit("Symbolic dimension comparison "), ph("cmp"), lit(" is inconclusive."), eid=INCONCLUSIVE),
    site("tinyprog/config.py", 20, "AttributeError", lit("Invalid config name: "), ph("key!r"), eid=CONFIG),
    # ``except Exception as e: raise e``: catalogued with the class it caught
    site("tinyprog/tree.py", 40, "Exception", ph("e"), eid=RERAISE),
]

INNER_MSG = "Value for variable 'b' inconsistently typed as f32[] for let-binder of type i32[]"
WRAPPED_MSG = INNER_MSG + "\n\nwhile checking program:\n\n{ lambda ; a:f32[]. let b:i32[] = sin a in (b,) }"


@pytest.fixture(scope="module")
def idx() -> MatchIndex:
    return build((SNAP, s) for s in SITES)


def ranked(idx: MatchIndex, text: str) -> list[tuple[str, float, str | None]]:
    return [(m.id, m.score, m.wraps) for m in explain_parsed(idx, parse_safely(text), top=5).matches]


def test_the_wrapper_ranks_first_and_the_wrapped_cause_just_below(idx: MatchIndex) -> None:
    got = ranked(idx, "ProgTypeError: " + WRAPPED_MSG)
    (first, s1, wraps1), (second, s2, wraps2) = got[:2]
    assert (first, wraps1) == (WRAPPER, INNER)
    assert (second, wraps2) == (INNER, None)
    assert 0.5 <= s2 < s1 <= 1.0
    assert s2 <= s1 * 0.9 + 1e-4  # a cause's factor, as for a chained cause
    assert all(i != BARE or w is None for i, _, w in got)


def test_without_wrap_detection_the_inner_template_would_win(idx: MatchIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    # the fixture really exercises the mechanism: the inner template has more literal text
    monkeypatch.setattr(W, "find_wraps", lambda idx, cands, text="", breaks=(): {})
    got = ranked(idx, "ProgTypeError: " + WRAPPED_MSG)
    assert got[0][0] == INNER and got[1][0] == WRAPPER and got[0][1] > got[1][1]


def test_the_wrapper_counts_the_literal_text_of_both(idx: MatchIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "ProgTypeError: " + WRAPPED_MSG
    with_wrap = dict((i, s) for i, s, _ in ranked(idx, text))
    monkeypatch.setattr(W, "find_wraps", lambda idx, cands, text="", breaks=(): {})
    without = dict((i, s) for i, s, _ in ranked(idx, text))
    assert with_wrap[WRAPPER] > without[INNER] > without[WRAPPER]


def test_a_wrapper_that_ends_with_the_wrapped_message(idx: MatchIndex) -> None:
    text = ("In arange with non-constant arguments the step (b - 2) must be resolved statically.\n"
            "Details: Symbolic dimension comparison 'b - 2' > '0' is inconclusive.")
    got = ranked(idx, text)
    assert got[0][0] == ARANGE and got[0][2] == INCONCLUSIVE
    assert got[1][0] == INCONCLUSIVE and got[1][1] < got[0][1]


def test_a_message_that_wraps_nothing_is_unaffected(idx: MatchIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    for text in ("ProgTypeError: " + INNER_MSG, "ValueError: cannot reshape array of size 3 into shape (2, 2)"):
        got = ranked(idx, text)
        assert all(w is None for _, _, w in got)
        monkeypatch.setattr(W, "find_wraps", lambda idx, cands, text="", breaks=(): {})
        assert ranked(idx, text) == got
        monkeypatch.undo()
    assert ranked(idx, "ProgTypeError: " + INNER_MSG)[0][0] == INNER


def test_a_template_that_is_only_a_placeholder_never_wraps(idx: MatchIndex) -> None:
    bare = next(t for t, row in enumerate(idx.templates) if idx.sites[row[0]][0] == BARE)
    inner = next(t for t, row in enumerate(idx.templates) if idx.sites[row[0]][0] == INNER)
    # even handed as an exactly verified candidate whose value is the inner message, it claims nothing
    cands = [W.Candidate(bare, 0.99, True, (("{msg}", INNER_MSG),)), W.Candidate(inner, 0.98, True, ())]
    assert W.find_wraps(idx, cands) == {}
    # nor is it ever said to be wrapped: it has no literal text to be anchored by
    assert all(m.wraps != BARE for m in explain_parsed(idx, parse_safely(WRAPPED_MSG)).matches)


def test_wholly_needs_a_literal_anchor_at_an_end_of_the_value() -> None:
    inner = ((True, "Symbolic dimension comparison "), (False, "cmp"), (True, " is inconclusive."))
    assert W.wholly(inner, "Symbolic dimension comparison 'b' > '0' is inconclusive.")
    assert not W.wholly(inner, "Symbolic dimension comparison 'b' > '0' is inconclusive. And more")
    assert not W.wholly(inner, "so: Symbolic dimension comparison 'b' > '0' is inconclusive.")
    # placeholders at both ends: it could be any part of the value, so it explains nothing
    loose = ((False, "a"), (True, " while checking program: "), (False, "b"))
    assert not W.wholly(loose, "x while checking program: y")
    assert not W.wholly((), "anything")


def test_two_templates_that_would_wrap_each_other_wrap_nothing() -> None:
    sites = [
        site("p/a.py", 1, "ValueError", lit("outer text comes first: "), ph("x"), eid="b000000000000001"),
        site("p/b.py", 1, "ValueError", ph("y"), lit(" and inner text comes last"), eid="b000000000000002"),
    ]
    idx = build((SNAP, s) for s in sites)
    got = ranked(idx, "outer text comes first: foo and inner text comes last")
    assert len(got) == 2 and all(w is None for _, _, w in got)


def test_json_and_text_name_the_wrapped_error(idx: MatchIndex) -> None:
    result = explain_parsed(idx, parse_safely("ProgTypeError: " + WRAPPED_MSG), top=3)
    data = to_json(result)
    assert data["matches"][0]["wraps"] == INNER and data["matches"][1]["wraps"] is None
    text = render(result)
    assert f"wraps the message of errdex show {INNER}" in text
    assert f"wrapped by tinyprog/core.py:100 (errdex show {WRAPPER})" in text


def test_a_pinned_wrapper_stays_first_with_its_traceback(idx: MatchIndex) -> None:
    tb = ("Traceback (most recent call last):\n"
          '  File "/work/main.py", line 3, in <module>\n'
          "    check_program(p)\n"
          '  File "/venv/lib/python3.13/site-packages/tinyprog/core.py", line 100, in check_program\n'
          "    raise ProgTypeError(msg) from None\n"
          "tinyprog.core.ProgTypeError: " + WRAPPED_MSG + "\n")
    got = explain_parsed(idx, parse_safely(tb), top=3).matches
    assert got[0].id == WRAPPER and got[0].pinned_by_frame and got[0].wraps == INNER
    assert got[0].score > 0.99 and got[1].id == INNER and got[1].score < 0.5


def test_a_typeless_message_printed_as_a_repr_was_a_key_error(idx: MatchIndex) -> None:
    # str(KeyError(m)) is repr(m): no AttributeError prints its message quoted
    quoted = "\"Invalid config name: 'x'\""
    assert printed_type(ParsedException("", quoted)) == REPR_MESSAGE
    top = explain_parsed(idx, parse_safely(quoted)).matches[0]
    assert top.id == CONFIG and not top.confident
    plain = explain_parsed(idx, parse_safely("Invalid config name: 'x'")).matches[0]
    assert plain.id == CONFIG and plain.confident
    # quotes that are not a repr's (repr would pick double quotes around a single one)
    assert printed_type(ParsedException("", "'it's'")) == ""
    assert printed_type(ParsedException("ValueError", quoted)) == "ValueError"
    assert type_factor(REPR_MESSAGE, "KeyError", "KeyError") == 1.0
    assert type_factor(REPR_MESSAGE, "ConfigKeyError", "ConfigKeyError") == 1.0  # maybe a KeyError subclass
    assert type_factor(REPR_MESSAGE, "AttributeError", "AttributeError") < 0.9


def test_a_reraise_catalogued_as_exception_is_pinned_for_any_subclass(idx: MatchIndex) -> None:
    tb = ("Traceback (most recent call last):\n"
          '  File "/venv/lib/python3.13/site-packages/tinyprog/tree.py", line 40, in tree_map\n'
          "    raise e from None\n"
          "ValueError: pytree structure error: different types at key path\n")
    top = explain_parsed(idx, parse_safely(tb)).matches[0]
    assert top.id == RERAISE and top.method == "frame" and top.confident
    assert subclass_of("ValueError", "Exception") and subclass_of("KeyError", "LookupError")
    assert subclass_of("JaxprTypeError", "Exception")  # every exception is one
    assert not subclass_of("ValueError", "TypeError") and not subclass_of("KeyError", "ValueError")
    assert not subclass_of("ValueError", "ProgTypeError") and not subclass_of("", "Exception")


def test_a_long_exact_match_with_text_left_around_it_scores_below_one_that_explains_it_all() -> None:
    # specificity saturates for long templates: what decides is how much of the text is explained
    tail = "This error arises for comparison operations with shapes that are non-constant. " * 4
    segs = ((True, tail.strip()),)
    text = "In arange the step (b) must be static. Details: Symbolic comparison b > 0 is inconclusive. " + tail.strip()
    around, whole = verify(segs, text), verify(segs, tail.strip())
    assert around.exact and not around.anchored_start and whole.anchored_start and whole.anchored_end
    assert exact_score(len(tail), around, text) < exact_score(len(tail), whole, tail.strip()) - 0.001


def test_the_explain_page_links_the_wrapper_and_the_wrapped_error(idx: MatchIndex) -> None:
    from typing import Any, cast

    from errdex.web.settings import WebSettings
    from errdex.web.site import Site

    data = to_json(explain_parsed(idx, parse_safely("ProgTypeError: " + WRAPPED_MSG), top=3))
    html = Site(cast(Any, None), WebSettings()).explain_page(data, WRAPPED_MSG)
    first, second = html.split('<li class="match">')[1:3]
    assert f'around the message of <a href="/errors/{INNER}">' in first and "wrapped in" not in first
    assert f'wrapped in <a href="/errors/{WRAPPER}">tinyprog/core.py:100</a>' in second


def test_a_caught_exception_edited_by_little_text_still_wraps() -> None:
    # packaging's pylock: `except ... as e: raise PylockValidationError(f"{e} in {key!r}") from e`
    idx = build([
        (SNAP, site("p/pylock.py", 10, "PylockValidationError", ph("e"), lit(" in "), ph("key!r"),
                    eid="c000000000000001")),
        (SNAP, site("p/pylock.py", 40, "PylockValidationError", lit("Hash values must be strings in "), ph("ctx"),
                    eid="c000000000000002")),
        (SNAP, site("p/other.py", 5, "PylockValidationError", ph("name"), lit(" in "), ph("where"),
                    eid="c000000000000003")),
    ])
    r = explain_parsed(idx, parse_safely("Hash values must be strings in 'archive' in 'packages[0]'"), top=3)
    assert r.matches[0].id == "c000000000000001" and r.matches[0].wraps == "c000000000000002"
    # a short template whose placeholder is no caught exception wraps nothing
    assert W._rewraps(idx, 0) and not W._rewraps(idx, 2)
