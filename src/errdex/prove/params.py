"""Which ``@pytest.mark.parametrize`` values a test node ran with, from the node id (parsing only).

pytest names a parametrized node ``test_x[<id>]``; the id of one parameter set is the
``pytest.param(..., id=...)`` id, or the values' ids joined by ``-`` (a str, number, bool or
None value is its own id, anything else ``<argname><index>``), the decorator nearest the
function first.  The binding is the expressions as written in the test file, so the distilled
script restates the very values the test passed.
"""

from __future__ import annotations

import ast
import copy
import itertools
from collections.abc import Mapping
from dataclasses import dataclass

from errdex.extract.imports import dotted_source
from errdex.prove.harness import CASE_DECORATORS

ABSL_CASE_DECORATORS = frozenset({"parameters", "named_parameters", "product"})

MAX_COMBOS = 4096


@dataclass(frozen=True, slots=True)
class ParamSet:
    names: tuple[str, ...]
    values: tuple[ast.expr, ...]
    ident: str
    alts: tuple[str, ...] = ()  # other ids it may have (an ``ids=`` function's result, when not decidable)


def _is_parametrize(dec: ast.expr) -> ast.Call | None:
    if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute) and dec.func.attr == "parametrize":
        return dec
    return None


def _names(node: ast.expr) -> tuple[str, ...] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return tuple(n.strip() for n in node.value.split(",") if n.strip())
    if isinstance(node, (ast.Tuple, ast.List)):
        out = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return tuple(out) if len(out) == len(node.elts) else None
    return None


def _value_id(node: ast.expr, name: str, index: int) -> str:
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (str, int, float, bool))):
        v = node.value
        if isinstance(v, str):
            return v.encode("unicode_escape").decode("ascii")
        return str(v)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float)):
        return str(-node.operand.value)
    return f"{name}{index}"


def _called_id(fn: ast.Lambda, v: ast.expr) -> tuple[str, ...]:
    """The ids ``fn`` (an ``ids=lambda v: ...``) gives one value, parsing only: ``v.__name__`` and
    ``getattr(v, "__name__", v)`` of a dotted name (a module's is the whole name, anything else's
    its last part: both are returned), ``str(v)`` and ``getattr``'s fallback of a constant; ()
    when not decidable."""
    arg, body = fn.args.args[0].arg, fn.body

    def is_arg(n: ast.expr) -> bool:
        return isinstance(n, ast.Name) and n.id == arg
    named = isinstance(body, ast.Attribute) and body.attr == "__name__" and is_arg(body.value)
    fallback = False
    if isinstance(body, ast.Call) and isinstance(body.func, ast.Name) and body.func.id == "getattr" \
            and len(body.args) in (2, 3) and is_arg(body.args[0]) and isinstance(body.args[1], ast.Constant) \
            and body.args[1].value == "__name__":
        named, fallback = True, len(body.args) == 3 and is_arg(body.args[2])
    if isinstance(v, ast.Constant) and (fallback or (isinstance(body, ast.Call) and isinstance(body.func, ast.Name)
                                                     and body.func.id == "str" and len(body.args) == 1
                                                     and is_arg(body.args[0]))):
        return (_value_id(v, "", 0),)
    dotted = dotted_source(v)
    if named and dotted and not isinstance(v, ast.Constant):
        return tuple(dict.fromkeys((dotted, dotted.rsplit(".", 1)[-1])))
    return ()


def _called_ids(fn: ast.expr, vals: list[ast.expr], names: tuple[str, ...], index: int) -> tuple[str, ...]:
    """The ids a set of values gets from ``ids=<lambda>`` (pytest calls it per value and joins the
    results with ``-``), every combination when a value's id is not decidable by parsing."""
    if not (isinstance(fn, ast.Lambda) and len(fn.args.args) == 1):
        return ()
    per = [_called_id(fn, v) or (_value_id(v, n, index),) for n, v in zip(names, vals, strict=True)]
    return tuple("-".join(p) for p in itertools.islice(itertools.product(*per), 16))


