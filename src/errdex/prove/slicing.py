"""Where in a test the library is called: the statements up to the raising one, expectation blocks
(``pytest.raises``, ``assertRaises``) and ``try`` bodies unwrapped (parsing only)."""

from __future__ import annotations

import ast
import copy
from collections.abc import Mapping, Sequence

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


def _callee(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def expect_aliases(stmts: Sequence[ast.stmt]) -> dict[str, tuple[str, int]]:
    """Names a test binds to an expectation with some of its arguments (``check = partial(
    self.assertRaisesRegex, TypeError, 'msg')``): name -> (the expectation, how many arguments it binds)."""
    out: dict[str, tuple[str, int]] = {}
    for st in (n for s in stmts for n in ast.walk(s)):
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                and isinstance(st.value, ast.Call) and _callee(st.value.func) == "partial" and st.value.args \
                and _callee(st.value.args[0]) in EXPECT and not st.value.keywords:
            out[st.targets[0].id] = (_callee(st.value.args[0]), len(st.value.args) - 1)
    return out


def _thunk_check(c: ast.Call) -> ast.expr | None:
    """A test helper that calls a thunk and expects it to raise (``check_raises(lambda: f(x), TypeError,
    'msg')``, named ``*raises*``): the thunk's body."""
    name = _callee(c.func)
    if name in EXPECT or "raises" not in name.lower() or not c.args:
        return None
    fn = c.args[0]
    if isinstance(fn, ast.Lambda) and not fn.args.args and not fn.args.vararg:
        return fn.body
    return None


def is_expectation(stmt: ast.stmt, aliases: Mapping[str, tuple[str, int]]) -> bool:
    """A statement that only checks that something raises (an alias of ``assertRaises``, a ``*raises*``
    helper given a thunk): a check, not a step toward the call."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    c = stmt.value
    return (isinstance(c.func, ast.Name) and c.func.id in aliases) or _thunk_check(c) is not None


def _expect_call(stmt: ast.stmt, aliases: Mapping[str, tuple[str, int]] | None = None) -> ast.stmt:
    """``self.assertRaises(Exc, fn, *args)`` (or ``pytest.raises`` called the same way, or an alias
    ``partial(self.assertRaisesRegex, Exc, 'msg')`` called ``(fn, *args)``): ``fn(*args)``; a
    ``*raises*`` helper given a thunk (``check_raises(lambda: f(x), Exc)``): ``f(x)``."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        c = stmt.value
        name = _callee(c.func)
        bound = 0
        if isinstance(c.func, ast.Name) and aliases and name in aliases:
            name, bound = aliases[name]
        thunk = _thunk_check(c) if not bound else None
        if thunk is not None:
            return ast.copy_location(ast.Expr(thunk), stmt)
        if name in EXPECT and len(c.args) + bound >= 2:
            skip = (2 if name.endswith("Regex") and len(c.args) + bound >= 3 else 1) - bound
            if skip < 0 or skip >= len(c.args):
                return stmt
            fn, rest = c.args[skip], c.args[skip + 1:]
            kws = [k for k in c.keywords if k.arg not in ("match", "msg")]
            body: ast.expr
            if isinstance(fn, ast.Lambda) and not rest and not kws and not fn.args.args:
                body = fn.body  # ``lambda: f(x)``: the call itself
            else:
                body = ast.copy_location(ast.Call(fn, rest, kws), c)
            return ast.copy_location(ast.Expr(body), stmt)
    return stmt
