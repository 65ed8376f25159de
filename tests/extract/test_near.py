"""``near.walk_near`` visits exactly the nodes of ``ast.walk`` whose lines hold a marker."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from errdex.extract.near import marker_lines, walk_near

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SOURCES = sorted(p for p in FIXTURES.rglob("*.py") if p.stat().st_size > 200)


def _spans(node: ast.AST, lines: list[int]) -> bool:
    lo = getattr(node, "lineno", None)
    if lo is None:
        return False
    hi = getattr(node, "end_lineno", None) or lo
    lo = min([lo, *(d.lineno for d in getattr(node, "decorator_list", None) or [])])  # a decorated def holds them
    return any(lo <= n <= hi for n in lines)


def test_a_decorator_above_its_class_is_walked() -> None:
    src = "import os\n\n\n@register(os.environ.get('A'))\nclass C:\n    pass\n"
    lines = marker_lines(src, re.compile("environ"))
    got = [ast.unparse(n) for n in walk_near(ast.parse(src), lines) if isinstance(n, ast.Call)]
    assert got == ["register(os.environ.get('A'))", "os.environ.get('A')"]


def test_marker_lines_are_the_lines_that_match() -> None:
    src = "a = 1\nimport os\nx = os.environ.get('A')\n\ny = os.getenv('B')  # getenv\n"
    assert marker_lines(src, re.compile(r"environ|getenv")) == [3, 5]
    assert marker_lines(src, re.compile(r"nowhere")) == []
    assert marker_lines("environ", re.compile("environ")) == [1]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_walk_near_finds_every_positioned_node_on_the_marker_lines(path: Path) -> None:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, ValueError, RecursionError, MemoryError):
        pytest.skip("a deliberately broken fixture")
    source = path.read_text(encoding="utf-8")
    for pattern in (r"raise", r"def ", r"\(", r"environ|getenv"):
        lines = marker_lines(source, re.compile(pattern))
        want = {id(n) for n in ast.walk(tree) if _spans(n, lines)}
        got = {id(n) for n in walk_near(tree, lines) if getattr(n, "lineno", None) is not None}
        assert got == want, pattern


def test_walk_near_skips_what_spans_no_marker_line() -> None:
    tree = ast.parse("def f():\n    return 1\n\ndef g():\n    return os.getenv('X')\n")
    names = [n.name for n in walk_near(tree, [5]) if isinstance(n, ast.FunctionDef)]
    assert names == ["g"]
    assert list(walk_near(tree, [])) == []
