"""After-variants that edit a function the script hands to the library, or the call that receives it.

A library that traces a user's function (jax's ``jit``, ``grad``, ``vmap``; a decorator that wraps it)
raises on what that function does with its arguments: ``int(x)`` or ``x.item()`` on a tracer, numpy
called on one, a Python ``if`` on one, a side effect, a generator.  The fix is in that function, or in
how it is handed over (a keyword of the transform: jax's ``static_argnums``).  The function is an
argument of the public call, so these variants change an argument, never the call itself.

Generic edits (any library): a call around a parameter dropped (``castfun(x)`` -> ``x``, ``x.item()``
-> ``x``), a statement with a side effect or an ``assert`` dropped, ``yield v`` -> ``return v``, a
returned tuple or list reduced to its first element (or, of three or more, without its last), a def's decorators applied in the other order.
Edits that need to know the library (``trace_adapters.py``): keywords of its transforms, the module
whose functions have traceable twins (``np.exp`` -> ``jnp.exp``), and its ``where`` for a Python
branch on a traced value (``if c: return a`` / ``return b`` -> ``return where(c, a, b)``).
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator

from errdex.prove.trace_adapters import TraceAdapter

Fn = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
Edit = Callable[[Fn, ast.Module], bool]  # changes (the function's copy, the module's copy) in place


def _name(func: ast.expr) -> str:
    """The last segment of a callee (``jax.jit`` -> ``jit``, ``partial(jit, ...)`` -> ``partial``)."""
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def passed_functions(module: ast.Module) -> list[int]:
    """Walk indexes of the functions the script hands to a call: a def or lambda whose name is a
    call's argument, a lambda given in place, a decorated def (the decorator receives it)."""
    nodes = list(ast.walk(module))
    passed: set[str] = set()
    inline: set[int] = set()
    for n in nodes:
        if isinstance(n, ast.Call):
            for a in [*n.args, *(k.value for k in n.keywords)]:
                if isinstance(a, ast.Name):
                    passed.add(a.id)
                elif isinstance(a, ast.Lambda):
                    inline.add(id(a))
    out: list[int] = []
    for i, n in enumerate(nodes):
        named = isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and (n.name in passed or n.decorator_list)
        if named or (isinstance(n, ast.Lambda) and id(n) in inline):
            out.append(i)
        elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Lambda) and any(
                isinstance(t, ast.Name) and t.id in passed for t in n.targets):
            out.append(nodes.index(n.value))
    return sorted(set(out))


def _params(fn: Fn) -> set[str]:
    a = fn.args
    return {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]}


def _body_nodes(fn: Fn) -> list[ast.AST]:
    """The function's own nodes (nested defs included: a helper it calls is traced too)."""
    roots: list[ast.AST] = list(fn.body) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) else [fn.body]
    return [n for r in roots for n in ast.walk(r)]


class Swap(ast.NodeTransformer):
    """Replace one node (by identity) with another."""

    def __init__(self, old: ast.AST, new: ast.AST) -> None:
        self.old, self.new = old, new

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if node is self.old:
            return self.new
        return super().generic_visit(node)