def _flatten(t: ast.expr) -> ast.expr:
    """``("--flag", *(a, b))`` -> ``("--flag", a, b)`` after a substitution."""
    if isinstance(t, (ast.Tuple, ast.List)):
        elts: list[ast.expr] = []
        for e in t.elts:
            if isinstance(e, ast.Starred) and isinstance(e.value, (ast.Tuple, ast.List)):
                elts.extend(e.value.elts)
            else:
                elts.append(e)
        return ast.Tuple(elts, ast.Load())
    return t


def literal_cases(node: ast.expr, consts: Mapping[str, ast.expr], depth: int = 0) -> list[ast.expr] | None:
    """The elements of a parameter list written as a literal, a module constant, ``a + b``, or a
    comprehension over one of those (``[("--flag", *c) for c in CASES]``); None otherwise."""
    if depth > 5:
        return None
    if isinstance(node, (ast.List, ast.Tuple)):
        return list(node.elts)
    if isinstance(node, ast.Name) and node.id in consts:
        return literal_cases(consts[node.id], consts, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = literal_cases(node.left, consts, depth + 1), literal_cases(node.right, consts, depth + 1)
        return None if left is None or right is None else [*left, *right]
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)) and len(node.generators) == 1:
        g = node.generators[0]
        items = literal_cases(g.iter, consts, depth + 1)
        if items is None or g.ifs or not isinstance(g.target, ast.Name):
            return None
        return [_flatten(_Bind(g.target.id, e).visit(copy.deepcopy(node.elt))) for e in items]
    return None


def _sets(call: ast.Call, consts: Mapping[str, ast.expr] | None = None) -> list[ParamSet] | None:
    if len(call.args) < 2:
        return None
    names = _names(call.args[0])
    elements = literal_cases(call.args[1], consts or {})
    if names is None or elements is None:
        return None
    values = ast.List(elements, ast.Load())
    ids_kw = next((k.value for k in call.keywords if k.arg == "ids"), None)
    explicit = ids_kw.elts if isinstance(ids_kw, (ast.List, ast.Tuple)) else None
    out: list[ParamSet] = []
    for i, elt in enumerate(values.elts):
        ident = ""
        if isinstance(elt, ast.Call) and isinstance(elt.func, ast.Attribute) and elt.func.attr == "param":
            for k in elt.keywords:
                if k.arg == "id" and isinstance(k.value, ast.Constant):
                    ident = str(k.value.value)
            vals: list[ast.expr] = list(elt.args)
        elif len(names) == 1:
            vals = [elt]
        elif isinstance(elt, (ast.Tuple, ast.List)):
            vals = list(elt.elts)
        else:
            return None
        if len(vals) != len(names):
            return None
        if not ident and explicit is not None and i < len(explicit):
            e = explicit[i]
            ident = str(e.value) if isinstance(e, ast.Constant) else ""
        alts: tuple[str, ...] = ()
        if not ident and ids_kw is not None and explicit is None:
            alts = _called_ids(ids_kw, vals, names, i)
            ident = alts[0] if alts else ""
            alts = alts[1:]
        if not ident:
            ident = "-".join(_value_id(v, n, i) for n, v in zip(names, vals, strict=True))
        out.append(ParamSet(names, tuple(vals), ident, alts))
    return out


def bindings(fn: ast.FunctionDef | ast.AsyncFunctionDef, node_param: str,
             cls: ast.ClassDef | None = None, exact_first: bool = False,
             consts: Mapping[str, ast.expr] | None = None) -> list[dict[str, ast.expr]]:
    """Candidate bindings (argname -> expression) for ``test[node_param]``: the one whose pytest id
    equals ``node_param`` first, then the others (ids made unique by pytest are not reproduced)."""
    decorators = [*reversed(fn.decorator_list), *(reversed(cls.decorator_list) if cls else [])]
    groups: list[list[ParamSet]] = []
    for dec in decorators:  # nearest the function first: its id comes first
        call = _is_parametrize(dec)
        if call is None:
            continue
        sets = _sets(call, consts)
        if sets is None:
            return []
        groups.append(sets)
    if not groups:
        return [{}]
    exact: list[dict[str, ast.expr]] = []
    rest: list[dict[str, ast.expr]] = []
    for combo in itertools.islice(itertools.product(*groups), MAX_COMBOS):
        idents = {"-".join(p) for p in itertools.product(*[(s.ident, *s.alts) for s in combo])}
        binding = {n: v for s in combo for n, v in zip(s.names, s.values, strict=True)}
        (exact if node_param in idents else rest).append(binding)
    if exact:
        return [*exact, *rest] if exact_first else exact
    # pytest de-duplicates ids (``x0``, ``x1``): try the sets whose id is a prefix
    return [b for b, c in zip(rest, itertools.product(*groups), strict=False)
            if node_param.startswith("-".join(s.ident for s in c))] or rest


