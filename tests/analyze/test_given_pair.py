"""A not-run Before/After for a check that two optional parameters are given together
(``analyze/static/givenpair.py``; rating 15 on 5d88: Example fix absent, "a Before/After that passes both
`a_scale` and `b_scale`, or neither")."""

from __future__ import annotations

import ast

from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_static
from errdex.analyze.static.givenpair import exactly_one
from errdex.model import Analysis

from .pagekit import PageCtx


def _page(c: PageCtx, qualname: str) -> Analysis:
    cat, ctx = c
    (site,) = [s for s in ctx.sites if s.qualname == qualname]
    return analyze_static(gather_facts(cat, ctx.snapshot, site, context=ctx), ctx.all_symbols)


def test_the_pair_is_read_from_the_check_in_each_spelling() -> None:
    assert exactly_one("(is_scaled := a_scale is not None) != (b_scale is not None)") == ("a_scale", "b_scale")
    assert exactly_one("(a is None) != (b is None)") == ("a", "b")
    assert exactly_one("(a is None) == (b is not None)") == ("a", "b")
    assert exactly_one("bool(a) ^ bool(b)") == ("a", "b")
    # both given, or both unset, is no "given together" check; nor is one name twice
    assert exactly_one("(a is not None) == (b is not None)") is None
    assert exactly_one("(a is None) != (a is not None)") is None and exactly_one("a != b") is None


def test_the_call_with_one_then_both_or_neither_is_shown_not_run(cli: PageCtx) -> None:
    a = _page(cli, "scaled")
    code = a.example_not_run
    ast.parse(code)
    lines = code.splitlines()
    assert lines[0] == "import clilike", code  # the public name the call is exported under
    calls = [ln for ln in lines if "scaled(" in ln]
    assert [c.split("(", 1)[1] for c in calls] == ["a, a_scale=a_scale)", "a, a_scale=a_scale, b_scale=b_scale)", "a)"]
    assert "raises ValueError: Either none or both scales should be provided" in code
    assert "(`a_scale` and `b_scale`: `object` or None)" in code  # what the signature says they take
    why = a.example_not_run_why
    assert "its own check `(a_scale is not None) != (b_scale is not None)`" in why and ":=" not in why, why
    assert "errdex has no proven example of this error" in why


def test_no_sample_for_a_method_whose_receiver_the_sample_cannot_name(cli: PageCtx) -> None:
    # ``Threads.__post_init__`` checks the pair too, but the call is the class, built with its fields
    assert _page(cli, "Threads.__post_init__").example_not_run == ""