def _edits(fn: Fn, adapter: TraceAdapter | None, aliases: dict[str, str],
           defined: set[str]) -> Iterator[tuple[str, Edit]]:
    """(why, edit) for one traced function; an edit gets (the function's copy, the module's copy) and
    changes them in place, False if it cannot.  ``defined``: names the script binds by ``def``,
    import or assignment: a call to one of them is a step of the example (a library call, a function
    the library wraps), never dropped; a builtin or a loop's variable (``int``, ``castfun``) is."""
    params = _params(fn)
    body = _body_nodes(fn)
    for k, n in enumerate(body):  # a conversion around a parameter (not a call the script defines): the parameter
        if not isinstance(n, ast.Call) or n.keywords:
            continue
        if len(n.args) == 1 and isinstance(n.args[0], ast.Name) and n.args[0].id in params \
                and isinstance(n.func, ast.Name) and n.func.id not in defined:
            yield f"{ast.unparse(n)} -> {n.args[0].id} in the traced function", _unwrap(k)
        elif not n.args and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                and n.func.value.id in params:
            yield f"{ast.unparse(n)} -> {n.func.value.id} in the traced function", _unwrap(k)
    if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        for k, st in enumerate(fn.body):
            value = st.value if isinstance(st, ast.Expr) else None
            side = isinstance(value, (ast.Call, ast.Attribute, ast.Subscript))
            only = len(fn.body) == 1 and isinstance(value, (ast.Attribute, ast.Subscript))  # a look-up, nothing else
            if only or ((side or isinstance(st, ast.Assert)) and len(fn.body) > 1):
                yield f"without {ast.unparse(st)[:50]} in the traced function", _drop_stmt(k)
        if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in body):
            yield "yield -> return in the traced function", _yield_to_return
        if len(fn.decorator_list) > 1:
            yield "decorators in the other order", _reverse_decorators
    for k, n in enumerate(body):
        if isinstance(n, ast.Return) and isinstance(n.value, (ast.Tuple, ast.List)) and len(n.value.elts) > 1:
            yield f"{ast.unparse(n)[:40]} -> its first element", _first_element(k)
            if len(n.value.elts) > 2:  # one value too many (a pair expected: a value and its aux)
                yield f"{ast.unparse(n)[:40]} without its last element", _without_last(k)
    if isinstance(fn, ast.Lambda) and isinstance(fn.body, (ast.Tuple, ast.List)) and len(fn.body.elts) > 1:
        yield f"lambda returning {ast.unparse(fn.body)[:30]} -> its first element", _lambda_first
        if len(fn.body.elts) > 2:
            yield f"lambda returning {ast.unparse(fn.body)[:30]} without its last element", _lambda_without_last
    if adapter is None:
        return
    for k, n in enumerate(body):  # numpy on a traced value: the library's traceable twin
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                and aliases.get(n.func.value.id) in adapter.modules:
            twin = adapter.modules[aliases[n.func.value.id]]
            yield f"{ast.unparse(n.func)} -> {twin}.{n.func.attr} in the traced function", _twin(k, twin, adapter)
    if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and adapter.where:
        for k in range(len(fn.body)):
            got = _branch(fn.body, k)
            if got is not None:
                yield f"if {ast.unparse(got[0])[:30]} -> {adapter.where}(...)", _to_where(k, adapter)


def _branch(body: list[ast.stmt], k: int) -> tuple[ast.expr, ast.expr, ast.expr] | None:
    """(test, value if true, value if false) of ``if c: return a`` followed by ``return b`` (or its ``else``)."""
    st = body[k]
    if not (isinstance(st, ast.If) and len(st.body) == 1 and isinstance(st.body[0], ast.Return)
            and st.body[0].value is not None):
        return None
    rest = st.orelse or body[k + 1:k + 2]
    if len(rest) != 1 or not isinstance(rest[0], ast.Return) or rest[0].value is None:
        return None
    return st.test, st.body[0].value, rest[0].value


def _unwrap(k: int) -> Edit:
    def edit(fn: Fn, m: ast.Module) -> bool:
        call = _body_nodes(fn)[k]
        assert isinstance(call, ast.Call)
        inner = call.args[0] if call.args else call.func.value  # type: ignore[attr-defined]
        Swap(call, copy.deepcopy(inner)).visit(fn)
        return True
    return edit


def _drop_stmt(k: int) -> Edit:
    def edit(fn: Fn, m: ast.Module) -> bool:
        assert isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
        del fn.body[k]
        fn.body = fn.body or [ast.Pass()]
        return True
    return edit