class _Bind(ast.NodeTransformer):
    def __init__(self, name: str, value: ast.expr) -> None:
        self.name, self.value = name, value

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return copy.deepcopy(self.value) if node.id == self.name and isinstance(node.ctx, ast.Load) else node


def _expand(arg: ast.expr) -> list[ast.expr]:
    """The cases of ``({...} for f in ("a", "b"))`` (one ``for`` over literals, no ``if``): the element
    with the loop name replaced by each literal; anything else is one argument as written."""
    if isinstance(arg, (ast.GeneratorExp, ast.ListComp)) and len(arg.generators) == 1:
        g = arg.generators[0]
        if isinstance(g.target, ast.Name) and not g.ifs and isinstance(g.iter, (ast.Tuple, ast.List)) \
                and all(isinstance(e, ast.Constant) for e in g.iter.elts):
            return [_Bind(g.target.id, e).visit(copy.deepcopy(arg.elt)) for e in g.iter.elts]
    return [arg]


def _text(v: ast.expr) -> str:
    """A string constant or an f-string of constants (``f"_{'x'}"``), else ""."""
    if isinstance(v, ast.Constant):
        return str(v.value)
    if isinstance(v, ast.JoinedStr):
        parts = []
        for p in v.values:
            inner = p.value if isinstance(p, ast.FormattedValue) and p.format_spec is None and p.conversion == -1 else p
            if not isinstance(inner, ast.Constant):
                return ""
            parts.append(str(inner.value))
        return "".join(parts)
    return ""


def _absl_sets(dec: ast.expr, params: list[str]) -> list[tuple[str, dict[str, ast.expr]]] | None:
    """(name suffix, binding) of each case of absl's ``@parameterized.parameters(...)`` or
    ``named_parameters(...)``: a case is a dict of keywords, a tuple of positionals, or one value."""
    if not (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute)
            and dec.func.attr in ("parameters", "named_parameters")):
        return None
    named = dec.func.attr == "named_parameters"
    cases: list[ast.expr] = [c for a in dec.args for c in _expand(a)]
    if len(cases) == 1 and isinstance(cases[0], (ast.List, ast.Tuple)) and not named \
            and (isinstance(cases[0], ast.List) or all(isinstance(e, (ast.Dict, ast.Tuple)) for e in cases[0].elts)):
        cases = list(cases[0].elts)  # absl: one argument that is no tuple or mapping is the iterable of cases
    out: list[tuple[str, dict[str, ast.expr]]] = []
    for i, case in enumerate(cases):
        binding: dict[str, ast.expr] = {}
        name = str(i)
        if isinstance(case, ast.Call) and isinstance(case.func, ast.Name) and case.func.id == "dict":
            case = ast.Dict([ast.Constant(k.arg) for k in case.keywords], [k.value for k in case.keywords])
        if isinstance(case, ast.Dict):
            for k, v in zip(case.keys, case.values, strict=True):
                if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                    return None
                if k.value == "testcase_name":
                    name = _text(v) or name
                else:
                    binding[k.value] = v
        elif isinstance(case, ast.Tuple):
            elts = list(case.elts)
            if named and elts and isinstance(elts[0], ast.Constant):
                name, elts = str(elts[0].value), elts[1:]
            binding.update(zip(params, elts, strict=False))
        elif params:
            binding[params[0]] = case
        out.append((name, binding))
    return out


