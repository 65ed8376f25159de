"""Guards, qualnames, snippets, docstrings and comments of the sites in shapes/guards.py."""

from __future__ import annotations

from extract_helpers import site_in

from errdex.model import ExtractResult

G = "shapes/guards.py"


def _guards(site: object) -> list[tuple[str, str, bool]]:
    return [(g.kind, g.normalized, g.negated) for g in site.guards]  # type: ignore[attr-defined]


def test_if_guard_and_method_qualname(shapes: ExtractResult) -> None:
    site = site_in(shapes, G, "Executor.__call__")
    assert _guards(site) == [("if", "config.no_execution.value", False)]
    assert site.guards[0].source == "config.no_execution.value"
    assert site.guards[0].line == 7
    assert site.docstring == "Run the computation."


def test_elif_and_else_are_negations(shapes: ExtractResult) -> None:
    assert _guards(site_in(shapes, G, "chain", 0)) == [("if", "x < 0", False)]
    assert _guards(site_in(shapes, G, "chain", 1)) == [("if", "not (x < 0)", True), ("elif", "x == 0", False)]
    assert _guards(site_in(shapes, G, "chain", 2)) == [
        ("else", "not (x < 0)", True), ("else", "not (x == 0)", True),
    ]


def test_while_and_except(shapes: ExtractResult) -> None:
    site = site_in(shapes, G, "loop_and_except")
    assert _guards(site) == [("while", "items", False), ("except", "KeyError, IndexError", False)]
    assert site.guards[1].source == "except (KeyError, IndexError)"


def test_match_cases(shapes: ExtractResult) -> None:
    assert _guards(site_in(shapes, G, "matching", 0)) == [("match", 'command matches ["go", direction]', False)]
    assert _guards(site_in(shapes, G, "matching", 1)) == [("match", "command matches _", False)]


def test_assert_guard_is_the_failed_condition(shapes: ExtractResult) -> None:
    site = site_in(shapes, "shapes/asserts.py", "with_message")
    assert _guards(site) == [("assert", "not (x > 0)", True)]


def test_nested_function_qualname_and_no_outer_guards(shapes: ExtractResult) -> None:
    site = site_in(shapes, G, "outer.<locals>.inner")
    assert site.guards == ()


def test_module_and_paths(shapes: ExtractResult) -> None:
    site = site_in(shapes, G, "chain", 0)
    assert (site.module, site.line, site.end_line) == ("shapes.guards", 14, 14)


def test_comments_above_and_inside(shapes: ExtractResult) -> None:
    site = site_in(shapes, G, "loop_and_except")
    assert site.comments == ("The callable failed: report it with the remaining count.", "noqa")


def test_snippet_is_the_real_lines(shapes: ExtractResult) -> None:
    site = site_in(shapes, G, "chain", 2)
    lines = site.snippet.split("\n")
    assert site.snippet_start == 3
    assert lines[site.line - site.snippet_start].strip() == 'raise ValueError("positive values are not allowed either")'
    assert len(lines) == site.line - site.snippet_start + 1 + 20