def _yield_to_return(fn: Fn, m: ast.Module) -> bool:
    assert isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
    for n in _body_nodes(fn):
        for field in ("body", "orelse"):
            stmts = getattr(n, field, None)
            if not isinstance(stmts, list):
                continue
            for i, st in enumerate(stmts):
                if isinstance(st, ast.Expr) and isinstance(st.value, ast.Yield):
                    stmts[i] = ast.copy_location(ast.Return(st.value.value), st)
    for i, st in enumerate(fn.body):
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Yield):
            fn.body[i] = ast.copy_location(ast.Return(st.value.value), st)
    return not any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _body_nodes(fn))


def _reverse_decorators(fn: Fn, m: ast.Module) -> bool:
    assert isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
    fn.decorator_list.reverse()
    return True


def _first_element(k: int) -> Edit:
    def edit(fn: Fn, m: ast.Module) -> bool:
        ret = _body_nodes(fn)[k]
        assert isinstance(ret, ast.Return) and isinstance(ret.value, (ast.Tuple, ast.List))
        ret.value = ret.value.elts[0]
        return True
    return edit


def _without_last(k: int) -> Edit:
    def edit(fn: Fn, m: ast.Module) -> bool:
        ret = _body_nodes(fn)[k]
        assert isinstance(ret, ast.Return) and isinstance(ret.value, (ast.Tuple, ast.List))
        del ret.value.elts[-1]
        return True
    return edit


def _lambda_without_last(fn: Fn, m: ast.Module) -> bool:
    assert isinstance(fn, ast.Lambda) and isinstance(fn.body, (ast.Tuple, ast.List))
    del fn.body.elts[-1]
    return True


def _lambda_first(fn: Fn, m: ast.Module) -> bool:
    assert isinstance(fn, ast.Lambda) and isinstance(fn.body, (ast.Tuple, ast.List))
    fn.body = fn.body.elts[0]
    return True


def _twin(k: int, module: str, adapter: TraceAdapter) -> Edit:
    def edit(fn: Fn, m: ast.Module) -> bool:
        call = _body_nodes(fn)[k]
        assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
        call.func.value = ast.Name(import_alias(m, module, adapter), ast.Load())
        return True
    return edit


def _to_where(k: int, adapter: TraceAdapter) -> Edit:
    def edit(fn: Fn, m: ast.Module) -> bool:
        assert isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
        got = _branch(fn.body, k)
        assert got is not None
        module, _, attr = adapter.where.rpartition(".")
        call = ast.Call(ast.Attribute(ast.Name(import_alias(m, module, adapter), ast.Load()), attr, ast.Load()),
                        list(got), [])
        st = fn.body[k]
        assert isinstance(st, ast.If)
        fn.body[k:k + (1 if st.orelse else 2)] = [ast.copy_location(ast.Return(call), st)]
        return True
    return edit


def _binds(n: ast.AST) -> list[str]:
    """Names a def, class, import or assignment binds (not a ``for`` target: a loop over cases)."""
    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [n.name]
    if isinstance(n, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in n.names]
    if isinstance(n, (ast.Assign, ast.AnnAssign)):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target]
        return [x.id for t in targets for x in ast.walk(t) if isinstance(x, ast.Name)]
    return []


def module_aliases(m: ast.Module) -> dict[str, str]:
    """Local name -> module of the script's top-level imports (``np`` -> ``numpy``, ``jnp`` -> ``jax.numpy``)."""
    out: dict[str, str] = {}
    for st in m.body:
        if isinstance(st, ast.Import):
            for a in st.names:
                out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(st, ast.ImportFrom) and st.module and not st.level:
            for a in st.names:
                out[a.asname or a.name] = f"{st.module}.{a.name}"
    return out


def import_alias(m: ast.Module, module: str, adapter: TraceAdapter) -> str:
    """The script's name for ``module``, importing it (``import jax.numpy as jnp``) when it has none."""
    known = module_aliases(m)
    for name, mod in known.items():
        if mod == module:
            return name
    alias = adapter.names.get(module, "_" + module.rsplit(".", 1)[-1])
    if alias in known:
        alias = "_" + alias
    m.body.insert(0, ast.Import([ast.alias(module, alias)]))
    return alias


