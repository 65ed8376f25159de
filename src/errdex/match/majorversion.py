"""A Python-version test that every Python 3 passes or fails: the branches of Python 2/3 compatibility code.

Code that once ran on Python 2 keeps both branches: asn1tools 0.169's ``String.encode`` raises
``EncodeError('Expected data of type str, but got {}.'.format(data))`` under ``if sys.version_info[0] > 2:``
and the same text under ``else:`` (``not isinstance(data, (str, unicode))``).  A version test marks a site
that raises on some Pythons only (``indexdata.version_gated``: a backport's text, which the standard library
raises itself on the others), but a test of the major version against 2 or 3 is no such thing: on every
Python errdex reads the first branch always runs and the second never does.  ``on_python3`` reads such a
condition (``sys.version_info[0] > 2``, ``sys.version_info >= (3,)``, ``sys.version_info.major == 2``,
``six.PY2``, ``PY3``, and ``not``/``and``/``or`` of them) as True or False; anything else (a minor version,
``hexversion``, a call) as None: unknown, still a gate.
"""

from __future__ import annotations

import ast
import operator

TYPE_CHECKING = False
if TYPE_CHECKING:  # no ``typing`` at run time (``errdex explain``'s start-up)
    from collections.abc import Callable
    from typing import Any

_OPS: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Eq: operator.eq, ast.NotEq: operator.ne,
}
_FLAGS = {"PY2": False, "PY3": True, "PY_2": False, "PY_3": True, "IS_PY2": False, "IS_PY3": True,
          "PYTHON2": False, "PYTHON3": True}


def on_python3(condition: str) -> bool | None:
    """Whether ``condition`` holds on every Python 3 (True), on none (False), or may differ (None)."""
    try:
        node = ast.parse(condition, mode="eval").body
    except SyntaxError:
        return None
    return _value(node)


def _value(node: ast.expr) -> bool | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        got = _value(node.operand)
        return None if got is None else not got
    if isinstance(node, ast.BoolOp):
        vals = [_value(v) for v in node.values]
        decisive = isinstance(node.op, ast.Or)  # True decides an `or`, False an `and`
        if decisive in vals:
            return decisive
        return None if None in vals else not decisive
    if isinstance(node, ast.Name | ast.Attribute):
        name = node.id if isinstance(node, ast.Name) else node.attr
        return _FLAGS.get(name)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _OPS:
        return _compare(node.left, node.ops[0], node.comparators[0])
    return None


def _compare(left: ast.expr, op: ast.cmpop, right: ast.expr) -> bool | None:
    """``<major> <op> 2|3`` or ``sys.version_info <op> (2|3,)``, either way round."""
    fn = _OPS[type(op)]
    for a, b, flip in ((left, right, False), (right, left, True)):
        if _major(a) and isinstance(b, ast.Constant) and type(b.value) is int and b.value in (2, 3):
            return _decided(fn, b.value, flip)
        if _version_info(a) and isinstance(b, ast.Tuple) and b.elts and all(
                isinstance(e, ast.Constant) and type(e.value) is int for e in b.elts):
            major, *rest = (e.value for e in b.elts if isinstance(e, ast.Constant) and type(e.value) is int)
            if major in (2, 3) and not any(rest):  # `(3,)`, `(3, 0)`: no minor version
                return _decided(fn, int(major), flip, tuple_=True)
    return None


def _decided(fn: Callable[[Any, Any], Any], bound: int, flip: bool, tuple_: bool = False) -> bool:
    """The comparison's value on every Python 3: a major version of 3, a version tuple (``(3, 8)``) that
    compares with ``(2,)`` and ``(3,)`` as every 3.x does."""
    ours: Any = (3, 8) if tuple_ else 3
    theirs: Any = (bound,) if tuple_ else bound
    return bool(fn(theirs, ours) if flip else fn(ours, theirs))


def _major(node: ast.expr) -> bool:
    """``sys.version_info[0]`` / ``version_info.major`` / ``sys.version_info.major``."""
    if isinstance(node, ast.Subscript) and _version_info(node.value):
        idx = node.slice
        return isinstance(idx, ast.Constant) and idx.value == 0
    return isinstance(node, ast.Attribute) and node.attr == "major" and _version_info(node.value)


def _version_info(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "version_info") or (
        isinstance(node, ast.Attribute) and node.attr == "version_info")