def absl_binding(fn: ast.FunctionDef | ast.AsyncFunctionDef, generated: str,
                 cls: ast.ClassDef | None = None) -> dict[str, ast.expr] | None:
    """The binding of the absl-parameterized method ``generated`` (``testFoo3``, ``testFoo_name``)."""
    if not generated.startswith(fn.name):
        return None
    suffix = generated[len(fn.name):]
    params = [a.arg for a in fn.args.args if a.arg != "self"]
    for dec in [*fn.decorator_list, *(cls.decorator_list if cls else [])]:
        computed = _computed_case(dec, suffix, params)
        if computed is not None:
            return computed
        sets = _absl_sets(dec, params)
        if sets is None:
            continue
        for name, binding in sets:
            if suffix in (name, "_" + name) or suffix.lstrip("_") == name.lstrip("_"):
                return binding
    required = params[:len(params) - len(fn.args.defaults)]  # a parameter with a default may not be a case's
    for dec in [*fn.decorator_list, *(cls.decorator_list if cls else [])]:
        evaluated = evaluated_case(dec, suffix, required)
        if evaluated is not None:
            return evaluated
    return None


def evaluated_case(dec: ast.expr, suffix: str, params: list[str]) -> dict[str, ast.expr] | None:
    """A generated ``testFoo3`` whose cases a decorator computes (absl's ``product``, a library's sampler
    such as jax's ``jtu.sample_product``, ``harness.CASE_DECORATORS``; cases that are not literals): each
    parameter bound to the decorator evaluated as the test module did, applied to a stand-in, and absl's
    case read back (``sample_product(...)(lambda self, **kw: None).testcases[3]['shape']``): absl names
    such a test by the case's index.  The expression is how the cases are made, never edited."""
    if not (suffix.isdigit() and isinstance(dec, ast.Call) and params):
        return None
    f = dec.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    if name not in ABSL_CASE_DECORATORS | CASE_DECORATORS or name == "named_parameters":
        return None
    stub = ast.Lambda(ast.arguments([], [ast.arg("self")], None, [], [], ast.arg("kw"), []), ast.Constant(None))
    cases = ast.Attribute(ast.Call(copy.deepcopy(dec), [stub], []), "testcases", ast.Load())
    case = ast.Subscript(cases, ast.Constant(int(suffix)), ast.Load())
    out: dict[str, ast.expr] = {p: ast.Subscript(copy.deepcopy(case), ast.Constant(p), ast.Load()) for p in params}
    for expr in out.values():
        for n in ast.walk(expr):
            n.errdex_fixed = True  # type: ignore[attr-defined]
    return out


def _computed_case(dec: ast.expr, suffix: str, params: list[str]) -> dict[str, ast.expr] | None:
    """``@parameterized.parameters([dict(a=x, b=y) for x in ... for y in ...])``, cases computed when the
    test module runs (over objects, with conditions): the generated ``testFoo3`` binds each parameter to
    the expression that computes it, ``[...][3]['a']``, evaluated by the script as the test's run did."""
    if not (suffix.isdigit() and isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute)
            and dec.func.attr == "parameters" and len(dec.args) == 1 and not dec.keywords
            and isinstance(dec.args[0], (ast.ListComp, ast.GeneratorExp))):
        return None
    comp = dec.args[0]
    elt = comp.elt
    cases = ast.ListComp(copy.deepcopy(elt), copy.deepcopy(comp.generators))
    case = ast.Subscript(cases, ast.Constant(int(suffix)), ast.Load())
    out: dict[str, ast.expr]
    if isinstance(elt, ast.Call) and isinstance(elt.func, ast.Name) and elt.func.id == "dict" and not elt.args:
        keys = [k.arg for k in elt.keywords if k.arg]
        out = {k: ast.Subscript(copy.deepcopy(case), ast.Constant(k), ast.Load()) for k in keys if k in params}
    elif isinstance(elt, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in elt.keys):
        keys = [str(k.value) for k in elt.keys if isinstance(k, ast.Constant)]
        out = {k: ast.Subscript(copy.deepcopy(case), ast.Constant(k), ast.Load()) for k in keys if k in params}
    elif isinstance(elt, ast.Tuple):
        out = {p: ast.Subscript(copy.deepcopy(case), ast.Constant(j), ast.Load())
               for j, p in enumerate(params[:len(elt.elts)])}
    elif params:
        out = {params[0]: case}
    else:
        return None
    for expr in out.values():  # how the test module computes its cases: no argument of the call, never edited
        for n in ast.walk(expr):
            n.errdex_fixed = True  # type: ignore[attr-defined]
    return out
