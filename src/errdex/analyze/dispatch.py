"""The alternatives a dispatch offers: the branches that were not taken on the way to a raise.

``if backend == "cpu": … elif backend in ("cuda", "rocm"): … else: raise …`` proves
that ``backend`` values "cpu", "cuda" and "rocm" are handled: the raise is the
fall-through of the dispatch, so the way out is to pass one of those.  Only
branches that compare one expression with constants (``==``, ``is``, ``in``) or
test its type (``isinstance``) count; anything else proves nothing about values.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from errdex.model import Guard

MAX_CHOICES = 12


@dataclass(frozen=True, slots=True)
class Alternatives:
    """The handled values (or types) of one expression, with the guards that prove them."""

    subject: str  # the expression's source: "backend"
    kind: str  # "value" or "type"
    choices: tuple[str, ...]  # source text of each handled value or type
    guards: tuple[Guard, ...]


def dispatch_alternatives(guards: tuple[Guard, ...]) -> list[Alternatives]:
    """Alternatives per subject, from the negated (not-taken) branches, in source order."""
    found: dict[tuple[str, str], tuple[list[str], list[Guard]]] = {}
    for g in guards:
        if not g.negated or g.kind not in ("elif", "else"):
            continue
        for subject, kind, choices in _branch(g.source):
            slot = found.setdefault((subject, kind), ([], []))
            slot[0].extend(c for c in choices if c not in slot[0])
            if g not in slot[1]:
                slot[1].append(g)
    return [Alternatives(subject=s, kind=k, choices=tuple(c[:MAX_CHOICES]), guards=tuple(gs))
            for (s, k), (c, gs) in found.items() if c]


def _branch(source: str) -> list[tuple[str, str, list[str]]]:
    try:
        node = ast.parse(source, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return []
    tests = node.values if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) else [node]
    out: list[tuple[str, str, list[str]]] = []
    for t in tests:
        got = _one(t)
        if got is not None:
            out.append(got)
    return out


def _one(node: ast.expr) -> tuple[str, str, list[str]] | None:
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        op, right = node.ops[0], node.comparators[0]
        if isinstance(op, (ast.Eq, ast.Is)) and _constant(right):
            return ast.unparse(node.left), "value", [ast.unparse(right)]
        if isinstance(op, ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)) and right.elts \
                and all(_constant(e) for e in right.elts):
            return ast.unparse(node.left), "value", [ast.unparse(e) for e in right.elts]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"
            and len(node.args) == 2):
        types = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
        if all(isinstance(t, (ast.Name, ast.Attribute)) for t in types):
            return ast.unparse(node.args[0]), "type", [ast.unparse(t) for t in types]
    return None


def _constant(node: ast.expr) -> bool:
    """A literal, or a dotted name in capitals or of an enum-like attribute (``Backend.CPU``)."""
    if isinstance(node, ast.Constant):
        return node.value is not None and not isinstance(node.value, bool)
    if isinstance(node, ast.Attribute):
        return node.attr.isupper() or node.attr.endswith("_p")
    return False
