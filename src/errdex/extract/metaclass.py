"""A class built by a method of its metaclass: ``raise Cancelled._create(source="unknown", reason="misnesting")``.

trio 0.35.0's ``NoPublicConstructor`` metaclass refuses ``Cancelled(...)`` and offers ``_create(cls, *args,
**kwargs)``, which returns ``super().__call__(*args, **kwargs)``: an instance of the class it was called on,
built with the call's arguments.  The raise read as ``{Cancelled._create(...)}`` (issue 17's twenty-seventh
round, 8 events).  Phase 1 records a class's ``metaclass=`` (constant ``Cls.<metaclass>``) and a method that
returns ``super().__call__(...)`` or ``type.__call__(cls, ...)`` (constant ``Meta.<constructs>m``); phase 2
(``constructed_class``) reads ``Cls.m(...)`` with no method ``m`` of the class that returns something as a call
of the class itself.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING

from errdex.extract.imports import dotted_source
from errdex.extract.ir import Lit, Node

if TYPE_CHECKING:
    from errdex.extract.tables import Tables

METACLASS = "<metaclass>"
CONSTRUCTS = "<constructs>"


def class_constants(node: ast.ClassDef, qual: str, resolve: Callable[[str], str | None]) -> dict[str, Node]:
    """``Cls.<metaclass>`` → the metaclass as resolved; ``Cls.<constructs>m`` for each method ``m`` (not
    ``__call__``) that returns a new instance of the class it is called on."""
    out: dict[str, Node] = {}
    for kw in node.keywords:
        if kw.arg == "metaclass" and (d := dotted_source(kw.value)) is not None:
            out[f"{qual}.{METACLASS}"] = Lit(resolve(d) or d)
    for fn in node.body:
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name != "__call__" and _constructs(fn):
            out[f"{qual}.{CONSTRUCTS}{fn.name}"] = Lit("")
    return out


def _constructs(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
        return False
    f = body[0].value.func
    if not (isinstance(f, ast.Attribute) and f.attr == "__call__"):
        return False
    inner = f.value  # `super().__call__(...)` / `type.__call__(cls, ...)`
    return (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "super") or (
        isinstance(inner, ast.Name) and inner.id == "type")


def constructed_class(tables: Tables, canon: str) -> str | None:
    """``pkg.Cls.m`` where ``m`` is a method of the class's metaclass (or a base's) that builds an instance
    of the class: the class."""
    owner, _, method = canon.rpartition(".")
    if owner not in tables.classes:
        return None
    for c in (owner, *tables.bases_chain(owner)):
        meta = tables.constants.get(f"{c}.{METACLASS}")
        if not isinstance(meta, Lit):
            continue
        m = tables.canonical(meta.text)
        if any(f"{mc}.{CONSTRUCTS}{method}" in tables.constants for mc in (m, *tables.bases_chain(m))):
            return owner
        return None
    return None