def _transform_edits(m: ast.Module, adapter: TraceAdapter) -> Iterator[tuple[str, int, str]]:
    """(why, walk index of the call or decorated def, keyword source) for each transform the script
    calls (or applies as a bare decorator) that does not pass the keyword yet."""
    for i, n in enumerate(ast.walk(m)):
        if isinstance(n, ast.Call):
            name, given = _name(n.func), {k.arg for k in n.keywords}
            if name == "partial" and n.args:
                name = _name(n.args[0])
            for kw in adapter.keywords.get(name, ()):
                if kw.split("=", 1)[0] not in given:
                    yield f"{kw} given to {name}", i, kw
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in n.decorator_list:
                if isinstance(d, (ast.Name, ast.Attribute)):
                    for kw in adapter.keywords.get(_name(d), ()):
                        yield f"@{ast.unparse(d)}({kw})", i, kw


def _wrapped(m: ast.Module, adapter: TraceAdapter) -> list[tuple[str, ast.Module]]:
    """Each function the script hands to a call (by name or in place) handed through ``adapter.wrap``
    instead (``shard_map(f, ...)`` -> ``shard_map(jax.jit(f), ...)``)."""
    nodes = list(ast.walk(m))
    fns = {n.name for n in (nodes[i] for i in passed_functions(m)) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    fns |= {t.id for n in nodes if isinstance(n, ast.Assign) and isinstance(n.value, ast.Lambda)
            for t in n.targets if isinstance(t, ast.Name)}
    wrapper = adapter.wrap.rpartition(".")[2]
    out: list[tuple[str, ast.Module]] = []
    for i, n in enumerate(nodes):
        if not isinstance(n, ast.Call) or _name(n.func) == wrapper:
            continue
        for j, a in enumerate(n.args):
            if (isinstance(a, ast.Name) and a.id in fns) or isinstance(a, ast.Lambda):
                c = copy.deepcopy(m)
                call = list(ast.walk(c))[i]
                assert isinstance(call, ast.Call)
                module, _, attr = adapter.wrap.rpartition(".")
                func = ast.Attribute(ast.Name(import_alias(c, module, adapter), ast.Load()), attr, ast.Load())
                call.args[j] = ast.Call(func, [call.args[j]], [])
                out.append((f"{ast.unparse(a)[:30]} given to {_name(n.func)} through {adapter.wrap}", c))
    return out[:4]


def _add_keyword(node: ast.AST, kw: str) -> bool:
    value = ast.parse(kw.split("=", 1)[1], mode="eval").body
    key = kw.split("=", 1)[0]
    if isinstance(node, ast.Call):
        node.keywords.append(ast.keyword(key, value))
        return True
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        for j, d in enumerate(node.decorator_list):
            if isinstance(d, (ast.Name, ast.Attribute)):
                node.decorator_list[j] = ast.Call(d, [], [ast.keyword(key, value)])
                return True
    return False


def traced_variants(m: ast.Module, adapter: TraceAdapter | None) -> list[tuple[str, ast.Module]]:
    """(why, module) for every edit of a function the script hands to the library and, with the
    library's adapter, of the transforms that receive it: transform keywords first."""
    out: list[tuple[str, ast.Module]] = []
    if adapter is not None:
        for why, idx, kw in _transform_edits(m, adapter):
            c = copy.deepcopy(m)
            if _add_keyword(list(ast.walk(c))[idx], kw):
                out.append((why, c))
    if adapter is not None and adapter.wrap:
        out += _wrapped(m, adapter)
    aliases = module_aliases(m)
    defined = {name for n in ast.walk(m) for name in _binds(n)}
    for idx in passed_functions(m):
        fn = list(ast.walk(m))[idx]
        assert isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for why, edit in _edits(fn, adapter, aliases, defined):
            c = copy.deepcopy(m)
            twin = list(ast.walk(c))[idx]
            assert isinstance(twin, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if edit(twin, c):
                out.append((why, c))
    return out
