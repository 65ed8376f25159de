"""The public constant a private function returns: what the user can take instead of calling it.

Rating 8 (0480): the page told the user how to call the private ``_tiled_wgmma_layout`` without saying that all it
returns, once its shape checks pass, is the module's public ``WGMMA_LAYOUT``.  From the raising function as its
snippet shows it (its ``def`` parsed, ``earlyexit``): when every ``return`` in it returns one upper-case name
that the function's module holds (the snapshot's symbol table), the public spelling of that name is the module
itself or, shorter, a public package above it that re-exports the same name.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from errdex.analyze.earlyexit import function_tree
from errdex.model import ErrorSite

_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*\Z")


def _public(module: str) -> bool:
    return bool(module) and not any(p.startswith("_") for p in module.split("."))


def returned_constant(site: ErrorSite, symbols: Mapping[str, tuple[str, ...]]) -> str:
    """``jax.experimental.mosaic.gpu.WGMMA_LAYOUT`` for a raise in a private function whose only return value is
    that module constant; "" otherwise (a public function, several return values, no ``def`` in the snippet)."""
    name = site.qualname.split(".<locals>.")[-1].rsplit(".", 1)[-1]
    if not name.startswith("_") or name.startswith("__"):
        return ""
    found = function_tree(site)
    if found is None:
        return ""
    fn = found[0]
    returns: list[ast.Return] = []
    stack: list[ast.AST] = list(fn.body)
    while stack:  # the function's own returns: not those of a function or class defined inside it
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Return):
            returns.append(node)
        stack.extend(ast.iter_child_nodes(node))
    values = {r.value.id if isinstance(r.value, ast.Name) else "" for r in returns}
    if len(values) != 1:
        return ""
    const = values.pop()
    if not _CONSTANT.match(const) or const not in symbols.get(site.module, ()):
        return ""
    # the shortest public module at or above the function's own that holds the name
    parts = site.module.split(".")
    for i in range(1, len(parts) + 1):
        mod = ".".join(parts[:i])
        if _public(mod) and const in symbols.get(mod, ()):
            return f"{mod}.{const}"
    return ""
