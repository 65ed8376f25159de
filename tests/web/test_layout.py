"""``errdex.web`` has no import circle: the route modules take what they share from ``routing``."""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "errdex" / "web"


def _imports() -> dict[str, set[str]]:
    """module -> the errdex.web modules it imports (anywhere in the file, functions included)."""
    graph: dict[str, set[str]] = {}
    for path in WEB.glob("*.py"):
        name = path.stem
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("errdex.web."):
                    deps.add(node.module.removeprefix("errdex.web.").split(".")[0])
                elif node.module == "errdex.web":
                    deps.update(a.name for a in node.names)
            elif isinstance(node, ast.Import):
                deps.update(a.name.removeprefix("errdex.web.").split(".")[0] for a in node.names
                            if a.name.startswith("errdex.web."))
        graph[name] = deps - {name}
    return graph


def test_no_import_circle_in_web() -> None:
    graph = _imports()
    done: set[str] = set()

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert node not in path, " -> ".join((*path, node))
        if node in done:
            return
        for dep in sorted(graph.get(node, ())):
            visit(dep, (*path, node))
        done.add(node)

    for module in sorted(graph):
        visit(module, ())
    assert {"app", "routes_api", "routes_pages", "seo", "routing"} <= set(graph)
    assert "app" not in graph["routes_api"] | graph["routes_pages"] | graph["seo"]
