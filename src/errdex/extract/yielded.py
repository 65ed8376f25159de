"""Exception texts an ``__str__`` joins from what a generator method yields.

``def __str__(self): return "".join(part for part, _style in self._segments())`` (or a loop appending each
piece to a list it joins) prints the pieces the method ``_segments`` yields, in order, which subclasses
override to build their own text (cyclopts' ``CycloptsError``: ``yield "Unknown option: ", ""`` then ``yield
value, STYLE``, each piece a ``(text, style)`` pair).  Before a class is walked, such a generator is rewritten
into the function it stands for: every ``yield x`` appends ``x`` (the text of a ``(text, style)`` pair) to a
list, every ``return`` returns the list joined, and ``yield from super().m()`` appends what the base's method
returns; the ``__str__`` then returns ``self.m()``.  The walker reads the result as any other method that
builds a text piece by piece, one template per path through its branches.
"""

from __future__ import annotations

import ast
import copy

PARTS = "_yielded_parts"  # the list the rewritten generator appends to (not an identifier users write)


def joined_methods(tree: ast.Module) -> dict[str, str]:
    """The generator methods (by name) whose yielded pieces an exception's ``__str__`` in the module joins,
    with the separator it joins them with."""
    out: dict[str, str] = {}
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef) and fn.name == "__str__":
                found = _joined_call(fn)
                if found is not None:
                    out.setdefault(found[0], found[1])
    return out


def rewrite_class(node: ast.ClassDef, joined: dict[str, str]) -> list[ast.stmt]:
    """The class body with its joined generators and the ``__str__`` joining them rewritten (see above)."""
    if not joined:
        return node.body
    base = _first_base(node)
    body: list[ast.stmt] = []
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name in joined and _is_generator(stmt):
            stmt = _as_function(stmt, joined[stmt.name], base)
        elif isinstance(stmt, ast.FunctionDef) and stmt.name == "__str__":
            found = _joined_call(stmt)
            if found is not None and found[0] in joined:
                call = next(n for n in ast.walk(stmt) if isinstance(n, ast.Call) and _self_method(n) == found[0])
                ret = ast.Return(value=_located(_self_call(found[0]), call))
                stmt = _located(ast.FunctionDef(name=stmt.name, args=stmt.args, body=[ret],
                                                decorator_list=[], returns=None, type_params=[]), stmt)
        body.append(stmt)
    return body


def _located[T: ast.AST](new: T, old: ast.expr | ast.stmt) -> T:
    """``new`` placed where ``old`` is written (its nodes not placed yet too)."""
    for n in ast.walk(new):
        if isinstance(n, (ast.expr, ast.stmt)) and (n is new or not hasattr(n, "lineno")):
            n.lineno, n.col_offset = old.lineno, old.col_offset
            n.end_lineno, n.end_col_offset = old.end_lineno, old.end_col_offset
    return new


def _joined_call(fn: ast.FunctionDef) -> tuple[str, str] | None:
    """``return SEP.join(...)`` of the pieces ``self.m()`` yields, directly, through a comprehension over
    it, or through a list a ``for x in self.m():`` loop appends to: (m, SEP)."""
    loops: dict[str, str] = {}  # list appended to in a loop over self.m() -> m
    for stmt in fn.body:
        if isinstance(stmt, ast.For) and (m := _self_method(stmt.iter)) is not None:
            for n in ast.walk(stmt):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "append" \
                        and isinstance(n.func.value, ast.Name):
                    loops[n.func.value.id] = m
    last = fn.body[-1] if fn.body else None
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Call) and len(last.value.args) == 1):
        return None
    call = last.value
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "join"
            and isinstance(call.func.value, ast.Constant) and isinstance(call.func.value.value, str)):
        return None
    sep, arg = call.func.value.value, call.args[0]
    if isinstance(arg, ast.Name) and arg.id in loops:
        return loops[arg.id], sep
    if isinstance(arg, (ast.GeneratorExp, ast.ListComp)) and len(arg.generators) == 1:
        arg = arg.generators[0].iter
    m = _self_method(arg)
    return (m, sep) if m is not None else None


