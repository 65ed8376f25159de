"""The ``__init__`` a class decorator writes: ``attrs`` (``@define``, ``@frozen``, ``@attr.s``) and
``dataclasses`` (``@dataclass``) generate one from the class's annotated fields, in order.

An exception class so decorated (jsonschema's ``@define class _RefResolutionError(Exception)`` with a
field ``_cause`` and ``__str__`` returning ``str(self._cause)``) prints what its raise passed for the
field: ``raise _RefResolutionError("Failed to pop the scope ...")`` prints that text.  attrs names the
``__init__`` parameter of a private field without its leading underscores; dataclasses keep the name.
attrs' new API (`define`, `frozen`, `mutable`, or `auto_exc=True`) passes every field, in order, to
``BaseException.__init__``, keyword or not: `raise NoSuchResource(ref=uri)` prints the `ref` (a `KeyError`, its
repr); a package's own thin wrapper of one (referencing's `_attrs.frozen`) counts the same.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.extract.imports import dotted_source
from errdex.extract.ir import Node, Param
from errdex.extract.summary import InitSummary

_ATTRS = frozenset({"define", "frozen", "mutable", "s", "attrs"})
_ATTRS_MODULES = ("attr.", "attrs.")
# the new API's decorators: `auto_exc=True` by default, so an exception's args are its fields, in order
_AUTO_EXC = frozenset({"define", "frozen", "mutable"})


def generated_init(node: ast.ClassDef, resolve: Callable[[str], str | None]
                   ) -> tuple[InitSummary, dict[str, Node]] | None:
    """The generated ``__init__`` of a decorated class with no ``__init__`` of its own, and the
    ``self.<field>`` attributes it sets (each the parameter of that name), or None."""
    kind = _decorator(node, resolve)
    if kind is None or any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"
                           for s in node.body):
        return None
    params: list[str] = []
    attrs: dict[str, Node] = {}
    for stmt in node.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        ann = dotted_source(stmt.annotation.value if isinstance(stmt.annotation, ast.Subscript) else stmt.annotation)
        if ann is not None and ann.rsplit(".", 1)[-1] == "ClassVar":
            continue
        if isinstance(stmt.value, ast.Call) and any(
                k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in stmt.value.keywords):
            continue  # field(init=False): not a parameter
        name = stmt.target.id
        param = name.lstrip("_") or name if kind != "dataclass" else name
        params.append(param)
        attrs[name] = Param(param)
    if not params:
        return None
    if kind == "attrs-exc":  # auto_exc: the generated __init__ passes every field to BaseException.__init__
        return InitSummary(tuple(params), tuple(Param(p) for p in params), generated=True), attrs
    return InitSummary(tuple(params), None, generated=True), attrs


def _decorator(node: ast.ClassDef, resolve: Callable[[str], str | None]) -> str | None:
    made = decorator_call(node, resolve)
    return made[0] if made is not None else None


def field_kind(stmt: ast.AnnAssign) -> bool:
    """Whether an annotated class-body name is a field (not a ``ClassVar``)."""
    ann = dotted_source(stmt.annotation.value if isinstance(stmt.annotation, ast.Subscript) else stmt.annotation)
    return ann is None or ann.rsplit(".", 1)[-1] != "ClassVar"


def decorator_call(node: ast.ClassDef, resolve: Callable[[str], str | None]) -> tuple[str, ast.expr, bool] | None:
    """The class's field-generating decorator: its kind (``dataclass``, ``attrs``, ``attrs-exc``), the
    decorator as written, and whether only ``attr.ib()`` fields count (the old ``@attr.s`` without
    ``auto_attribs=True``); None when there is none."""
    for d in node.decorator_list:
        written = dotted_source(d.func if isinstance(d, ast.Call) else d)
        if written is None:
            continue
        target = resolve(written) or written
        last = target.rsplit(".", 1)[-1]
        if last == "dataclass" and (target == "dataclass" or target.startswith("dataclasses.")):
            return "dataclass", d, False
        auto_exc = isinstance(d, ast.Call) and any(
            k.arg == "auto_exc" and isinstance(k.value, ast.Constant) and k.value.value is True for k in d.keywords)
        if last in _ATTRS and target.startswith(_ATTRS_MODULES):
            ib_only = last in ("s", "attrs") and not (isinstance(d, ast.Call) and any(
                k.arg == "auto_attribs" and isinstance(k.value, ast.Constant) and k.value.value is True
                for k in d.keywords))
            return "attrs-exc" if last in _AUTO_EXC or auto_exc else "attrs", d, ib_only
        if last in _AUTO_EXC and "." in target:
            # the package's own thin wrapper (referencing's `_attrs.frozen` returning `attrs.frozen(cls)`)
            return "attrs-exc", d, False
    return None
