"""The package's call graph, one file at a time: who calls, registers and re-exports what.

Phase 1 reads each file's functions and records, per function, the package
names it calls (resolved through the file's imports, ``self.m`` through the
enclosing class), the functions it registers (``table[prim] = f``,
``@partial(register_lowering, prim)``, ``register(prim)(f)``) and, for the
module itself, the names it re-exports (``from ._src.api import jit as jit``,
``from .errors import *``, honouring ``__all__``).  ``analyze.public_path``
walks these edges backwards from a raise to what users can call.

A call on something the walk cannot type (``obj.method()``) is kept as
``?.method``: the analysis maps it to the package's methods of that name when
there are few of them, and drops it otherwise.  Parse only: nothing is imported.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable
from typing import Literal

from errdex.extract.astwalk import order, statements
from errdex.extract.imports import class_like, dotted_source, import_bindings, is_package, resolve_relative
from errdex.model import CallEdge

EdgeKind = Literal["call", "register", "alias", "export", "returns", "ref"]

_IGNORED_ATTRS = frozenset({"append", "extend", "get", "items", "keys", "values", "format", "join", "pop",
                            "update", "setdefault", "add", "copy", "split", "strip", "replace", "startswith",
                            "endswith", "lower", "upper", "encode", "decode", "__init__", "__enter__", "__exit__"})


def call_edges(tree: ast.Module, module: str, path: str) -> tuple[CallEdge, ...]:
    """Every call, registration and export edge of one library module."""
    package = is_package(path)
    imports: dict[str, str] = {}
    stars: list[str] = []
    plain: set[str] = set()  # ``from ._compat import get_text_stderr``: imported without ``as`` (no re-export form)
    bound = _module_imports(tree)
    runtime: dict[str, str] = {}  # what the module binds when it runs (not under ``if TYPE_CHECKING:``)
    for node in statements(tree):  # imports are statements: the walk need not enter expressions
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for local, target in import_bindings(node, module, package):
                imports.setdefault(local, target)
                if id(node) in bound:
                    runtime.setdefault(local, target)
            if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
                stars.append(resolve_relative(module, package, node.level, node.module))
            if isinstance(node, ast.ImportFrom) and id(node) in bound:
                plain.update(a.name for a in node.names if a.asname is None)
    top = _top_level_defs(tree)
    w = _Walk(module, imports, top, bool(stars))
    w.instances = _module_instances(tree)
    w.visit_body(tree.body, "")
    lazy = _lazy_returns(tree, module, w)
    called = {e.callee for e in w.edges if e.kind == "call"}
    own_use = frozenset(n for n in plain if n in runtime and runtime[n] in called
                        and any(p.startswith("_") for p in runtime[n].split(".")))
    return tuple(dict.fromkeys([*w.edges, *_references(tree, module, w),
                                *_exports(tree, module, runtime, top, stars, own_use), *lazy]))


def _lazy_returns(tree: ast.Module, module: str, w: _Walk) -> list[CallEdge]:
    """A module ``__getattr__`` that answers a name by comparison (``if name == "get_stream": from .utils
    import _get_stream; return _get_stream``, a deprecated alias): ``module.get_stream`` is that function,
    offered to users by a public module (an ``export``; a function only), and ``module.__getattr__`` marks
    the name."""
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "__getattr__"), None)
    if fn is None or not fn.args.args:
        return []
    param = fn.args.args[0].arg
    public = not any(p.startswith("_") for p in module.split("."))
    w.class_stack, w.memo = [], {}
    out: list[CallEdge] = []
    for node in statements(fn):
        if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare) or len(node.test.ops) != 1 \
                or not isinstance(node.test.ops[0], ast.Eq):
            continue
        sides = [node.test.left, *node.test.comparators]
        names = [s.value for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
        if len(names) != 1 or not names[0].isidentifier() or not any(
                isinstance(s, ast.Name) and s.id == param for s in sides):
            continue
        out.append(CallEdge(caller=f"{module}.__getattr__", callee=f"{module}.{names[0]}", kind="export"))
        for stmt in node.body:
            if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name | ast.Attribute) and public:
                target = w.resolve(stmt.value)
                # a class so aliased is a deprecated name whose replacement users are told to use
                # (``OptionParser``, ``MultiCommand``): naming its methods by it would send them to the old name
                if target and not target.startswith("?") and target != f"{module}.{names[0]}" \
                        and not class_like(target.rsplit(".", 1)[-1].lstrip("_")):
                    out.append(CallEdge(caller=f"{module}.{names[0]}", callee=target, kind="export"))
    return out


def _references(tree: ast.Module, module: str, w: _Walk) -> list[CallEdge]:
    """``module`` → each package name it reads anywhere (``sharding_rule=_dot_sharding_rule``,
    ``f.defvjp(_fwd, _bwd)``, a table of functions, a call at module level): evidence that a function is
    used, though no call edge of it is recorded.  Only that: the public path does not walk these."""
    w.class_stack, w.memo = [], {}
    out: dict[str, int] = {}
    name, attribute, load = ast.Name, ast.Attribute, ast.Load
    memo, resolve_written = w.memo, w._resolve_written
    # ``walk``'s nodes in its order, tested by class, and ``w.resolve`` inlined: the hot loop of the call
    # graph (a name not written as a dotted chain resolves to ``?.attr`` or nothing: never a reference)
    for node in order(tree):
        cls = node.__class__
        if cls is name:
            written = node.id  # type: ignore[attr-defined]
        elif cls is attribute:
            written = dotted_source(node)  # type: ignore[arg-type]
            if written is None:
                continue
        else:
            continue
        if node.ctx.__class__ is not load:  # type: ignore[attr-defined]
            continue
        if written in memo:
            target = memo[written]
        else:
            memo[written] = target = resolve_written(written)
        if target and target[0] != "?" and target not in out:
            out[target] = getattr(node, "lineno", 0)
    return [CallEdge(caller=module, callee=t, kind="ref", line=ln) for t, ln in out.items()]


_STATEMENT_BODIES = ("body", "handlers", "orelse", "finalbody", "cases")


def _module_imports(tree: ast.Module) -> set[int]:
    """The import statements that bind a name of the module when it runs: at module level (inside
    ``if``/``try``/``with`` too), not inside a function or class, nor under ``if TYPE_CHECKING:``
    (for type checkers only: ``click.termui`` does not offer ``ProgressBar`` at runtime)."""
    out: set[int] = set()
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.add(id(node))
        elif isinstance(node, ast.If):
            t = node.test
            if not ((isinstance(t, ast.Name) and t.id == "TYPE_CHECKING")
                    or (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")):
                todo.extend(node.body)
            todo.extend(node.orelse)
        elif isinstance(node, ast.Try):
            todo.extend([*node.body, *node.orelse, *node.finalbody, *(s for h in node.handlers for s in h.body)])
        elif isinstance(node, ast.With):
            todo.extend(node.body)
    return out


def _top_level_defs(tree: ast.Module) -> frozenset[str]:
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return frozenset(out)


class _Walk:
    """Functions with the class they sit in; edges from each to the names it uses."""

    def __init__(self, module: str, imports: dict[str, str], top: frozenset[str], stars: bool = False) -> None:
        self.module, self.imports, self.top = module, imports, top
        self.stars = stars  # the module star-imports: a name it never binds may come from there
        self.edges: list[CallEdge] = []
        self.class_stack: list[str] = []
        self.item_classes: list[str] = []  # per enclosing class, the class when it defines `__getitem__`, else ""
        self.memo: dict[str, str | None] = {}  # written name -> resolved, for the current class
        self.instances: dict[str, str] = {}  # a module-level instance -> its class as written (``_module_instances``)

    def resolve(self, node: ast.AST) -> str | None:
        """The package-wide dotted name of ``node`` when the file's names say it; ``?.attr`` for an
        attribute of an untyped object; None for locals and builtins."""
        written = node.id if node.__class__ is ast.Name else dotted_source(node)
        if written is None:
            if isinstance(node, ast.Attribute) and node.attr not in _IGNORED_ATTRS:
                return f"?.{node.attr}"
            return None
        memo = self.memo  # a name is called many times in a class: resolve it once
        if written in memo:
            return memo[written]
        memo[written] = found = self._resolve_written(written)
        return found

    def _resolve_written(self, written: str) -> str | None:
        head, _, rest = written.partition(".")
        if head in ("self", "cls") and self.class_stack and rest:
            first = rest.split(".", 1)[0]
            return f"{self.module}.{self.class_stack[-1]}.{first}"
        if head in self.imports:
            target = self.imports[head]
            return f"{target}.{rest}" if rest else target
        if head in self.top:
            return f"{self.module}.{written}"
        if self.stars and not rest and not hasattr(builtins, head):
            # `from .lib import *`, then `integer2bytes(...)`: phase 2 follows the star imports from
            # `module.integer2bytes` to where it is defined (``tables.canonical``), or finds nothing
            return f"{self.module}.{written}"
        if rest:
            last = rest.rsplit(".", 1)[-1]
            return None if last in _IGNORED_ATTRS else f"?.{last}"
        return None

    def instance_method(self, func: ast.expr) -> str | None:
        """``_SELECTOR.render`` of a module-level instance (``_SELECTOR = BackendSelector(...)``,
        ``_module_instances``): its class's method, an edge beside the name's own (a primitive object's
        ``run_scoped_p.bind(...)`` stays an edge to the primitive, which its rules are registered on)."""
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id in self.instances):
            return None
        cls = self._resolve_written(self.instances[func.value.id])
        if cls is None or cls.startswith("?") or not class_like(cls):
            return None
        return f"{cls}.{func.attr}"

    def add(self, caller: str, callee: str | None, kind: EdgeKind, line: int) -> None:
        if callee and callee != caller:
            if callee.endswith(".bind") and not callee.startswith("?"):  # prim.bind(...) reaches prim's rules
                callee = callee[: -len(".bind")]
            self.edges.append(CallEdge(caller=caller, callee=callee, kind=kind, line=line))

    def visit_body(self, body: list[ast.stmt], prefix: str) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.visit_function(stmt, prefix)
            elif isinstance(stmt, ast.ClassDef):
                self.class_stack.append(prefix + stmt.name)
                self.item_classes.append(prefix + stmt.name if any(
                    isinstance(f, ast.FunctionDef) and f.name == "__getitem__" for f in stmt.body) else "")
                self.memo = {}  # ``self.x`` resolves through the class
                self.visit_body(stmt.body, prefix + stmt.name + ".")
                self.class_stack.pop()
                self.item_classes.pop()
                self.memo = {}
            elif not prefix:
                self.module_statement(stmt)

    def visit_function(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, prefix: str) -> None:
        me = f"{self.module}.{prefix}{fn.name}"
        for dec in fn.decorator_list:
            self.decorator(dec, me)
        nodes = order(fn)
        aliases = _method_aliases(nodes)
        for node in nodes:  # a nested function's calls count as the outer's: it runs the inner
            kind = node.__class__
            if kind is ast.Subscript:  # ``table[key]``: a reader of a table of functions may call any of them
                assert isinstance(node, ast.Subscript)
                if node.ctx.__class__ is ast.Load:
                    self.table_read(me, node.value, node.lineno)
                    if self.item_classes and self.item_classes[-1] and node.value.__class__ is ast.Name and node.value.id == "self":  # type: ignore[attr-defined]
                        # `self[name]` in a class defining `__getitem__` calls it (acme's `__getattr__`)
                        self.add(me, f"{self.module}.{self.item_classes[-1]}.__getitem__", "call", node.lineno)
                continue
            if kind is not ast.Call:
                continue
            assert isinstance(node, ast.Call)
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "get":  # ``table.get(key)``
                self.table_read(me, func.value, node.lineno)
            elif func.__class__ is ast.Name and aliases and (bound := aliases.get(func.id)) is not None:  # type: ignore[attr-defined]
                func = bound  # `read_until = self.read_until` ... `read_until(stream_i, end)`: the method
            self.add(me, self.resolve(func), "call", node.lineno)
            if (method := self.instance_method(func)) is not None:
                self.add(me, method, "call", node.lineno)
            for a in node.args:  # functions passed along (``cache(f)``, ``partial(f, x)``)
                if isinstance(a, (ast.Name, ast.Attribute)):
                    target = self.resolve(a)
                    if target and not target.startswith("?"):
                        self.add(me, target, "call", node.lineno)
        for cls in self.returned_classes(fn):
            self.add(me, cls, "returns", fn.lineno)

    def table_read(self, me: str, table: ast.expr, line: int) -> None:
        """``binary_streams.get(name)`` or ``_handlers[kind]``, a module-level name: ``me`` reaches
        ``<table>[]``, which a literal table of functions aliases to each function it holds (a table
        of no functions is no node: ``tables_read`` drops the edge)."""
        if table.__class__ is ast.Name:
            target = self.resolve(table)
            if target and not target.startswith("?"):
                self.add(me, f"{target}[]", "call", line)

    def returned_classes(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
        """The package classes ``fn`` returns an instance of: its return annotation (``-> ProgressBar[V]``,
        a string one too) or a ``return Cls(...)`` in its own body (not a nested function's)."""
        out: list[str] = []
        ann = fn.returns
        if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
            try:
                ann = ast.parse(ann.value, mode="eval").body
            except SyntaxError:
                ann = None
        if isinstance(ann, ast.Subscript):
            ann = ann.value
        if isinstance(ann, (ast.Name, ast.Attribute)):
            out.append(self.resolve(ann) or "")
        # a return is a statement: only the statement bodies are entered, never an expression (this runs
        # on every function of the package); depth first, last child first, as before
        todo: list[ast.AST] = list(fn.body)
        while todo:
            node = todo.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Call) and isinstance(
                    node.value.func, (ast.Name, ast.Attribute)):
                out.append(self.resolve(node.value.func) or "")
            for name in _STATEMENT_BODIES:  # in field order: Try's are body, handlers, orelse, finalbody
                todo.extend(getattr(node, name, ()))
        root = self.module.split(".", 1)[0] + "."
        return [c for c in dict.fromkeys(out) if c.startswith(root) and class_like(c)]

    def decorator(self, dec: ast.expr, me: str) -> None:
        """``@register(prim)`` / ``@partial(register, prim)``: the primitive's binding reaches ``me``."""
        if isinstance(dec, ast.Call):
            args = list(dec.args)
            func = self.resolve(dec.func)
            if func and func.rsplit(".", 1)[-1] == "partial" and args:
                func, args = self.resolve(args[0]), args[1:]
            for a in args:
                target = self.resolve(a)
                if target and not target.startswith("?") and not class_like(target):  # not an enum member
                    self.add(target, me, "register", dec.lineno)

    def module_statement(self, stmt: ast.stmt) -> None:
        """``table[prim] = f`` registers ``f`` for ``prim``; ``g = wrap(f)`` makes ``g`` reach ``f``;
        ``register(prim)(f)`` / ``register(prim, f)`` register ``f``."""
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1) or (
                isinstance(stmt, ast.AnnAssign) and stmt.value is not None):
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
            value = stmt.value
            assert value is not None
            funcs = [self.resolve(v) for v in _function_refs(value)]
            if isinstance(target, ast.Subscript):
                key = self.resolve(target.slice)
                for f in funcs:
                    if key and f and not f.startswith("?"):
                        self.add(key, f, "register", stmt.lineno)
            elif isinstance(target, ast.Name):
                # a literal table is no callable name: ``binary_streams[]`` holds the function, which is not dead code
                table = "[]" if isinstance(value, ast.Dict | ast.List | ast.Tuple | ast.Set) else ""
                for f in funcs:
                    if f and not f.startswith("?") and not (table and class_like(f)):
                        self.add(f"{self.module}.{target.id}{table}", f, "alias", stmt.lineno)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            refs = [self.resolve(a) for a in call.args if isinstance(a, (ast.Name, ast.Attribute))]
            if isinstance(call.func, ast.Call):  # register(prim)(f)
                keys = [self.resolve(a) for a in call.func.args if isinstance(a, (ast.Name, ast.Attribute))]
            else:  # register(prim, f): the first reference is the key, the others the functions
                keys, refs = refs[:1], refs[1:]
            for k in keys:
                for f in refs:
                    if k and f and not k.startswith("?") and not f.startswith("?") and not class_like(k):
                        self.add(k, f, "register", stmt.lineno)


