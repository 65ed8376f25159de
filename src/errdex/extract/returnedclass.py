"""A class returned by a call, called with the text (issue 17's ninetieth round).

``raise engine.getCompilerError()('Path element may not be empty in %r' % path)`` (zope.tales: the engine's
method returns its ``CompilerError`` class), ``err = getattr(builtins, exc)(f"'{ename}' codec can't ...")`` then
``raise err`` (codext: the class made at run time, its name built from the codec's), ``raise
self.error_class()(msg)``: the raise's callee is itself a call, whose value is the class.  This code cannot name
that class (it is the callee's return value, or made at run time), so its text follows the builtin rule: one
argument is the message, as for a parameter holding the class (``raise exc_type(msg)``).

``returned_call`` tells such a raise (not ``type(exc)(...)``, which ``msgraise.type_of`` reads as the value's own
class); the walker's IR is a ``Ref`` whose ``callee`` is ``RETURNED`` and whose ``target`` is the inner call as
written (``engine.getCompilerError()``), the name the site's class is filed under.
"""

from __future__ import annotations

import ast

RETURNED = "<returned class>"  # ``Ref.callee`` of ``f(...)(args)``: ``target`` the inner call as written


def returned_call(node: ast.expr) -> ast.Call | None:
    """``f(...)(args)``: the inner call ``f(...)`` when the raised call's callee is itself a call (not ``type(x)``,
    the value's own class, nor ``__import__(...)``, a module); None for any other expression."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Call)):
        return None
    inner = node.func
    if isinstance(inner.func, ast.Name) and inner.func.id in ("type", "__import__", "super"):
        return None
    return inner
