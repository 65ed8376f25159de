"""Snippet windows start at a statement: never inside a docstring or a bracket."""

from __future__ import annotations

from errdex.snippets import window_of

SNIPPET = '''    continues the docstring of the function above.
    """
    return x


@register(prim)
def rule(ctx, axes):
    """Lower it.

    More words."""
    if axes:
        raise ValueError("no axes")
    return ctx
'''


def test_starts_at_the_def_holding_the_raise_with_its_decorator() -> None:
    text, start = window_of(SNIPPET, 100, 111, "rule")
    assert text.splitlines()[0] == "@register(prim)" and start == 105


SNIPPET2 = '''    the docstring's tail, with "quotes".
    """
    y = compute(
        x)
    if y:
        raise ValueError("y")
'''


def test_without_the_def_it_starts_at_an_outer_statement_not_in_the_docstring() -> None:
    text, start = window_of(SNIPPET2, 10, 15, "elsewhere")
    assert text.splitlines()[0] == "    y = compute(" and start == 12
