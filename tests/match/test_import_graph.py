"""No import circles between the modules of the match and extract packages, counting lazy
(function-level) and ``TYPE_CHECKING`` imports too: each such pair once was one
(explain <-> versions, global_index <-> route, index <-> store)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "errdex"


def _graph(package: str) -> dict[str, set[str]]:
    root = SRC / package
    mods = {f"errdex.{package}." + f.relative_to(root).with_suffix("").as_posix().replace("/", "."): f
            for f in root.rglob("*.py")}
    mods = {k.removesuffix(".__init__"): v for k, v in mods.items()}
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, f in mods.items():
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    target = f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in mods else node.module
                    if target in mods and target != m:
                        edges[m].add(target)
            elif isinstance(node, ast.Import):
                edges[m].update(a.name for a in node.names if a.name in mods and a.name != m)
    return edges


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle, if any (depth-first search with colours)."""
    colour: dict[str, int] = {}
    stack: list[str] = []

    def visit(v: str) -> list[str] | None:
        colour[v] = 1
        stack.append(v)
        for w in sorted(edges[v]):
            if colour.get(w) == 1:
                return [*stack[stack.index(w):], w]
            if w not in colour and (found := visit(w)) is not None:
                return found
        stack.pop()
        colour[v] = 2
        return None

    for v in sorted(edges):
        if v not in colour and (found := visit(v)) is not None:
            return found
    return None


@pytest.mark.parametrize("package", ["match", "extract"])
def test_no_import_circle(package: str) -> None:
    assert _cycle(_graph(package)) is None


def test_a_circle_is_found() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
