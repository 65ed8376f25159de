"""Guards: the conditions on the way to a raise, built as the walker descends.

``if a: ... elif b: raise X`` gives ``not (a)`` (negated) then ``b``; an
``else`` negates every test of its chain; ``except E:`` gives the caught
types; ``while`` its test; ``match`` cases ``<subject> matches <pattern>``.
"""

from __future__ import annotations

import ast

from errdex.extract.source import SourceText
from errdex.model import Guard, GuardKind


def _norm(node: ast.expr) -> str:
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError):  # pragma: no cover - unparse of a parsed tree
        return ""


def positive(kind: GuardKind, test: ast.expr, src: SourceText) -> Guard:
    return Guard(kind=kind, source=src.segment(test), normalized=_norm(test), line=test.lineno)


def negative(kind: GuardKind, test: ast.expr, src: SourceText) -> Guard:
    return Guard(kind=kind, source=src.segment(test), normalized=f"not ({_norm(test)})", line=test.lineno, negated=True)


def is_elif(node: ast.If, src: SourceText) -> bool:
    """An ``elif`` and an ``else:`` holding a lone ``if`` have the same AST; the text tells them apart."""
    lines = src.lines
    if node.lineno > len(lines):
        return False
    return lines[node.lineno - 1].lstrip().startswith("elif")


def handler(h: ast.ExceptHandler, src: SourceText) -> Guard:
    if h.type is None:
        return Guard(kind="except", source="except:", normalized="BaseException", line=h.lineno)
    caught = src.segment(h.type)
    if isinstance(h.type, ast.Tuple):
        normalized = ", ".join(_norm(e) for e in h.type.elts)
    else:
        normalized = _norm(h.type)
    return Guard(kind="except", source=f"except {caught}", normalized=normalized, line=h.lineno)


def case(subject: ast.expr, c: ast.match_case, src: SourceText) -> Guard:
    pattern = src.segment(c.pattern)
    normalized = f"{_norm(subject)} matches {ast.unparse(c.pattern)}"
    if c.guard is not None:
        normalized += f" if {_norm(c.guard)}"
    return Guard(kind="match", source=f"case {pattern}", normalized=normalized, line=c.pattern.lineno)
