"""A raise through a helper that returns the object it is handed (issue 17's eighty-seventh round).

A parser sets the position on an exception before raising it, in a helper that returns its argument
(ZConfig 4.3's ``schema.py``)::

    def initerror(self, e):
        if self._locator is not None:
            e.colno = self._locator.getColumnNumber()
            e.lineno = self._locator.getLineNumber()
        return e

    def error(self, message, kind=None):
        kind = kind or ZConfig.SchemaError
        raise self.initerror(kind(message))

The raised object is the one built in the first argument: ``raise self.initerror(kind(message))`` is read
as ``raise kind(message)`` (the helper's other arguments, ``located(Error(...), path)``, set attributes).  The helper is found where Python finds it from the raise (``helperkw``: a
function of the module, or a method of the enclosing class called on ``self`` / ``cls``), and only when
every ``return`` of it (none in a nested function) returns the parameter the argument binds, its body
ends with one, and it never assigns that parameter: a helper that may return anything else (a copy, a
wrapper, ``None``) is left as it was (a call whose result is unknown).
"""

from __future__ import annotations

import ast

from errdex.extract.helperkw import find_helper, returns_of
from errdex.extract.ir import Node, Ref


def handed_back(tree: ast.Module, exc: ast.expr, qual: tuple[str, ...]) -> ast.expr | None:
    """The argument a raised helper call returns unchanged; None when the raise is no such call."""
    if not isinstance(exc, ast.Call) or not exc.args or isinstance(exc.args[0], ast.Starred):
        return None
    found = find_helper(tree, exc.func, qual)
    if found is None:
        return None
    helper, bound = found
    a = helper.args
    params = [p.arg for p in (*a.posonlyargs, *a.args)]
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in helper.decorator_list)
    if bound and not static:
        params = params[1:]
    if not params or not helper.body:
        return None
    name = params[0]
    if any(k.arg is None or k.arg == name for k in exc.keywords):
        return None
    returns = returns_of(helper.body)
    last = helper.body[-1]
    if not returns or not isinstance(last, ast.Return) \
            or not all(isinstance(r.value, ast.Name) and r.value.id == name for r in returns):
        return None
    for stmt in helper.body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
                return None
    return exc.args[0]


def param_default(node: Node | None) -> Ref | None:
    """The class a raised class parameter falls back to (``kind = kind or ZConfig.SchemaError``, kept in the
    ``param`` call's ``item`` by ``msgraise``); None for any other raised value."""
    if isinstance(node, Ref) and node.param and node.item and isinstance(d := node.item[0], Ref) and not d.is_call:
        return d
    return None