def tables_read(edges: list[CallEdge], canonical: Callable[[str], str] = str) -> list[CallEdge]:
    """``edges`` with each read of a table (``f`` → ``mod.table[]``) aimed at where the table is defined
    (``canonical``: read through a re-export), and dropped where that is no table of functions: only a
    literal table holding package functions is a node of the graph (its ``alias`` edges)."""
    tables = {e.caller for e in edges if e.kind == "alias" and e.caller.endswith("[]")}
    out: list[CallEdge] = []
    for e in edges:
        if e.kind == "call" and e.callee.endswith("[]"):
            callee = e.callee if e.callee in tables else canonical(e.callee[:-2]) + "[]"
            if callee not in tables:
                continue
            e = CallEdge(caller=e.caller, callee=callee, kind=e.kind, line=e.line)
        out.append(e)
    return out


def _module_instances(tree: ast.Module) -> dict[str, str]:
    """The module-level names bound once, to an instance of a class the module names (``_BACKEND_SELECTOR =
    BackendSelector(rust, python)``, ``_default_decoder = JSONDecoder()``): name -> the class as written.  A
    name bound twice (or anywhere else at module level) is left out: which instance a call reaches is not known."""
    out: dict[str, str] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign | ast.AnnAssign) and isinstance(stmt.value, ast.Call) and (
                cls := dotted_source(stmt.value.func)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                out[targets[0].id] = cls
    counts: dict[str, int] = {}  # every binding at module level (under `if`/`try` too; `global` names as well)
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            counts[node.id] = counts.get(node.id, 0) + 1
        elif isinstance(node, ast.Global):
            for n in node.names:
                counts[n] = counts.get(n, 0) + 2
        todo.extend(ast.iter_child_nodes(node))
    return {k: v for k, v in out.items() if counts.get(k) == 1 and class_like(v)}


def _function_refs(value: ast.expr) -> list[ast.expr]:
    """Names that ``value`` makes callable under a new name: ``f``, ``wrap(f)``, ``partial(f, 1)``, and the
    functions a literal table holds (``{"stderr": get_binary_stderr}``: reached through the table)."""
    if isinstance(value, ast.Name | ast.Attribute):
        out: list[ast.expr] = [value]
        return out
    if isinstance(value, ast.Call):
        refs: list[ast.expr] = [a for a in value.args if isinstance(a, ast.Name | ast.Attribute)]
        return refs[:2]
    if isinstance(value, ast.Dict | ast.List | ast.Tuple | ast.Set):  # a table of functions: ``{"stderr": get_stderr}``
        items = value.values if isinstance(value, ast.Dict) else value.elts
        return [v for v in items if isinstance(v, ast.Name)]
    return []


def _exports(tree: ast.Module, module: str, imports: dict[str, str], top: frozenset[str],
             stars: list[str], own_use: frozenset[str] = frozenset()) -> list[CallEdge]:
    """``module.name`` → what it is, for the public names the module offers (``__all__`` when given).

    Without ``__all__``, a name in ``own_use`` is no offer: imported from a private module without the
    ``import x as x`` form and called by the module's own functions, it is there for the module's use
    (``click.exceptions`` imports ``get_text_stderr`` from ``._compat`` to print with it).

    Any module (private ones too, which star re-exports read) also gets ``module.__all__`` →
    ``module.name`` for each declared name, and ``module.__getattr__`` → ``module.name`` for the
    string keys of its module-level tables when it defines a lazy ``__getattr__``."""
    declared = _dunder_all(tree)
    marks = [CallEdge(caller=f"{module}.__all__", callee=f"{module}.{n}", kind="export") for n in declared or ()]
    if any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in tree.body):
        marks.extend(CallEdge(caller=f"{module}.__getattr__", callee=f"{module}.{n}", kind="export")
                     for n in _lazy_names(tree))
    if any(p.startswith("_") for p in module.split(".")):
        return marks
    names = declared if declared is not None else [n for n in [*imports, *top] if not n.startswith("_")
                                                   and n not in own_use]
    out: list[CallEdge] = []
    for n in names:
        target = imports.get(n)
        if target is not None and target != f"{module}.{n}":
            out.append(CallEdge(caller=f"{module}.{n}", callee=target, kind="export"))
    out.extend(CallEdge(caller=f"{module}.*", callee=f"{s}.*", kind="export") for s in stars)
    return [*marks, *out]


