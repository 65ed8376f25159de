"""The keyword arguments of the exception a raise's helper returns (``raise _format_err(e, data, path)``).

A raise through a helper that builds and returns the exception (``def _format_err(e, ...): return
ParseError(e, ..., path=..., current_path=...)``) passes the helper's keywords to the class, not the raise's:
a class that prints its extra keywords (``match/keywords.py``) shows ``path:`` and ``current_path:`` lines for
``raise _format_err(...)``.  The helper is read where Python finds it from the raise: a function of the module
(``raise make_error(...)``) or a method of the enclosing class (``raise self._error(...)``,
``raise cls._error(...)``); its ``return Cls(...)`` statements (a class-like callee, not in a nested function)
give the names, those starting with ``_`` left out as ``indexdata.raise_keywords`` leaves them out.
"""

from __future__ import annotations

import ast


def helper_keywords(tree: ast.Module, exc: ast.expr, qual: tuple[str, ...]) -> tuple[str, ...]:
    """The keyword names of the class calls returned by the helper a raised call names; none when the
    raised expression is not a helper's call or the helper is not found."""
    if not isinstance(exc, ast.Call):
        return ()
    found = find_helper(tree, exc.func, qual)
    if found is None:
        return ()
    helper = found[0]
    names: dict[str, None] = {}
    for node in returns_of(helper.body):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Call) and _class_like(_last(node.value.func)):
            names.update(dict.fromkeys(k.arg for k in node.value.keywords if k.arg and not k.arg.startswith("_")))
    return tuple(names)


def find_helper(tree: ast.Module, f: ast.expr, qual: tuple[str, ...]) \
        -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, bool] | None:
    """The helper a call's callee names where Python finds it: a function of the module (``make_error(...)``),
    or a method of the enclosing top-level class (``self._error(...)``, ``cls._error(...)``; the flag True)."""
    if isinstance(f, ast.Name) and not _class_like(f.id):
        helper = _function(tree.body, f.id)
        return (helper, False) if helper is not None else None
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls") \
            and not _class_like(f.attr) and qual:
        owner = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == qual[0]), None)
        helper = _function(owner.body, f.attr) if owner is not None else None
        return (helper, True) if helper is not None else None
    return None


def returns_of(body: list[ast.stmt]) -> list[ast.Return]:
    """The ``return`` statements of a function body, not those of a function or class defined in it."""
    out: list[ast.Return] = []
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return):
            out.append(node)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.expr)):
            todo.extend(ast.iter_child_nodes(node))
    return out


def _function(body: list[ast.stmt], name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    found = [n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]
    return found[-1] if found else None  # the last definition is the one bound


def _last(f: ast.expr) -> str:
    if isinstance(f, ast.Name):
        return f.id
    return f.attr if isinstance(f, ast.Attribute) else ""


def _class_like(name: str) -> bool:
    bare = name.lstrip("_")
    return bool(bare) and bare[0].isupper()