def was_generator(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``fn`` is a generator this module rewrote (its first statement starts the list of pieces)."""
    first = fn.body[0] if fn.body else None
    return isinstance(first, ast.Assign) and isinstance(first.targets[0], ast.Name) and first.targets[0].id == PARTS


def _self_method(node: ast.expr) -> str | None:
    """``self.m()`` (no arguments): ``m``."""
    if isinstance(node, ast.Call) and not node.args and not node.keywords and isinstance(node.func, ast.Attribute) \
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "self":
        return node.func.attr
    return None


def _method_call(name: str, method: str, arg: ast.expr) -> ast.Call:
    """``name.method(arg)``."""
    func = ast.Attribute(value=ast.Name(id=name, ctx=ast.Load()), attr=method, ctx=ast.Load())
    return ast.Call(func=func, args=[arg], keywords=[])


def _self_attr(node: ast.expr) -> bool:
    """``self.x``."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def _self_call(name: str) -> ast.Call:
    return ast.Call(func=ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr=name, ctx=ast.Load()),
                    args=[], keywords=[])


def _first_base(node: ast.ClassDef) -> ast.expr | None:
    return node.bases[0] if node.bases else None


def _is_generator(fn: ast.FunctionDef) -> bool:
    """Whether ``fn`` itself yields (not only a function or lambda nested in it)."""
    todo: list[ast.AST] = list(fn.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        todo.extend(ast.iter_child_nodes(n))
    return False


class _Yields(ast.NodeTransformer):
    """``yield x`` → ``PARTS.append(x)``; ``return`` → ``return SEP.join(PARTS)``."""

    def __init__(self, sep: str, base: ast.expr | None, lists: frozenset[str] = frozenset()) -> None:
        self.sep, self.base = sep, base
        self.lists = lists  # local lists of pieces the generator yields from (`yield from body`)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node  # a nested function's yields and returns are its own

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        v = node.value
        if isinstance(v, ast.Yield):
            piece: ast.expr = v.value if v.value is not None else ast.Constant(value="")
            if isinstance(piece, ast.Tuple) and piece.elts:  # `yield text, style`: the text
                piece = piece.elts[0]
        elif isinstance(v, ast.YieldFrom) and isinstance(v.value, ast.Name) and v.value.id in self.lists:
            return ast.copy_location(ast.Expr(value=_method_call(PARTS, "extend", v.value)), node)
        elif isinstance(v, ast.YieldFrom):
            piece = self._delegated(v.value)
        elif (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "append"
              and isinstance(v.func.value, ast.Name) and v.func.value.id in self.lists and len(v.args) == 1
              and isinstance(v.args[0], ast.Tuple) and v.args[0].elts):
            # `body.append((text, style))` of a list yielded from later: its text
            return ast.copy_location(ast.Expr(value=_method_call(v.func.value.id, "append", v.args[0].elts[0])), node)
        else:
            return node
        return ast.copy_location(ast.Expr(value=_method_call(PARTS, "append", piece)), node)

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        """``preamble = list(super().m())`` of a list yielded from later: one piece, the base's text."""
        v = node.value
        if (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and node.targets[0].id in self.lists
                and isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "list"
                and len(v.args) == 1 and not v.keywords):
            inner = self._delegated(v.args[0])
            if inner is not v.args[0]:
                return ast.copy_location(ast.Assign(targets=node.targets, value=_located(
                    ast.List(elts=[inner], ctx=ast.Load()), v)), node)
        return node

    def visit_If(self, node: ast.If) -> ast.AST:
        """``if self.x:`` / ``if self.x is not None:`` on an attribute of the instance: the branch taken when it
        is unset first (a raise passes the fields its text needs; the others keep their defaults), so that
        path's text leads when the combinations of pieces are capped."""
        self.generic_visit(node)
        t = node.test
        unset: ast.expr | None = None
        if _self_attr(t):
            unset = ast.UnaryOp(op=ast.Not(), operand=t)
        elif isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.IsNot) \
                and _self_attr(t.left) and isinstance(t.comparators[0], ast.Constant) and t.comparators[0].value is None:
            unset = ast.Compare(left=t.left, ops=[ast.Is()], comparators=t.comparators)
        if unset is None:
            return node
        swapped = ast.If(test=_located(unset, t), body=node.orelse or [_located(ast.Pass(), node)], orelse=node.body)
        return ast.copy_location(swapped, node)

    def visit_Return(self, node: ast.Return) -> ast.AST:
        return ast.copy_location(ast.Return(value=self.joined()), node)

    def joined(self) -> ast.expr:
        return ast.Call(func=ast.Attribute(value=ast.Constant(value=self.sep), attr="join", ctx=ast.Load()),
                        args=[ast.Name(id=PARTS, ctx=ast.Load())], keywords=[])

    def _delegated(self, value: ast.expr) -> ast.expr:
        """``yield from super().m()``: the text the base's ``m`` returns (``Base.m(self)``)."""
        if (isinstance(value, ast.Call) and not value.args and isinstance(value.func, ast.Attribute)
                and isinstance(value.func.value, ast.Call) and isinstance(value.func.value.func, ast.Name)
                and value.func.value.func.id == "super" and self.base is not None):
            func = ast.Attribute(value=self.base, attr=value.func.attr, ctx=ast.Load())
            call = ast.Call(func=func, args=[ast.Name(id="self", ctx=ast.Load())], keywords=[])
            return _located(call, value)  # written `super().m()`: the same instance's
        return value