def _lazy_names(tree: ast.Module) -> list[str]:
    """String keys and items of module-level dict/list/tuple/set literals: the tables a lazy
    ``__getattr__`` looks names up in (``_deprecations``, ``_lazy_imports``...)."""
    out: list[str] = []
    for node in tree.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        elts: list[ast.expr | None] = []
        if isinstance(value, ast.Dict):
            elts = list(value.keys)
        elif isinstance(value, ast.List | ast.Tuple | ast.Set):
            elts = list(value.elts)
        out.extend(e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
                   and e.value.isidentifier())
    return list(dict.fromkeys(out))


def _dunder_all(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if (isinstance(node, (ast.Assign, ast.AugAssign)) and isinstance(node.value, (ast.List, ast.Tuple))
                and any(isinstance(t, ast.Name) and t.id == "__all__"
                        for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))):
            return [e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return None


def _method_aliases(nodes: list[object]) -> dict[str, ast.Attribute]:
    """Locals bound once to a method of ``self``/``cls`` (``read_until = self.read_until``, a lookup saved
    before a loop): a call of the local is a call of the method."""
    out: dict[str, ast.Attribute] = {}
    seen: set[str] = set()
    for n in nodes:
        if n.__class__ is ast.Assign:
            assert isinstance(n, ast.Assign)
            for t in n.targets:
                if isinstance(t, ast.Name):
                    v = n.value
                    if t.id not in seen and isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) \
                            and v.value.id in ("self", "cls"):
                        out[t.id] = v
                    else:
                        out.pop(t.id, None)
                    seen.add(t.id)
    return out
