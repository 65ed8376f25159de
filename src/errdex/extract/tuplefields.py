"""Texts held in a field of the package's named tuples, read through a parameter.

aniso8601 10.0.1 defines ``Limit = namedtuple("Limit", ["casterrorstring", "min", "max", "rangeexception",
"rangeerrorstring", "rangefunc"])``, builds one per field of a date as a class attribute (``DATE_MM_LIMIT =
Limit("Invalid month string.", 1, 12, MonthOutOfBoundsError, "Month must be between 1..12.", range_check)``,
in ``builders/__init__.py`` and again in ``builders/python.py``), and ``range_check(valuestr, limit)`` raises
``limit.rangeexception(limit.rangeerrorstring)``: read as ``{limit.rangeerrorstring}`` alone (issue 17's
twenty-seventh round, 20 events).  The text is one of the literals the package puts in that field:

- phase 1 records each module-level ``namedtuple(...)`` / ``typing.NamedTuple(...)`` call's field names
  (``named_tuples``, a constant ``Name.<fields>``), and each call of a class with literal text among its
  arguments made outside functions (``built_tuples``, constants ``<tuple>n``: the class as resolved, the
  literal arguments; phase 1 cannot tell an imported named tuple from another class);
- ``param.field`` read as text in a function of which ``param`` is a parameter is a ``Ref`` with ``callee ==
  FIELD`` (``field_ref``); phase 2 (``FieldIndex``) gives it the literals passed in that field of every
  named tuple built, when exactly one named tuple of the package has a field of that name; else it stays
  the placeholder it was.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from errdex.extract.imports import dotted_source
from errdex.extract.ir import Hole, Lit, Node, Ref, alt
from errdex.extract.kepttexts import MSG_NAME, first_options

FIELD = "<field>"  # ``Ref.callee`` of ``param.field``; its target is the field's name
FIELDS = "<fields>"  # constant ``Name.<fields>``: a named tuple's field names, space-separated
BUILT = "<tuple>"  # constant ``<tuple>n``: a class called with literal text outside functions
_TUPLE_MAKERS = frozenset({"collections.namedtuple", "typing.NamedTuple", "typing_extensions.NamedTuple"})
_MAX_BUILT = 256  # calls recorded per module
_MAX_TEXTS = 64  # texts of one field over the package (expand keeps the first 8 of a site)


def named_tuples(tree: ast.Module, resolve: Callable[[str], str | None]) -> dict[str, Node]:
    """``Limit = namedtuple("Limit", [...])`` at module level: ``Limit.<fields>`` → the field names."""
    out: dict[str, Node] = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call) and len(node.value.args) == 2):
            continue
        d = dotted_source(node.value.func)
        if d is None or resolve(d) not in _TUPLE_MAKERS:
            continue
        names = _field_names(node.value.args[1])
        if names:
            out[f"{node.targets[0].id}.{FIELDS}"] = Lit(" ".join(names))
    return out


def _field_names(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace(",", " ").split()
    if isinstance(node, (ast.List, ast.Tuple)):
        out: list[str] = []
        for e in node.elts:
            if isinstance(e, ast.Constant) and isinstance(e.value, str):
                out.append(e.value)
            elif isinstance(e, ast.Tuple) and e.elts and isinstance(e.elts[0], ast.Constant) \
                    and isinstance(e.elts[0].value, str):  # NamedTuple("X", [("a", str), ...])
                out.append(e.elts[0].value)
            else:
                return None
        return out
    return None


def built_tuples(tree: ast.Module, resolve: Callable[[str], str | None]) -> dict[str, Node]:
    """Calls of a class with a literal text among their arguments, assigned at module or class level:
    ``<tuple>n`` → a ``Ref`` of the class as resolved, its arguments literal text or a placeholder."""
    out: dict[str, Node] = {}
    stack: list[ast.stmt] = list(tree.body)
    while stack and len(out) < _MAX_BUILT:
        node = stack.pop(0)
        if isinstance(node, ast.ClassDef):
            stack.extend(node.body)
            continue
        if not isinstance(node, (ast.Assign, ast.AnnAssign)) or not isinstance(node.value, ast.Call):
            continue
        call = node.value
        d = dotted_source(call.func)
        if d is None or not d.rsplit(".", 1)[-1][:1].isupper() or not any(
                _text(a) is not None for a in (*call.args, *(k.value for k in call.keywords))):
            continue
        args = tuple(_arg(a) for a in call.args)
        if any(isinstance(a, ast.Starred) for a in call.args):
            continue
        kwargs = tuple((k.arg, _arg(k.value)) for k in call.keywords if k.arg is not None)
        out[f"{BUILT}{len(out)}"] = Ref(target=resolve(d) or d, src=d, callee=BUILT, args=args, kwargs=kwargs)
    return out


def _text(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _arg(node: ast.expr) -> Node:
    text = _text(node)
    return Lit(text) if text is not None else Hole("")


def field_ref(written: str, params: frozenset[str], module: str, text_position: bool) -> Ref | None:
    """``limit.rangeerrorstring`` with ``limit`` a parameter: a field of a named tuple, maybe (a field named
    like a message only: ``{node.name}`` is a value, whatever tuple has a ``name``)."""
    head, _, attr = written.partition(".")
    if head not in params or not attr or "." in attr or not MSG_NAME.search(attr):
        return None
    return Ref(target=f"{module}:{attr}", src=written, callee=FIELD, is_call=False, text_position=text_position)


class FieldIndex:
    """Phase 2: each field name of the package's named tuples → the literal texts built into it."""

    def __init__(self, constants: Mapping[str, Node], canonical: Callable[[str], str]) -> None:
        fields: dict[str, list[str]] = {}
        for key, node in constants.items():
            if key.endswith(f".{FIELDS}") and isinstance(node, Lit):
                fields[key[: -len(FIELDS) - 1]] = node.text.split()
        owners: dict[str, list[str]] = {}
        for tup, names in fields.items():
            for n in names:
                owners.setdefault(n, []).append(tup)
        self._texts: dict[str, list[tuple[str, Node]]] = {}  # field → (the module building it, the text)
        for key, node in constants.items():
            if (f".{BUILT}" not in key and not key.startswith(BUILT)) or not isinstance(node, Ref):
                continue
            built = fields.get(canonical(node.target))
            if built is None:
                continue
            module = key.rpartition(f".{BUILT}")[0]
            for name, value in [*zip(built, node.args, strict=False), *node.kwargs]:
                if isinstance(value, Lit) and len(owners.get(name, ())) == 1:
                    texts = self._texts.setdefault(name, [])
                    if len(texts) < _MAX_TEXTS and all(t != value for _, t in texts):
                        texts.append((module, value))

    def texts(self, target: str) -> Node | None:
        """The texts of a field read in ``module`` (``module:field``): those the module builds first (the
        site keeps the first eight), then the other modules'."""
        module, _, field = target.rpartition(":")
        found = self._texts.get(field)
        if not found:
            return None
        return first_options(alt([t for m, t in found if m == module] + [t for m, t in found if m != module]))
