"""Values the guards on the way to a raise compare with, by the name they compare (parse only).

``if len(decls) > 1 and nargs == 0: raise ...`` gives ``decls``: lists and strings of length 0, 1
and 2, ``nargs``: -1, 0 and 1.  Names are plain names and ``self.x`` attributes (a constructor's
``self.x = x`` makes them the parameter's): the search gives these values to the argument of the
same name, and every constant to any argument (the pool).  Each value is source text of a literal.

Two more facts, for a library adapter to turn into values (``search_adapters.py``): what the guards say
of an argument's array shape (``len(x.shape) == 0``, ``x.ndim != 3``: numbers of dimensions; ``x.dtype !=
dtypes.uint2``: a dtype name; ``a.dtype == b.dtype``: both are arrays whose dtypes matter), and the
options a guard reads (``config.no_tracing.value``: ``no_tracing``), which only the library knows how
to set.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from errdex.model import ErrorSite

MAX_PER_NAME = 12
MAX_POOL = 40
_TYPE_VALUES = {"int": ("0", "1"), "float": ("1.0",), "str": ("'x'",), "bool": ("True", "False"),
                "list": ("[]", "[1]"), "tuple": ("()", "(1,)"), "dict": ("{}",), "bytes": ("b'x'",),
                "set": ("set()",), "NoneType": ("None",), "type(None)": ("None",)}


@dataclass(frozen=True, slots=True)
class GuardValues:
    """What the search draws from: values by compared name, every constant, and the guards' lines."""

    by_name: dict[str, tuple[str, ...]]
    pool: tuple[str, ...]
    lines: tuple[int, ...]
    shaped: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)  # name -> {"ndim"|"dtype": values}
    options: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()  # ``C`` of ``issubclass(x, C)``: the value is to be a class (then an instance)
    # the raise's own guard asks whether a name is unset: ``isinstance(body, api.NotSpecified)`` -> (body,
    # NotSpecified), ``body is None`` -> (body, None): the search gives that parameter a value (``search_pairs.py``)
    unset: tuple[tuple[str, str], ...] = ()


def _name(node: ast.AST) -> str:
    """``x`` for ``x``, ``self.x``, ``len(x)`` (with a ``len`` mark) and ``x.attr`` (the base)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.attr if node.value.id in ("self", "cls") else node.value.id
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and node.args:
        inner = _name(node.args[0])
        return f"len:{inner}" if inner and not inner.startswith("len:") else ""
    return ""


def _constants(node: ast.AST) -> list[object]:
    if isinstance(node, ast.Constant):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant)]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float)):
        return [-node.operand.value]
    return []


def _around(v: object) -> list[object]:
    """A compared constant and its neighbours (the boundary on both sides)."""
    if isinstance(v, bool) or v is None:
        return [v]
    if isinstance(v, int):
        return [v - 1, v, v + 1]
    if isinstance(v, float):
        return [v - 0.5, v, v + 0.5]
    if isinstance(v, str):
        return [v, v + "x", ""] if v else [v, "x"]
    return [v]


def _sized(n: int) -> list[str]:
    return [f"[{', '.join(['0'] * k)}]" for k in (n - 1, n, n + 1) if k >= 0] + \
        [repr("x" * k) for k in (n - 1, n, n + 1) if k >= 0]


def _add(by: dict[str, list[str]], name: str, values: Iterable[str]) -> None:
    if not name or name in ("self", "cls") or hasattr(builtins, name):
        return
    got = by.setdefault(name, [])
    for v in values:
        if v not in got and len(got) < MAX_PER_NAME:
            got.append(v)


_ARRAY_ATTRS = ("ndim", "shape", "dtype")


def _array_fact(node: ast.AST) -> tuple[str, str]:
    """(argument, "ndim" | "dtype") for ``x.ndim``, ``len(x.shape)``, ``x.dtype`` (``self.x`` too); else ("", "")."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and node.args \
            and isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "shape":
        return _name(node.args[0].value), "ndim"
    if isinstance(node, ast.Attribute) and node.attr in _ARRAY_ATTRS:
        return _name(node.value), "dtype" if node.attr == "dtype" else "ndim"
    return "", ""


def _shape_facts(shaped: dict[str, dict[str, list[str]]], node: ast.Compare) -> None:
    sides = [node.left, *node.comparators]
    for a in sides:
        name, what = _array_fact(a)
        if not name or name in ("self", "cls"):
            continue
        got = shaped.setdefault(name, {}).setdefault(what, [])
        for b in sides:
            if b is a:
                continue
            if what == "ndim":
                vals = [repr(v) for c in _constants(b) if isinstance(c, int) and not isinstance(c, bool)
                        for v in _around(c) if isinstance(v, int) and v >= 0]
            else:  # a dtype spelled as a name (``dtypes.uint2``, ``np.float32``) or a string
                last = b.attr if isinstance(b, ast.Attribute) else b.value if isinstance(b, ast.Constant) \
                    and isinstance(b.value, str) else ""
                vals = [repr(last)] if last and last.isidentifier() else []
            got.extend(v for v in vals if v not in got)


def _option(node: ast.AST) -> str:
    """``no_tracing`` for ``config.no_tracing.value`` or ``config.no_tracing`` (an option holder read)."""
    if isinstance(node, ast.Attribute) and node.attr == "value":
        node = node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, (ast.Name, ast.Attribute)):
        base = node.value.id if isinstance(node.value, ast.Name) else node.value.attr
        if base == "config":
            return node.attr
    return ""