class _Decided(ast.NodeTransformer):
    """``a if flag else b`` with ``flag`` known: ``a`` (or ``b``)."""

    def __init__(self, name: str, value: bool) -> None:
        self.name, self.value = name, value

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.test, ast.Name) and node.test.id == self.name:
            return node.body if self.value else node.orelse
        return node


def _split_on_flag(body: list[ast.stmt]) -> list[ast.stmt]:
    """A local flag that two or more ``a if flag else b`` pieces read (cyclopts' ``quoted`` opens and closes
    the quotes around a value): the statements after it once for each value of the flag, so the two
    pieces agree (``'Unknown option: "' if quoted else ...`` then ``'"' if quoted else ""``) rather than
    every combination of them."""
    for k, stmt in enumerate(body):
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            continue
        name = stmt.targets[0].id
        rest = body[k + 1:]
        tests = [n for r in rest for n in ast.walk(r) if isinstance(n, ast.IfExp)
                 and isinstance(n.test, ast.Name) and n.test.id == name]
        rebound = any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
                      for r in rest for n in ast.walk(r))
        if len(tests) < 2 or rebound:
            continue
        yes = [_Decided(name, True).visit(copy.deepcopy(r)) for r in rest]
        no = [_Decided(name, False).visit(copy.deepcopy(r)) for r in rest]
        split = ast.If(test=ast.Name(id=name, ctx=ast.Load()), body=yes, orelse=no)
        return [*body[:k + 1], _located(split, rest[0])]
    return body


def _as_function(fn: ast.FunctionDef, sep: str, base: ast.expr | None) -> ast.FunctionDef:
    """The generator ``fn`` as a function returning its pieces joined with ``sep``."""
    lists = frozenset(n.value.id for n in ast.walk(fn) if isinstance(n, ast.YieldFrom) and isinstance(n.value, ast.Name))
    t = _Yields(sep, base, lists)
    body = [t.visit(s) for s in _split_on_flag(fn.body)]
    head = ast.Assign(targets=[ast.Name(id=PARTS, ctx=ast.Store())], value=ast.List(elts=[], ctx=ast.Load()))
    first = fn.body[0]
    last = fn.body[-1]
    out = ast.FunctionDef(name=fn.name, args=fn.args, body=[ast.copy_location(head, first), *body,
                                                                ast.copy_location(ast.Return(value=t.joined()), last)],
                          decorator_list=fn.decorator_list, returns=None, type_params=[])
    ast.copy_location(out, fn)
    out.end_lineno, out.end_col_offset = fn.end_lineno, fn.end_col_offset
    ast.fix_missing_locations(out)
    return out
