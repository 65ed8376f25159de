"""Literal-in-order verification and placeholder values (no regex is built from a template)."""

from __future__ import annotations

from errdex.match.verify import MAX_TEXT, clip, names_plausible, normalize, reprs_plausible, values, verify

Segs = tuple[tuple[bool, str], ...]

RETRACE: Segs = ((True, "re-tracing function "), (False, "fun.__name__"), (True, " for `jit`, but 'no_tracing' is set"))


def test_exact_with_values() -> None:
    text = "re-tracing function my_fn for `jit`, but 'no_tracing' is set"
    v = verify(RETRACE, text)
    assert v.exact and v.anchored_start and v.anchored_end and v.coverage == 1.0
    assert values(RETRACE, text, v) == [("{fun.__name__}", "my_fn")]


def test_value_containing_the_next_literal_goes_to_the_placeholder() -> None:
    segs: Segs = ((True, "got "), (False, "x"), (True, " and "), (False, "y"), (True, "."))
    text = "got a and b and c."
    v = verify(segs, text)
    assert v.exact
    assert values(segs, text, v) == [("{x}", "a"), ("{y}", "b and c")]


def test_last_literal_is_found_rightmost() -> None:
    segs: Segs = ((False, "name"), (True, " is not defined"))
    text = "x is not defined is not defined"
    v = verify(segs, text)
    assert values(segs, text, v) == [("{name}", "x is not defined")]


def test_literals_out_of_order_are_not_exact() -> None:
    segs: Segs = ((True, "alpha "), (False, "a"), (True, " beta"))
    v = verify(segs, "beta then alpha x")
    assert not v.exact
    assert 0.0 < v.coverage < 1.0


def test_text_around_the_template_is_not_anchored() -> None:
    v = verify(RETRACE, "Error: re-tracing function f for `jit`, but 'no_tracing' is set (see docs)")
    assert v.exact and not v.anchored_start and not v.anchored_end


def test_placeholder_only_template_has_no_literal_text() -> None:
    v = verify(((False, "msg"),), "anything at all")
    assert v.total == 0 and v.coverage == 0.0 and v.anchored_start and v.anchored_end


def test_normalize_folds_whitespace() -> None:
    assert normalize("a\n   b\t\tc  ") == "a b c "


def test_clip_keeps_head_and_tail() -> None:
    text = "start " + "x" * (2 * MAX_TEXT) + " end"
    out = clip(text)
    assert len(out) <= MAX_TEXT + 1
    assert out.startswith("start ") and out.endswith(" end")
    assert clip("short") == "short"


def test_hostile_repetition_is_answered() -> None:
    # a classic catastrophic-backtracking shape for (.*)(.*)... regexes: many literals, no match
    segs: Segs = tuple(x for i in range(30) for x in ((True, "a" * (i % 3 + 1) + "b"), (False, f"v{i}")))
    v = verify(segs, "a" * 100_000)
    assert not v.exact and v.covered == 0


def test_an_empty_leading_value_with_the_literal_repeated_later() -> None:
    # "{x} AA {x} AA AA" with both values empty prints " AA  AA AA", stripped "AA AA AA": the first
    # literal is at the very start (its space went with the strip), not at its next occurrence
    segs: Segs = ((False, "x"), (True, " AA "), (False, "x"), (True, " AA AA"))
    v = verify(segs, "AA AA AA")
    assert v.exact and v.anchored_start and v.anchored_end
    assert values(segs, "AA AA AA", v) == [("{x}", ""), ("{x}", "")]
    # a value that is there is still taken
    v = verify(segs, "q AA r AA AA")
    assert v.exact and values(segs, "q AA r AA AA", v) == [("{x}", "q"), ("{x}", "r")]



def test_a_leading_value_printing_the_literal_s_words_read_again() -> None:
    # "{x} AA {type(v).__name__} AA" with x="AA" and the name "AA" prints "AA AA AA AA": the first reading
    # gives x nothing (the message starts with the literal's words) and the name "AA AA", no name; the second
    # (``empty_lead=False``, when the first left a value implausible: ``rank.score_template``) gives each its own
    segs: Segs = ((False, "x"), (True, " AA "), (False, "type(v).__name__"), (True, " AA"))
    text = "AA AA AA AA"
    first = verify(segs, text)
    assert first.exact and not names_plausible(segs, tuple(values(segs, text, first)))
    v = verify(segs, text, empty_lead=False)
    assert v.exact and values(segs, text, v) == [("{x}", "AA"), ("{type(v).__name__}", "AA")]
    assert names_plausible(segs, tuple(values(segs, text, v)))


def test_a_space_between_two_values_read_again_after_a_value() -> None:
    # cel-python's `f"no such overload: {self!r} {type(self)} != {other!r} {type(other)}"`: the first reading
    # shares the space ending "overload: " with an empty `self`; the second (``share_spaces=False``, when that
    # left a value implausible: ``rank.score_template``) finds the space after the value
    segs: Segs = ((True, "no such overload: "), (False, "self!r"), (True, " "), (False, "type(self)"),
                  (True, " != "), (False, "other!r"), (True, " "), (False, "type(other)"))
    text = "no such overload: IntType(6) <class 'c.IntType'> != StringType('x') <class 'c.StringType'>"
    first = verify(segs, text)
    assert first.exact and values(segs, text, first)[0] == ("{self!r}", "")
    v = verify(segs, text, share_spaces=False)
    assert v.exact
    assert values(segs, text, v) == [("{self!r}", "IntType(6)"), ("{type(self)}", "<class 'c.IntType'>"),
                                     ("{other!r}", "StringType('x')"), ("{type(other)}", "<class 'c.StringType'>")]
    assert reprs_plausible(values(segs, text, v)) and not reprs_plausible(values(segs, text, first))


def test_an_empty_value_between_two_spaces_still_shares_the_space() -> None:
    segs: Segs = ((True, "option "), (False, "name"), (True, " is unknown"))
    text = normalize("option  is unknown")
    for share in (True, False):
        v = verify(segs, text, share_spaces=share)
        assert v.exact and values(segs, text, v) == [("{name}", "")]
    spaces: Segs = ((True, "pair: "), (False, "a"), (True, " "), (False, "b"), (True, "."))
    # both empty: no space is left for the literal of spaces but the shared one
    assert verify(spaces, normalize("pair:  ."), share_spaces=False).exact


def test_a_printed_class_is_read_whole_before_the_literal_after_it() -> None:
    # cirq's `f'Not an Operation or Iterable: {type(root)} {root}'`: the space inside `<class 'NoneType'>`
    # is not the literal " " (nor is the space ending "Iterable: " shared with an empty class)
    segs: Segs = ((True, "Not an Operation or Iterable: "), (False, "type(root)"), (True, " "), (False, "root"))
    text = "Not an Operation or Iterable: <class 'NoneType'> None"
    for share in (True, False):
        v = verify(segs, text, share_spaces=share)
        assert v.exact and values(segs, text, v) == [("{type(root)}", "<class 'NoneType'>"), ("{root}", "None")]
    leading: Segs = ((False, "x.__class__"), (True, " "), (False, "x"), (True, " and "), (False, "type(y)"),
                     (True, " "), (False, "y"))
    text = "<class 'int'> 1 and <class 'str'> a"
    v = verify(leading, text)
    assert values(leading, text, v) == [("{x.__class__}", "<class 'int'>"), ("{x}", "1"),
                                        ("{type(y)}", "<class 'str'>"), ("{y}", "a")]
