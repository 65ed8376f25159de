"""An item of a typed list of exceptions, raised as it is: ``raise error_handler.schema_errors[0]``.

A validator that collects its errors keeps them in a list its code annotates (pandera's ``ErrorHandler``:
``self._schema_errors: list[SchemaError] = []`` and ``@property def schema_errors(self) -> list[SchemaError]``;
``SchemaErrors.__init__(self, schema, schema_errors: list[SchemaError], data)`` keeping
``self.schema_errors = schema_errors``) and, when it is not lazy, raises the first one as it is. The raise
names no class, so it was a raise of an unknown class that any printed text and class could have come from;
the annotation names the class. Phase 1 records, for each module, the attributes annotated as a sequence of
one class (``item_types``); the raise is a ``Ref`` with ``callee`` ``ITEM_OF`` and the attribute's name, and
phase 2 (``expand.Expander``) names the class when every annotation of that attribute name in the package
gives the same one. Its text stays unknown (the item's own, a placeholder), as for ``raise e`` of a caught
class."""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.extract import astwalk
from errdex.extract.ir import Ref

ITEM_OF = "[item]"  # ``Ref.callee`` of ``raise <x>.<attr>[i]``; ``target`` is ITEM_OF + the attribute's name

# Annotations of a sequence whose items are all of the one class named inside.
_SEQUENCES = frozenset({"list", "List", "Sequence", "MutableSequence", "tuple", "Tuple", "deque", "Deque"})
_PROPERTIES = frozenset({"property", "cached_property"})


def item_ref(node: ast.Subscript, src: str) -> Ref | None:
    """``raise <x>.<attr>[i]`` (a single index, not a slice): a ``Ref`` phase 2 resolves by the attribute's
    annotations; None for any other subscript."""
    if not isinstance(node.value, ast.Attribute) or isinstance(node.slice, (ast.Slice, ast.Tuple)):
        return None
    return Ref(target=ITEM_OF + node.value.attr, src=src, callee=ITEM_OF, is_call=False, reraised=src)


def element(annotation: ast.expr | None) -> str | None:
    """The class of the items of ``list[C]`` / ``Sequence[C]`` / ``tuple[C, ...]`` (``typing.`` or not), as
    written, also of ``list[C] | None`` / ``Optional[list[C]]`` (graphql-core's ``errors: list[GraphQLError] |
    None``); None for any other annotation (a union, a string, a tuple of several types)."""
    annotation = _not_none(annotation)
    if not isinstance(annotation, ast.Subscript):
        return None
    outer = annotation.value
    name = outer.attr if isinstance(outer, ast.Attribute) else outer.id if isinstance(outer, ast.Name) else ""
    if name not in _SEQUENCES:
        return None
    inner = annotation.slice
    if isinstance(inner, ast.Tuple):  # tuple[C, ...] only
        if name not in ("tuple", "Tuple") or len(inner.elts) != 2 or not (
                isinstance(inner.elts[1], ast.Constant) and inner.elts[1].value is Ellipsis):
            return None
        inner = inner.elts[0]
    written = _dotted(inner)
    return written if written is not None and written.rsplit(".", 1)[-1][:1].isupper() else None


def _not_none(annotation: ast.expr | None) -> ast.expr | None:
    """``X`` of ``X | None``, ``None | X`` and ``Optional[X]``; any other annotation as it is."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = [annotation.left, annotation.right]
        kept = [a for a in sides if not (isinstance(a, ast.Constant) and a.value is None)]
        return kept[0] if len(kept) == 1 else annotation
    if isinstance(annotation, ast.Subscript) and (_dotted(annotation.value) or "").rsplit(".", 1)[-1] == "Optional":
        return annotation.slice
    return annotation


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (head := _dotted(node.value)) is not None:
        return f"{head}.{node.attr}"
    return None


def item_types(tree: ast.Module, resolve: Callable[[str], str | None]) -> tuple[tuple[str, str], ...]:
    """``(attribute, class)`` for each attribute of the module's classes annotated as a sequence of one class:
    a property's return annotation, ``self.<attr>: list[C] = ...``, ``<attr>: list[C]`` in the class body,
    and ``self.<attr> = <param>`` of a parameter annotated so; the class resolved in this module."""
    found: list[tuple[str, str]] = []

    def add(attr: str, annotation: ast.expr | None) -> None:
        if (written := element(annotation)) is not None:
            found.append((attr, resolve(written) or written))

    for cls in (n for n in astwalk.walk(tree) if isinstance(n, ast.ClassDef)):  # phase 1, every module: the faster walk
        for stmt in cls.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                add(stmt.target.id, stmt.annotation)
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if any((d := _dotted(dec)) is not None and d.rsplit(".", 1)[-1] in _PROPERTIES for dec in stmt.decorator_list):
                add(stmt.name, stmt.returns)
            params = {a.arg: a.annotation for a in (*stmt.args.posonlyargs, *stmt.args.args, *stmt.args.kwonlyargs)}
            for node in astwalk.walk(stmt):
                if isinstance(node, ast.AnnAssign) and (attr := _self_attr(node.target)):
                    add(attr, node.annotation)
                elif isinstance(node, ast.Assign) and len(node.targets) == 1 and (attr := _self_attr(node.targets[0])) \
                        and isinstance(node.value, ast.Name) and node.value.id in params:
                    add(attr, params[node.value.id])
    return tuple(dict.fromkeys(found))


def _self_attr(node: ast.expr) -> str:
    """``<attr>`` of ``self.<attr>``; "" for any other target."""
    return node.attr if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
        and node.value.id == "self" else ""
