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
  the placeholder it was;
- ``self.CONST.field`` / ``cls.CONST.field`` in a method of a class that sets ``CONST = Limit(...)`` itself
  (aniso8601's ``raise cls.TIME_SS_LIMIT.rangeexception(cls.TIME_SS_LIMIT.rangeerrorstring)``, issue 17's
  fortieth round) is the one literal of that constant's field: phase 1 records the class-level call under
  ``Cls.CONST.<built>`` (``built_tuples``) and reads the raise as a call of a class held there
  (``member_call``) and the text as a ``Ref`` with ``callee == MEMBER`` (``member_ref``); phase 2
  (``member_texts``) reads the field of the class's (or nearest base's) constant, then of each subclass
  that sets its own.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from errdex.extract.imports import class_like, dotted_source
from errdex.extract.ir import Hole, Lit, Node, Ref, alt
from errdex.extract.kepttexts import MSG_NAME, first_options
from errdex.extract.tables import Tables

FIELD = "<field>"  # ``Ref.callee`` of ``param.field``; its target is the field's name
FIELDS = "<fields>"  # constant ``Name.<fields>``: a named tuple's field names, space-separated
BUILT = "<tuple>"  # constant ``<tuple>n``: a class called with literal text outside functions
NAMED = "<built>"  # constant ``Cls.CONST.<built>``: the same call, assigned to a class constant
MEMBER = "<member>"  # ``Ref.callee`` of ``self.CONST.field``; its target is ``Cls:CONST:field``
_OWN = frozenset({"self", "cls"})
_MAX_CLASSES = 16  # the class, then its subclasses that set the constant
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
    stack: list[tuple[str, ast.stmt]] = [("", n) for n in tree.body]
    while stack and len(out) < _MAX_BUILT:
        prefix, node = stack.pop(0)
        if isinstance(node, ast.ClassDef):
            stack.extend((f"{prefix}{node.name}.", n) for n in node.body)
            continue
        if not isinstance(node, (ast.Assign, ast.AnnAssign)) or not isinstance(node.value, ast.Call):
            continue
        call = node.value
        d = dotted_source(call.func)
        if d is None or not d.rsplit(".", 1)[-1][:1].isupper() or not any(
                _text(a) is not None for a in (*call.args, *(k.value for k in call.keywords))):
            continue
        args = tuple(_arg(a, resolve) for a in call.args)
        if any(isinstance(a, ast.Starred) for a in call.args):
            continue
        kwargs = tuple((k.arg, _arg(k.value, resolve)) for k in call.keywords if k.arg is not None)
        built = Ref(target=resolve(d) or d, src=d, callee=BUILT, args=args, kwargs=kwargs)
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else \
            node.target if isinstance(node, ast.AnnAssign) else None
        if prefix and isinstance(target, ast.Name):
            out[f"{prefix}{target.id}.{NAMED}"] = built  # a class constant (``member_texts``)
        out[f"{BUILT}{len(out)}"] = built
    return out


def class_built(tree: ast.Module) -> frozenset[str]:
    """``Cls.CONST`` of each class-level ``CONST = Name(... "text" ...)`` of the module (``built_tuples``'s
    calls, before names are resolved): what ``member_call`` and ``member_ref`` may read."""
    out: set[str] = set()
    stack: list[tuple[str, ast.stmt]] = [("", n) for n in tree.body]
    while stack and len(out) < _MAX_BUILT:
        prefix, node = stack.pop(0)
        if isinstance(node, ast.ClassDef):
            stack.extend((f"{prefix}{node.name}.", n) for n in node.body)
        elif prefix and isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call) \
                and (d := dotted_source(node.value.func)) is not None and d.rsplit(".", 1)[-1][:1].isupper() \
                and any(_text(a) is not None for a in (*node.value.args, *(k.value for k in node.value.keywords))):
            out.add(f"{prefix}{node.targets[0].id}")
    return frozenset(out)


def member_of(written: str, class_qualname: str | None, built: frozenset[str]) -> tuple[str, str] | None:
    """``(CONST, field)`` of ``self.CONST.field`` / ``cls.CONST.field`` read in a method of a class that
    sets ``CONST`` to a call with literal text (``class_built``)."""
    parts = written.split(".")
    if class_qualname is None or len(parts) != 3 or parts[0] not in _OWN \
            or f"{class_qualname}.{parts[1]}" not in built:
        return None
    return parts[1], parts[2]


def member_ref(owner: str, const: str, field: str, src: str, text_position: bool) -> Ref:
    """``self.CONST.field`` of class ``owner``: phase 2 reads the literal (``member_texts``)."""
    return Ref(target=f"{owner}:{const}:{field}", src=src, callee=MEMBER, is_call=False, text_position=text_position)


def member_texts(t: Tables, target: str) -> Node | None:
    """The texts of ``Cls:CONST:field``: the field of the constant the class (or its nearest base) sets,
    then of each subclass that sets its own; None when the class's is not a named tuple's literal."""
    found = member_values(t, target)
    if not found or not all(isinstance(v, Lit) for v in found):
        return None
    return first_options(alt(found))


def member_values(t: Tables, target: str) -> list[Node]:
    """What the field of ``Cls:CONST:field`` holds (a ``Lit``, a class's ``Ref``): the class's (or its nearest
    base's) constant's, then each subclass's own, distinct; empty when the class's is neither."""
    owner, const, field = target.rsplit(":", 2)
    own = _member_text(t, owner, const, field)
    if own is None:
        return []
    options: list[Node] = [own]
    for sub in t.subclasses(owner)[:_MAX_CLASSES]:
        text = _member_text(t, sub, const, field)
        if text is not None and text not in options:
            options.append(text)
    return options


def _member_text(t: Tables, cls: str, const: str, field: str) -> Lit | Ref | None:
    for k in (cls, *t.bases_chain(cls)):
        built = t.constants.get(f"{k}.{const}.{NAMED}")
        if built is None:
            continue
        if not isinstance(built, Ref):
            return None
        names = t.constants.get(f"{t.canonical(built.target)}.{FIELDS}")
        if not isinstance(names, Lit):
            return None
        for name, value in [*zip(names.text.split(), built.args, strict=False), *built.kwargs]:
            if name == field:
                return value if isinstance(value, (Lit, Ref)) else None
        return None
    return None


def _text(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _arg(node: ast.expr, resolve: Callable[[str], str | None]) -> Node:
    """A literal text, a class named (``SecondsError``: a ``Ref``, as resolved), else a placeholder."""
    text = _text(node)
    if text is not None:
        return Lit(text)
    d = dotted_source(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
    if d is not None and class_like(d):
        return Ref(target=resolve(d) or d, src=d, is_call=False)
    return Hole("")


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