def _truth(by: dict[str, list[str]], node: ast.AST) -> None:
    if isinstance(node, (ast.Name, ast.Attribute)):
        _add(by, _name(node), ("True", "False", "None", "0", "1"))


def _unset(node: ast.AST | None) -> tuple[str, str] | None:
    """(name, what its default is) when ``node`` asks whether a parameter was left unset: ``x is None`` or
    ``isinstance(x, K)`` with one class ``K`` (a sentinel's class, the default the script compares with)."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Is) \
            and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None:
        return (node.left.id, "None") if isinstance(node.left, ast.Name) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
            and len(node.args) == 2 and isinstance(node.args[1], (ast.Name, ast.Attribute)):
        arg = node.args[0]
        return (arg.id, ast.unparse(node.args[1]).rsplit(".", 1)[-1]) if isinstance(arg, ast.Name) else None
    return None


def _given(node: ast.AST) -> str:
    """The name ``node`` asks to be given or not: ``x is None``, ``x is not None``, ``(flag := x is not None)``."""
    if isinstance(node, ast.NamedExpr):
        return _given(node.value)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot)) \
            and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None \
            and isinstance(node.left, ast.Name):
        return node.left.id
    return ""


def _together(node: ast.AST | None) -> list[tuple[str, str]]:
    """Both names, each unset when None, of a check that two parameters are given together:
    ``(a is not None) != (b is not None)`` (5d88's ``a_scale``, ``b_scale``): the after gives the one left out."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
        a, b = _given(node.left), _given(node.comparators[0])
        if a and b and a != b:
            return [(a, "None"), (b, "None")]
    return []


def unset_guards(site: ErrorSite, pairs: bool = True) -> list[tuple[tuple[str, str], str]]:
    """((name, test), guard text) of the raise's own guards that ask whether a parameter is unset (``_unset``),
    and (``pairs``) whether two are given together (``_together``: each of them)."""
    out: list[tuple[tuple[str, str], str]] = []
    for g in site.guards:
        if g.kind == "if" and not g.negated:
            node = _parsed(g.normalized)
            u = _unset(node)
            out += [(u, g.normalized)] if u is not None else [(p, g.normalized) for p in _together(node) if pairs]
    return out


def guard_values(site: ErrorSite, earlier: Sequence[ErrorSite] = ()) -> GuardValues:
    """The values of ``site``'s guards (this check must fail) and of ``earlier``'s: the raises above it in
    the same function, whose checks must pass for the call to get here."""
    by: dict[str, list[str]] = {}
    pool: list[str] = []
    shaped: dict[str, dict[str, list[str]]] = {}
    options: list[str] = []
    classes: list[str] = []
    unset = [u for u, _ in unset_guards(site)]
    guards = [g for e in (site, *earlier) for g in e.guards]
    for g in guards:
        if g.kind in ("except", "match"):
            continue
        try:
            tree = ast.parse(g.normalized, mode="eval")
        except SyntaxError:
            continue
        _truth(by, tree.body)
        for node in ast.walk(tree):
            opt = _option(node)
            if opt and g in site.guards and opt not in options:  # this raise's own guard reads an option
                options.append(opt)
            if isinstance(node, ast.Compare):
                _shape_facts(shaped, node)
                sides = [node.left, *node.comparators]
                for a, b in ((x, y) for x in sides for y in sides if x is not y):
                    name = _name(a)
                    consts = _constants(b)
                    if not name or not consts:
                        continue
                    if name.startswith("len:"):
                        _add(by, name[4:], (s for c in consts if isinstance(c, int) for s in _sized(c)))
                        continue
                    vals = [repr(v) for c in consts for v in _around(c)]
                    member = any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
                    if len(consts) > 1 and member:
                        vals = [repr(c) for c in consts] + vals  # a member of the container, or not
                    elif isinstance(b, (ast.Tuple, ast.List)) and not member and len(consts) == len(b.elts):
                        vals = [ast.unparse(b), *vals]  # compared whole (``dimensions != (0,)``): the value itself
                    _add(by, name, vals)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                    and len(node.args) == 2:
                name = _name(node.args[0])
                kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
                _add(by, name, (v for k in kinds for v in _TYPE_VALUES.get(ast.unparse(k), ())))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "issubclass" \
                    and len(node.args) == 2 and g in site.guards:  # the value is a class of some kind
                kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
                for k in kinds:
                    last = ast.unparse(k).rsplit(".", 1)[-1]
                    if last.isidentifier() and last not in classes:
                        classes.append(last)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
                name = _name(node.func.value)  # x.startswith("-"): strings with and without it
                consts = [str(c) for c in _constants(node.args[0]) if isinstance(c, str)]
                _add(by, name, (repr(v) for c in consts for v in (f"{c}x", "x", c)))
            elif isinstance(node, (ast.BoolOp, ast.UnaryOp)):
                parts = node.values if isinstance(node, ast.BoolOp) else [node.operand]
                for p in parts:  # a truth test of a bare name: true and false values
                    _truth(by, p)
            if isinstance(node, ast.Constant) and not isinstance(node.value, bytes) and node.value is not ...:
                text = repr(node.value)
                if text not in pool and len(pool) < MAX_POOL and len(text) < 80:
                    pool.append(text)
    lines = tuple(sorted({g.line for g in site.guards if g.line}))
    return GuardValues(by_name={k: tuple(v) for k, v in by.items() if v}, pool=tuple(pool), lines=lines,
                       shaped={k: {w: tuple(v) for w, v in d.items()} for k, d in shaped.items()},
                       options=tuple(options), classes=tuple(classes), unset=tuple(dict.fromkeys(unset)))


def _parsed(text: str) -> ast.AST | None:
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
