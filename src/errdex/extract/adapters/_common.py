"""Helpers the adapters share: reading a call's arguments as constant text."""

from __future__ import annotations

import ast
import re

from errdex.extract.near import marker_lines, walk_near


def arg(call: ast.Call, pos: int, name: str) -> ast.expr | None:
    """The argument passed as keyword ``name`` or at position ``pos``."""
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    if pos < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[: pos + 1]):
        return call.args[pos]
    return None


def text(node: ast.expr | None, limit: int = 200) -> str | None:
    if node is None:
        return None
    try:
        out = ast.unparse(node)
    except (ValueError, RecursionError):
        return None
    return out if len(out) <= limit else out[: limit - 3] + "..."


def callee(call: ast.Call) -> str:
    """The called name's last component: ``config.bool_state`` → ``bool_state``."""
    f = call.func
    if isinstance(f, ast.Attribute):
        return f.attr
    if isinstance(f, ast.Name):
        return f.id
    return ""


def assignments(module: ast.Module, source: str, marker: re.Pattern[str]) -> list[tuple[str | None, ast.Call, int]]:
    """(target name or None, call, line) for every call on a line where ``marker`` matches, with the
    name it is bound to when the call is the whole right-hand side of a simple assignment.

    Only the lines that spell the registry's functions are visited (``near.walk_near``): a
    registry call is always written with its function's name on the line where it starts.
    """
    nodes = list(walk_near(module, marker_lines(source, marker)))
    out: list[tuple[str | None, ast.Call, int]] = []
    bound: set[int] = set()
    for node in nodes:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            name = targets[0].id if len(targets) == 1 and isinstance(targets[0], ast.Name) else None
            out.append((name, node.value, node.value.lineno))
            bound.add(id(node.value))
    out.extend((None, node, node.lineno) for node in nodes if isinstance(node, ast.Call) and id(node) not in bound)
    return out
