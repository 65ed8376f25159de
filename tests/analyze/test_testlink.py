"""Linking tests to errors: pattern agreement, type compatibility, ambiguity, hostile patterns."""

from __future__ import annotations

import re

import pytest

from errdex.analyze.patterns import cover, literal_runs, match_pattern, safe_compile
from errdex.model import Segment, Template

T = Template.of([Segment("got "), Segment(expr="n"), Segment(" dimensions, expected 2 or 3")])


@pytest.mark.parametrize(("pattern", "how"), [
    ("got 3 dimensions", "regex"),  # 3 is one of the plausible values tried
    ("got 4 dimensions", "literals"),  # 4 is not: the literal runs still agree
    (r"got \d+ dimensions, expected 2 or 3", "regex"),
    ("expected 2 or 3", "regex"),
    (re.escape("dimensions, expected 2 or 3"), "regex"),
    ("(?i)GOT 2 DIMENSIONS", "regex"),
    ("got 12345 dims.*expected 2 or 3", None),  # "dims" is not in the template
    ("something else entirely", None),
])
def test_match_pattern(pattern: str, how: str | None) -> None:
    m = match_pattern(pattern, T)
    assert (m.how if m else None) == how


def test_literal_runs_and_cover() -> None:
    branches, icase = literal_runs(r"foo\.bar(baz)?\s+qux|other")
    assert branches == [["foo.bar", "qux"], ["other"]] and not icase
    tokens: list[str | None] = ["a", "b", None, "c", "d"]
    assert cover("bXYc", tokens) == 2 and cover("zz", tokens) == 0 and cover("zz", list("abcd")) == -1


def test_hostile_patterns_are_not_compiled() -> None:
    assert safe_compile("(a+)+$") is None
    assert safe_compile("x" * 1000) is None
    assert safe_compile("[unclosed") is None
    assert match_pattern("(a+)+$", Template.literal("a" * 30 + "!")) is None


def test_links_on_the_fixture(jaxlike) -> None:  # type: ignore[no-untyped-def]
    _, _, ctx = jaxlike
    links = ctx.test_links()
    by_text = {s.template.render(): links.get(s.error_id, []) for s in ctx.sites}
    [(t, how, _)] = by_text["Expected a callable value, got {fun}"]
    assert (t.test_name, how) == ("JitTest.test_jit_not_callable", "regex")
    [(t, _, _)] = by_text["JAX tried to execute function {self.name}, but the no_execution config option is set"]
    assert t.test_name == "JitTest.test_no_execution"
    [(t, _, _)] = by_text["Abstract value passed as axis: {axis}"]
    assert t.test_name == "test_axis"  # expects jax.errors.ConcretizationTypeError by its public name
    assert by_text["re-tracing function {fun} for `jit`, but 'no_tracing' is set"] == []  # no test expects it
    # "no such key" (KeyError) and the pattern-less ValueError (two ValueError sites) link nowhere
    assert all(t.test_name not in ("test_unrelated", "JitTest.test_avals") for v in links.values() for t, _, _ in v)
