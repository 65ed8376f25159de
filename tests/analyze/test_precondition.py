"""Prevention's last resort (``analyze/static/precondition.py``): rating 7 graded eight Prevention sections
absent ("the facts errdex has support none beyond the solutions"); every raise has a condition, so the page
says it before the public call."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_facts

from .test_related_weak import _ctx


def test_prevention_is_the_errors_own_condition_never_a_placeholder(tmp_path: Path) -> None:
    cat, ctx, sites = _ctx(tmp_path)
    try:
        snap = cat.snapshots()[0]
        a = analyze_facts(gather_facts(cat, snap, sites["pairs need an even count"], context=ctx), ctx)
        assert a.prevention, a
        text = a.prevention[0]
        # said of the public call, with the value it works out from the argument the user passes
        assert text.startswith("Before calling `consolelike.read_pairs`, check the `buf` you pass"), text
        assert "_Reader" not in text and "(values it works out from them)" in text, text  # `buf` named once
        private = analyze_facts(gather_facts(cat, snap, sites["cannot read an odd number of bytes"], context=ctx), ctx)
        assert private.prevention and private.prevention[0].startswith(
            "Wherever your code reaches `_Reader.readinto`"), private.prevention
        # no claim that nothing public reaches it: the graph errdex reads may miss a table or a callback
        assert "which does not mean none does" in private.prevention[0], private.prevention
    finally:
        cat.close()


def test_a_parameter_the_call_fills_in_itself_is_best_left_out(jaxlike) -> None:  # type: ignore[no-untyped-def]
    # rating 8, 027b: "choose the `vec_size` you pass so that ..." restated the message; `vec_size=None` (the
    # default) makes the function work out a value itself, which is the advice a user can follow
    from .conftest import site_with

    cat, snap, ctx = jaxlike
    a = analyze_facts(gather_facts(cat, snap, site_with(ctx, "must be divisible by the vec_size"), context=ctx), ctx)
    assert a.prevention, a
    text = a.prevention[0]
    assert "pass `vec_size=None` (or leave it out where that is its default) unless you need a particular" in text, text
    assert "the call then works one out itself before this check" in text and "must be divisible by the vec_size" in text, text
    assert "output_shape" not in text, text  # no local named
    # rating 12, 027b: the same advice is a solution too (it stood only in Defensive and Prevention, while
    # Solutions said "look at the `vec_size` you pass"), and it replaces that line
    sols = [s.text for s in a.solutions]
    assert any(s.startswith("Let `") and "choose `vec_size` itself: pass `vec_size=None`" in s for s in sols), sols
    assert not any(s.startswith("Look at the") for s in sols), sols


def test_the_check_the_call_makes_on_a_value_it_fills_in_is_said_as_code(jaxlike) -> None:  # type: ignore[no-untyped-def]
    # rating 13, 027b: Defensive said the `vec_size=None` advice in words only; a reader wants the check itself,
    # `vec_size is None or math.prod(output_shape) % vec_size == 0`, with the local it reads said to be no argument
    from .conftest import site_with

    cat, snap, ctx = jaxlike
    a = analyze_facts(gather_facts(cat, snap, site_with(ctx, "must be divisible by the vec_size"), context=ctx), ctx)
    note = a.guard_note
    assert "In code, the call passes this check when `vec_size is None or math.prod(output_shape) % vec_size == 0`" in note, note
    assert "(`output_shape` is a value the call works out inside, not an argument)" in note, note
    assert "output_shape" not in a.prevention[0], a.prevention  # Prevention keeps to the message's words
    # a check whose guard reads no parameter the call fills in gets no such line
    other = analyze_facts(gather_facts(cat, snap, site_with(ctx, "Expected the trailing dimension of the metadata"), context=ctx), ctx)
    assert "In code, the call passes" not in other.guard_note, other.guard_note


def test_code_negation_of_a_guard() -> None:
    from errdex.analyze.static.precondition import code_negation

    assert code_negation("math.prod(shape) % n") == "math.prod(shape) % n == 0"
    assert code_negation("not isinstance(x, int)") == "isinstance(x, int)"
    assert code_negation("len(a) < 3") == "len(a) >= 3"
    assert code_negation("x is None") == "x is not None"
    assert code_negation("not m.empty and m.abstract != ctx") == "m.empty or m.abstract == ctx"
    assert code_negation("a or f(b)") == "not a and not f(b)"
    assert code_negation("a if b else c") == "not (a if b else c)"
    assert code_negation("a (") == ""
