"""A method's first parameter is the instance, whatever its name.

Python passes the instance as a method's first positional argument; ``self`` is a convention only.
mpmath 1.4.1 names it ``ctx`` in all of ``MPContext``'s methods: ``hypsum`` raises
``ctx.NoConvergence(ctx._hypsum_msg % (prec, prec+extraprec))`` with ``_hypsum_msg = "hypsum() failed to
converge to the requested %i bits of accuracy ..."`` set in the class (issue 17's fortieth round); param
2.4.2 names it ``self_``.  Every rule that reads the instance (its class constants, what ``__init__`` kept,
its methods) looks for ``self``, so the text read ``{ctx._hypsum_msg % (prec, prec+extraprec)}``.

``as_self`` renames such a parameter ``self`` in the method's tree before the walk (positions unchanged:
the source shown, a placeholder's text, is still what the library wrote).  Left as they are: static and
class methods (``__new__``, ``__init_subclass__`` too), ``cls``-like names (a metaclass's methods, read as
the class), a method that uses the name ``self`` anywhere, and one that binds the parameter's name again
anywhere (an assignment, a nested function's parameter, ``except E as ctx``), where the rename could change
which value a name is.
"""

from __future__ import annotations

import ast

_KEEP = frozenset({"self", "cls", "mcs", "mcls", "metacls", "klass", "meta"})
_NOT_INSTANCE = frozenset({"staticmethod", "classmethod"})
_IMPLICIT_CLASS = frozenset({"__new__", "__init_subclass__", "__class_getitem__"})  # take the class, undecorated


def as_self(tree: ast.Module) -> int:
    """Rename each method's differently named instance parameter ``self``; how many methods were."""
    renamed = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for fn in node.body:
                if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and _rename(fn):
                    renamed += 1
    return renamed


def _rename(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    positional = [*fn.args.posonlyargs, *fn.args.args]
    if not positional or positional[0].arg in _KEEP or fn.name in _IMPLICIT_CLASS or any(
            _decorator_name(d) in _NOT_INSTANCE for d in fn.decorator_list):
        return False
    first = positional[0]
    name = first.arg
    uses: list[ast.Name] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Name):
            if node.id == "self" or (node.id == name and not isinstance(node.ctx, ast.Load)):
                return False
            if node.id == name:
                uses.append(node)
        elif isinstance(node, ast.arg) and node is not first and node.arg in (name, "self"):
            return False  # a nested function's or lambda's parameter of that name
        elif isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return False
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar, ast.FunctionDef, ast.AsyncFunctionDef,
                               ast.ClassDef)) and node is not fn and node.name in (name, "self"):
            return False  # `except E as ctx`, `case X(...) as ctx`, a nested `def ctx`
        elif isinstance(node, ast.alias) and (node.asname or node.name).split(".", 1)[0] in (name, "self"):
            return False
    first.arg = "self"
    for use in uses:
        use.id = "self"
    return True


def _decorator_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None
