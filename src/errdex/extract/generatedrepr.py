"""The ``__repr__`` a class decorator writes, printed by a ``__str__`` returning ``repr(self)``.

service-identity 26.1.0's ``VerificationError``::

    @attr.s(auto_exc=True)
    class VerificationError(Exception):
        errors: Sequence[Mismatch] = attr.ib()

        def __str__(self) -> str:
            return self.__repr__()

prints ``VerificationError(errors=[DNSMismatch(...)])``: the repr attrs generates (``@attr.s``, ``@define``,
``@frozen``, ``@mutable``; ``@dataclass`` the same), the class's name, then each field shown with ``!r`` as
``name=value``, in order.  ``generated_repr_str`` gives a ``def __str__`` returning that text as an f-string,
which the class walk reads after the class's own ``__str__`` (as ``stralias`` does for a written ``__repr__``).
Not when the class body defines its own ``__repr__`` (``stralias``'s case), when the decorator says
``repr=False``, or when no field is known; a field declared ``repr=False`` is left out, as the decorator does.
A plain ``@attr.s`` (no ``auto_attribs=True``) counts only the ``x = attr.ib()`` fields.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.extract.generated_init import decorator_call, field_kind
from errdex.extract.imports import dotted_source
from errdex.extract.stralias import returns_repr_self

_FIELD_CALLS = frozenset({"ib", "attrib", "field"})


def generated_repr_str(node: ast.ClassDef, shown_name: str, resolve: Callable[[str], str | None]
                       ) -> tuple[ast.stmt, ast.FunctionDef] | None:
    """``(the class's ``__str__``, a ``__str__`` returning the generated repr)``, or None (module docstring)."""
    made = decorator_call(node, resolve)
    if made is None:
        return None
    kind, deco, ib_only = made
    if _false(deco, "repr"):
        return None
    own = [s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if any(s.name == "__repr__" for s in own):
        return None
    strs = [s for s in own if s.name == "__str__"]
    if not strs or not returns_repr_self(strs[-1]) or any(
            isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id in ("__str__", "__repr__")
                                              for t in s.targets) for s in node.body):
        return None
    fields: list[str] = []
    for stmt in node.body:
        target, value = (stmt.target, stmt.value) if isinstance(stmt, ast.AnnAssign) else (
            (stmt.targets[0], stmt.value) if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else (None, None))
        if not isinstance(target, ast.Name):
            continue
        call = value if isinstance(value, ast.Call) else None
        written = dotted_source(call.func) if call is not None else None
        is_field = written is not None and written.rsplit(".", 1)[-1] in _FIELD_CALLS
        if isinstance(stmt, ast.Assign) and not (is_field and kind != "dataclass"):
            continue
        if isinstance(stmt, ast.AnnAssign) and not field_kind(stmt):
            continue
        if ib_only and not is_field:
            continue
        if call is not None and is_field and _false(call, "repr"):
            continue
        fields.append(target.id)
    if not fields:
        return None
    parts: list[ast.expr] = [ast.Constant(f"{shown_name}(")]
    for i, f in enumerate(fields):
        parts.append(ast.Constant(f"{', ' if i else ''}{f}="))
        parts.append(ast.FormattedValue(ast.Attribute(ast.Name("self", ast.Load()), f, ast.Load()), ord("r"), None))
    parts.append(ast.Constant(")"))
    at = strs[-1]
    fn = ast.FunctionDef(name="__str__", args=at.args, body=[ast.Return(ast.JoinedStr(parts))], decorator_list=[],
                         returns=None, type_params=[])
    ast.copy_location(fn, at)
    ast.fix_missing_locations(fn)
    return at, fn


def _false(call: ast.expr, name: str) -> bool:
    return isinstance(call, ast.Call) and any(
        k.arg == name and isinstance(k.value, ast.Constant) and k.value.value is False for k in call.keywords)
