"""``ast.walk`` without its cost: the same nodes in the same (breadth-first) order, three times faster.

``ast.walk`` calls ``iter_child_nodes``, a generator over ``iter_fields``,
for every node, and looks at every field, strings and operator singletons
included.  Extraction walks each function of a package this way (the call
graph, ``calls.py``), which made it cost more than parsing the file.  Here
each node class's fields that can hold child nodes are found once (from the
class's ``_field_types`` where Python has it), and a node's children are
appended to one list that the loop runs over while it grows.

``walk`` yields what ``ast.walk`` yields, in its order, except the leaves
that no analysis looks into: expression contexts and operators
(``Load``, ``Add``, ``Eq``...).  ``statements`` is the same order restricted
to statements (with the except handlers and match cases that hold them):
statements nest only in statements, so it never looks into an expression.
"""

from __future__ import annotations

import ast
import types
import typing
from collections.abc import Callable, Iterator

_LEAVES = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)
_NOT_NODES = ("list[str]", "list[ast.cmpop]", "str | None", "int | None")
_FIELDS: dict[type, tuple[str, ...]] = {}
_BODIES: dict[type, tuple[str, ...]] = {}
_HOLDS_STATEMENTS = (ast.stmt, ast.excepthandler, ast.match_case)

# Per node class, a small function that appends its children to the walk's list (None: it has none).
Expander = Callable[[ast.AST, Callable[[object], None], Callable[[list[object]], None]], None]
_EXPANDERS: dict[type, Expander | None] = {}


def _fields_of(cls: type) -> tuple[str, ...]:
    """The fields of ``cls`` that may hold a node other than a leaf (all of them where Python
    does not say the types: values that are no node are skipped as the walk meets them)."""
    names: list[str] = []
    if issubclass(cls, ast.AST):
        types: dict[str, object] = getattr(cls, "_field_types", {})
        for name in cls._fields:
            t = types.get(name)
            if t in (str, int, object) or repr(t) in _NOT_NODES or (isinstance(t, type) and issubclass(t, _LEAVES)):
                continue
            names.append(name)
    _FIELDS[cls] = out = tuple(names)
    return out


def walk(root: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``root`` (itself first), breadth first as ``ast.walk`` orders them,
    without expression contexts and operators."""
    for node in _order(root):
        if isinstance(node, ast.AST):
            yield node


def order(root: ast.AST) -> list[object]:
    """``walk``'s nodes as one list, in its order, with the leaves and the values that are no node
    among them: for a loop that tests each item's class anyway (``calls._references``)."""
    return _order(root)


def calls(root: ast.AST) -> list[ast.Call]:
    """The calls under ``root`` in ``ast.walk`` order (``root`` itself when it is one)."""
    return [node for node in _order(root) if node.__class__ is ast.Call]  # type: ignore[misc]


def _order(root: ast.AST) -> list[object]:
    """``root`` and the nodes under it breadth first, with values that are no node among them."""
    order: list[object] = [root]
    append, extend = order.append, order.extend
    get = _EXPANDERS.get
    for node in order:
        cls = node.__class__
        expand = get(cls, _expand_generic)
        if expand is _expand_generic:
            expand = _expander(cls)
        if expand is not None:
            try:
                expand(node, append, extend)  # type: ignore[arg-type]
            except AttributeError:  # a field missing (a node built by hand): nothing was appended
                _expand_generic(node, append, extend)  # type: ignore[arg-type]
    return order


def _expand_generic(node: ast.AST, append: Callable[[object], None], extend: Callable[[list[object]], None]) -> None:
    """The children of ``node`` field by field, whatever their values (a tree built by hand)."""
    names = _FIELDS.get(node.__class__)
    for name in names if names is not None else _fields_of(node.__class__):
        value = getattr(node, name, None)
        if value.__class__ is list:
            extend(value)  # type: ignore[arg-type]  # a dict's keys may hold None for ``**x``: a class with no fields
        elif isinstance(value, ast.AST):
            append(value)


def _kind(cls: type, name: str) -> str:
    """How field ``name`` of ``cls`` holds nodes: "list", "node", "optional" or "any" (unknown)."""
    t = getattr(cls, "_field_types", {}).get(name)
    if typing.get_origin(t) is list:
        return "list"
    if isinstance(t, type) and issubclass(t, ast.AST):
        return "node"
    if isinstance(t, types.UnionType) and all(
            a is type(None) or (isinstance(a, type) and issubclass(a, ast.AST)) for a in t.__args__):
        return "optional"
    return "any"


def _expander(cls: type) -> Expander | None:
    """The function appending the children of a ``cls`` node, in field order, written once per class
    from the field types Python declares: one call per node instead of a loop over its fields
    (the call graph walks every function this way; a quarter less time).  It reads every field
    before it appends anything, so when a field is missing (a node built by hand) ``_order``
    expands that node generically with nothing appended twice."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _fields_of(cls)
    if not names:
        _EXPANDERS[cls] = None
        return None
    kinds = [_kind(cls, n) for n in names]
    reads = [f"    v{i} = node.{n}" if k != "any" else f"    v{i} = getattr(node, {n!r}, None)"
             for i, (n, k) in enumerate(zip(names, kinds, strict=True))]
    adds = []
    for i, k in enumerate(kinds):
        if k == "list":
            adds.append(f"    extend(v{i})")
        elif k == "node":
            adds.append(f"    append(v{i})")
        elif k == "optional":
            adds.append(f"    if v{i} is not None: append(v{i})")
        else:
            adds.append(f"    if v{i}.__class__ is list: extend(v{i})\n    elif isinstance(v{i}, AST): append(v{i})")
    code = "\n".join(["def expand(node, append, extend):", *reads, *adds])
    namespace: dict[str, object] = {"AST": ast.AST}
    exec(compile(code, f"<astwalk {cls.__name__}>", "exec"), namespace)  # the field names of an ast class
    expand: Expander = namespace["expand"]  # type: ignore[assignment]
    _EXPANDERS[cls] = expand
    return expand


def _bodies_of(cls: type) -> tuple[str, ...]:
    names = tuple(n for n in getattr(cls, "_fields", ()) if n in ("body", "orelse", "finalbody", "handlers", "cases"))
    _BODIES[cls] = names
    return names


def statements(root: ast.AST) -> Iterator[ast.AST]:
    """The statements under ``root`` (with except handlers and match cases), in ``ast.walk`` order."""
    order: list[ast.AST] = [root]
    append = order.append
    bodies = _BODIES
    for node in order:
        cls = node.__class__
        names = bodies.get(cls)
        if names is None:
            names = _bodies_of(cls)
        for name in names:
            value = getattr(node, name, None)
            if value.__class__ is list:
                for child in value:
                    if isinstance(child, _HOLDS_STATEMENTS):
                        append(child)
    yield from order
