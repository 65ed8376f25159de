"""Where in a test the library is called: the statements up to the raising one, expectation blocks
(``pytest.raises``, ``assertRaises``) and ``try`` bodies unwrapped (parsing only)."""

from __future__ import annotations

import ast
import copy
from collections.abc import Sequence

EXPECT = {"raises", "warns", "deprecated_call", "assertRaises", "assertRaisesRegex", "assertWarns",
          "assertWarnsRegex"}


def _expectation(item: ast.withitem) -> bool:
    c = item.context_expr
    if not isinstance(c, ast.Call):
        return False
    f = c.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    return name in EXPECT


def _start(node: ast.AST) -> int:
    """The first line of a statement, decorators included."""
    first: int = getattr(node, "lineno", 0)
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([first, *(d.lineno for d in decorators)])


def _contains(node: ast.AST, line: int) -> bool:
    first: int = getattr(node, "lineno", 0)
    last: int = getattr(node, "end_lineno", None) or first
    start = min([first, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return bool(start <= line <= last)


def slice_body(body: Sequence[ast.stmt], line: int) -> tuple[list[ast.stmt], ast.stmt] | None:
    """The statements up to the one holding ``line``, expectation blocks and ``try`` unwrapped;
    (statements, the innermost raising statement) or None when ``line`` is not in ``body``."""
    out: list[ast.stmt] = []
    for stmt in body:
        if not _contains(stmt, line):
            out.append(stmt)
            continue
        if isinstance(stmt, (ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While, ast.If)) \
                and stmt.body and line < _start(stmt.body[0]):  # the header raises (``with cm('bad'):``)
            return [*out, stmt], stmt
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            inner = slice_body(stmt.body, line)
            if inner is None:
                return None
            kept = [i for i in stmt.items if not _expectation(i)]
            if kept:
                w = copy.copy(stmt)
                w.items, w.body = kept, inner[0]
                return [*out, w], inner[1]
            return [*out, *inner[0]], inner[1]
        if isinstance(stmt, (ast.Try, ast.TryStar)) and any(_contains(s, line) for s in stmt.body):
            inner = slice_body(stmt.body, line)
            return None if inner is None else ([*out, *inner[0]], inner[1])
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While, ast.If)) and any(_contains(s, line) for s in stmt.body):
            inner = slice_body(stmt.body, line)
            if inner is None:
                return None
            c = copy.copy(stmt)
            c.body, c.orelse = inner[0], []
            return [*out, c], inner[1]
        return [*out, stmt], stmt
    return None


def _expect_call(stmt: ast.stmt) -> ast.stmt:
    """``self.assertRaises(Exc, fn, *args)`` (or ``pytest.raises`` called the same way): ``fn(*args)``."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        c = stmt.value
        f = c.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if name in EXPECT and len(c.args) >= 2:
            skip = 2 if name.endswith("Regex") and len(c.args) >= 3 else 1
            fn, rest = c.args[skip], c.args[skip + 1:]
            kws = [k for k in c.keywords if k.arg not in ("match", "msg")]
            body: ast.expr
            if isinstance(fn, ast.Lambda) and not rest and not kws and not fn.args.args:
                body = fn.body  # ``lambda: f(x)``: the call itself
            else:
                body = ast.copy_location(ast.Call(fn, rest, kws), c)
            return ast.copy_location(ast.Expr(body), stmt)
    return stmt

