"""``astwalk``: the nodes and the order of ``ast.walk``, which the call graph's edge order depends on."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import errdex
from errdex.extract.astwalk import calls, statements, walk

LEAVES = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)
HOLDERS = (ast.stmt, ast.excepthandler, ast.match_case)

SHAPES = textwrap.dedent('''
    import os, a.b as c
    from .x import *
    global_ = {**os.environ, "k": f(1)}
    def f[T](x: list[T] = g(), *a, k=h(), **kw) -> T:
        global y
        nonlocal_ = lambda q: q(x)
        if x and not -x < 2 <= 3:
            raise ValueError(f"{x!r:>{w(1)}}") from None
        for i in range(3):
            with open(i) as fh, ctx():
                try:
                    pass
                except* (KeyError, OSError) as e:
                    log(e)
                else:
                    import json
                finally:
                    del fh
        match x:
            case {"a": [1, *rest]} if rest(0):
                return [y async for y in z(1)]
            case Point(x=0) | None:
                yield from gen()
        while (n := nxt()):
            break
        @dec(arg())
        class Inner(Base, metaclass=M):
            attr: int = field(default=0)
    async def g():
        await call()
        async with a() as b:
            async for c in d():
                assert c(), msg()
    type Alias = dict[str, int]
''')


def _files() -> list[tuple[str, ast.Module]]:
    root = Path(errdex.__file__).resolve().parent
    out = [("shapes", ast.parse(SHAPES))]
    out += [(str(p.relative_to(root)), ast.parse(p.read_bytes())) for p in sorted(root.rglob("*.py"))]
    return out


def test_every_file_of_errdex_walks_alike_and_finds_the_same_calls_and_statements() -> None:
    files = _files()
    assert len(files) > 150
    for name, tree in files:
        everything = list(ast.walk(tree))
        assert list(walk(tree)) == [n for n in everything if not isinstance(n, LEAVES)], name
        assert calls(tree) == [n for n in everything if isinstance(n, ast.Call)], name
        assert list(statements(tree)) == [n for n in everything if n is tree or isinstance(n, HOLDERS)], name
        for fn in (n for n in everything if isinstance(n, ast.FunctionDef)):
            assert calls(fn) == [n for n in ast.walk(fn) if isinstance(n, ast.Call)], f"{name}: {fn.name}"


def test_the_shapes_hold_what_the_walk_must_get_right() -> None:
    tree = ast.parse(SHAPES)
    kinds = {type(n) for n in walk(tree)}
    assert {ast.Dict, ast.Match, ast.TryStar, ast.Global, ast.TypeAlias, ast.NamedExpr, ast.JoinedStr} <= kinds
    assert None in next(n for n in ast.walk(tree) if isinstance(n, ast.Dict)).keys  # ``**x`` keys are None
    assert len(calls(tree)) == sum(isinstance(n, ast.Call) for n in ast.walk(tree)) > 20


def test_a_node_built_by_hand_with_a_field_missing_walks_as_ast_walk_does() -> None:
    """The per-class expanders read fields the parser always sets; a node built without one
    (``ast.Call(func=...)`` lacks nothing in 3.13, a ``Return()`` its optional value, a bare
    ``ast.BinOp()`` its operands) is expanded field by field instead, nothing appended twice."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # 3.13 warns about the missing fields
        binop = ast.BinOp(left=ast.Call(func=ast.Name("f"), args=[], keywords=[]))  # no op, no right
    partial = ast.Module(body=[ast.Expr(binop), ast.Return(), ast.Expr(ast.Call(ast.Name("g"), [], []))],
                         type_ignores=[])
    del partial.body[0].value.left.args  # a list field missing too
    everything = list(ast.walk(partial))
    assert list(walk(partial)) == [n for n in everything if not isinstance(n, LEAVES)]
    assert calls(partial) == [n for n in everything if isinstance(n, ast.Call)]
