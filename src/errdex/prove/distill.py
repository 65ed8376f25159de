"""The observed triggering test, distilled into a top-level script (parsing only, nothing imported).

From the observation's pytest node id and the test frame of its call chain (the line where the
test called into the library), the test function's statements that lead to that line become a
script: ``pytest.raises``/``warns`` blocks and ``try`` bodies unwrapped into the bare call,
statements after the raising one dropped, parametrized arguments bound to the expressions the
node ran with (``params.py``), fixtures inlined from the test module and its ``conftest.py`` files
(``return``/``yield`` value; ``tmp_path`` and ``monkeypatch`` replaced by what they stand for),
and the module-level imports and helpers the kept statements use.  A harness call that swallows
the exception (``CliRunner.invoke``) is rewritten by an adapter (``harness.py``) into the direct call.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from errdex.prove.harness import Setup, decorator_setup
from errdex.prove.params import absl_binding, bindings
from errdex.prove.slicing import _expect_call, _expectation, expect_aliases, is_expectation, slice_body
from errdex.prove.unittest_shapes import _replace, module_bases, test_instance, through_helper

BUILTIN_FIXTURES: dict[str, tuple[str, str]] = {  # name -> (import, expression)
    "tmp_path": ("import pathlib\nimport tempfile", "pathlib.Path(tempfile.mkdtemp())"),
    "tmpdir": ("import pathlib\nimport tempfile", "pathlib.Path(tempfile.mkdtemp())"),
    "tmp_path_factory": ("import pytest", "pytest.TempPathFactory(None, 3, 'all', lambda *a: None, _ispytest=True)"),
    "monkeypatch": ("import pytest", "pytest.MonkeyPatch()"),
}
Rewrite = Callable[[list[ast.stmt]], list[ast.stmt] | None]


class NotDistillable(Exception):
    pass


@dataclass(frozen=True, slots=True)
class Distilled:
    """A script as statements; ``focus`` indexes (in ``ast.walk`` order of the module) the nodes
    an after-variant may change: the raising statement's calls and the parametrized values."""

    module: ast.Module
    focus: tuple[int, ...]
    raising: int  # index of the raising statement in module.body
    test: str
    # walk index of a parametrized value -> the values the test's other parameter sets give it
    alternatives: tuple[tuple[int, tuple[ast.expr, ...]], ...] = ()

    @property
    def source(self) -> str:
        return ast.unparse(self.module) + "\n"


def parse_node_id(node_id: str) -> tuple[str, list[str], str]:
    """(file, [class..., function], parameter id) of ``tests/t.py::C::test_x[a-b]``."""
    path, _, rest = node_id.partition("::")
    param = ""
    if rest.endswith("]") and "[" in rest:
        rest, _, param = rest[:-1].partition("[")
    return path, [p for p in rest.split("::") if p], param


def call_line(chain: Sequence[str], test_file: str) -> int:
    """The line of the first chain frame in the test file: where the test called into the library."""
    for frame in chain:
        where = frame.rsplit(" (", 1)[-1].rstrip(")")
        path, _, line = where.rpartition(":")
        if path.endswith(test_file) or test_file.endswith(path):
            try:
                return int(line)
            except ValueError:
                return 0
    return 0


def _find(tree: ast.Module, names: list[str]) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, ast.ClassDef | None,
                                                    list[ast.ClassDef]]:
    """(the test function, its class as the node id names it, the classes of the module that class inherits
    from, nearest first).  A method a base class defines is the subclass's test too (unittest collects it
    under the subclass's name), and the bases' decorators set it up as well."""
    body: list[ast.stmt] = tree.body
    cls: ast.ClassDef | None = None
    for n in names[:-1]:
        found = next((s for s in body if isinstance(s, ast.ClassDef) and s.name == n), None)
        if found is None:
            raise NotDistillable(f"class {n} not found")
        cls, body = found, found.body
    bases = module_bases(tree, cls) if cls is not None else []
    owners = [o.body for o in [cls, *bases] if o is not None] or [body]
    fn = next((f for b in owners for f in b if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
               and f.name == names[-1]), None)
    for b in owners if fn is None else []:  # a method absl's parameterized generated (testFoo3): the longest prefix
        defs = [s for s in b if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                and names[-1].startswith(s.name) and (s.decorator_list or (cls and cls.decorator_list))]
        fn = max(defs, key=lambda s: len(s.name), default=None)
        if fn is not None:
            break
    if fn is None:
        raise NotDistillable(f"test function {names[-1]} not found")
    return fn, cls, bases


def _is_doc(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _self_check(stmt: ast.stmt) -> bool:
    """``self.assertEqual(...)``, ``self.fail(...)``: a unittest check, not a step toward the call."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    f = stmt.value.func
    return (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self"
            and (f.attr.startswith("assert") or f.attr == "fail"))


def _as_call(stmt: ast.Assert) -> ast.stmt:
    """``assert f(x) == y`` raising inside ``f``: the statement a user runs is ``f(x)``."""
    test = stmt.test
    if isinstance(test, ast.Compare) and any(isinstance(n, ast.Call) for n in ast.walk(test.left)):
        test = test.left
    elif isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    return ast.copy_location(ast.Expr(test), stmt)


def _global_reads(stmts: Sequence[ast.stmt]) -> set[str]:
    """Names read inside functions the test defines: an assignment before the call may feed them."""
    out: set[str] = set()
    for s in stmts:
        for n in ast.walk(s):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                out |= used_names([n])
    return out


def _expect_block(stmt: ast.stmt) -> bool:
    return isinstance(stmt, (ast.With, ast.AsyncWith)) and all(_expectation(i) for i in stmt.items)


def _only_needed(stmt: ast.stmt, want: set[str]) -> ast.stmt:
    """An import with only the names the script uses (``from jax import jit, vmap`` -> ``... import jit``)."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)) and len(stmt.names) > 1:
        keep = [a for a in stmt.names if (a.asname or a.name).split(".")[0] in want]
        c = copy.copy(stmt)
        c.names = keep or stmt.names
        return c
    return stmt


def mutates(stmt: ast.stmt) -> bool:
    """``obj.attr = v`` / ``obj[k] = v``: changes an object the test may use through another name."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
        stmt, (ast.AnnAssign, ast.AugAssign)) else []
    return any(isinstance(t, (ast.Attribute, ast.Subscript)) for t in targets)


def _registers(stmt: ast.stmt, needed: set[str], local: set[str]) -> bool:
    """A def or class whose decorator reads a needed object the test made (``@cli.command()``):
    it registers itself there."""
    decorators = getattr(stmt, "decorator_list", [])
    return bool(decorators) and bool(used_names(decorators) & needed & local)


def prune(stmts: Sequence[ast.stmt], raising: ast.stmt, later: set[str],
          aliases: Mapping[str, tuple[str, int]] | None = None) -> list[ast.stmt]:
    """A backward slice: the test's checks (``assert``, docstrings, calls of an ``assertRaises`` alias)
    go, and an assignment, def or class whose names nothing after it reads; blocks keep what is left
    of their bodies.  The raising statement stays (an ``assert`` around it becomes the bare
    expression, an expectation the call it expects to raise)."""
    aliases = aliases or {}
    out: list[ast.stmt] = []
    needed = set(later)
    local = {name for st in stmts for n in ast.walk(st) if isinstance(n, ast.stmt) for name in _bound(n)}
    for stmt in reversed(stmts):
        if stmt is raising:
            kept: ast.stmt = _as_call(stmt) if isinstance(stmt, ast.Assert) else _expect_call(stmt, aliases)
        elif any(n is raising for n in ast.walk(stmt)) and isinstance(stmt, (ast.With, ast.AsyncWith, ast.For,
                                                                             ast.AsyncFor, ast.While, ast.If)):
            c = copy.copy(stmt)
            c.body = prune(stmt.body, raising, needed, aliases)
            kept = c
        elif isinstance(stmt, (ast.Assert, ast.Pass)) or _is_doc(stmt) or _expect_block(stmt) or _self_check(stmt) \
                or is_expectation(stmt, aliases) or (
                isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                  ast.Import, ast.ImportFrom)) and not (_bound(stmt) & needed)
                and not mutates(stmt)
                and not _registers(stmt, needed, local)):
            continue
        elif isinstance(stmt, (ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While, ast.If)):
            c = copy.copy(stmt)
            c.body = prune(stmt.body, raising, needed, aliases)
            if isinstance(stmt, ast.If) and isinstance(c, ast.If):
                c.orelse = prune(stmt.orelse, raising, needed, aliases)
            if not c.body and not getattr(c, "orelse", None):
                continue
            if not c.body:
                c.body = [ast.Pass()]
            kept = c
        else:
            kept = _unexpected(stmt) if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) else stmt
        out.append(kept)
        needed |= used_names([kept])
    out.reverse()
    return out


class _Unwrap(ast.NodeTransformer):
    def visit_With(self, node: ast.With) -> ast.AST | list[ast.stmt]:
        self.generic_visit(node)
        return list(node.body) if _expect_block(node) else node


def _unexpected(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.stmt:
    """A function the test defines (and hands to the library) with the expectation blocks in its body
    unwrapped: ``with self.assertRaisesRegex(AttributeError, ...): x.sharding`` inside a jitted ``f``
    caught the error where the library traced ``f``; a user's ``f`` lets it escape."""
    if not any(_expect_block(n) for n in ast.walk(fn) if isinstance(n, ast.With)):
        return fn
    out = _Unwrap().visit(copy.deepcopy(fn))
    assert isinstance(out, (ast.FunctionDef, ast.AsyncFunctionDef))
    return out


def used_names(nodes: Sequence[ast.AST]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _bound(stmt: ast.stmt) -> set[str]:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return set()


def _is_fixture(fn: ast.stmt) -> bool:
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for d in fn.decorator_list:
        f = d.func if isinstance(d, ast.Call) else d
        if (isinstance(f, ast.Attribute) and f.attr == "fixture") or (isinstance(f, ast.Name) and f.id == "fixture"):
            return True
    return False


@dataclass
class _Module:
    tree: ast.Module

    def fixture(self, name: str) -> ast.FunctionDef | None:
        for s in self.tree.body:
            if isinstance(s, ast.FunctionDef) and _is_fixture(s) and s.name == name:
                return s
        return None

    def defs(self) -> list[ast.stmt]:
        return [s for s in self.tree.body if _bound(s) and not _is_fixture(s)
                and not (isinstance(s, (ast.FunctionDef, ast.ClassDef)) and s.name.lower().startswith("test"))]


def _fixture_stmts(fn: ast.FunctionDef, name: str) -> list[ast.stmt]:
    """The fixture's statements with its value bound to ``name``; teardown after ``yield`` dropped."""
    out: list[ast.stmt] = []
    for s in fn.body:
        value: ast.expr | None = None
        if isinstance(s, ast.Return):
            value = s.value
        elif isinstance(s, ast.Expr) and isinstance(s.value, (ast.Yield, ast.YieldFrom)):
            value = s.value.value
        elif isinstance(s, ast.With) and any(isinstance(x, ast.Expr) and isinstance(x.value, ast.Yield) for x in s.body):
            raise NotDistillable(f"fixture {name} yields inside a with block")
        else:
            if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant):
                continue  # docstring
            out.append(s)
            continue
        if value is None:
            raise NotDistillable(f"fixture {name} has no value")
        out.append(ast.Assign(targets=[ast.Name(name, ast.Store())], value=value, lineno=0))
        return out
    raise NotDistillable(f"fixture {name} has no return or yield")


def expected_line(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The first statement of the test's first ``with pytest.raises(...)`` / ``self.assertRaises*(...)``
    block (0 when none): where the test expects the raise, for a chain recorded without the test's frame
    (the error raised in a thread the library runs a callback in, so its stack starts there)."""
    for node in ast.walk(fn):
        if isinstance(node, (ast.With, ast.AsyncWith)) and node.body:
            for item in node.items:
                f = item.context_expr.func if isinstance(item.context_expr, ast.Call) else None
                name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                if "raises" in name.lower():
                    return node.body[0].lineno
    return 0


def distill(project: Path, node_id: str, chain: Sequence[str], rewrite: Rewrite | None = None) -> list[Distilled]:
    """Scripts for the test ``node_id`` (one per plausible parameter binding), best first."""
    rel, names, param = parse_node_id(node_id)
    path = project / rel
    if not names or not path.is_file():
        raise NotDistillable(f"test file {rel} not in the observed workspace")
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except SyntaxError as exc:
        raise NotDistillable(f"test file does not parse: {exc}") from None
    fn, cls, inherited = _find(tree, names)
    line = call_line(chain, rel) or expected_line(fn)
    if not line:
        raise NotDistillable("no test frame in the recorded chain")
    sliced = slice_body(fn.body, line)
    if sliced is None:
        raise NotDistillable(f"line {line} is not in {names[-1]}'s body")
    stmts, raising = sliced
    through = through_helper(tree, chain, rel, raising)
    if through is not None:  # the test's helper expects the raise: its raising statement, arguments bound
        stmts = _replace(stmts, raising, through)
        raising = through
    stmts = prune(stmts, raising, _global_reads(stmts), expect_aliases(fn.body))
    if rewrite is not None:
        rewritten = rewrite(stmts)
        if rewritten is None:
            raise NotDistillable("the harness call could not be rewritten into a direct call")
        stmts = rewritten
    instance: list[ast.stmt] = []
    if "self" in used_names(stmts):
        if cls is None:
            raise NotDistillable("the test uses self outside a class")
        instance = test_instance(cls)
    confs = [_Module(ast.parse(c.read_text(encoding="utf-8", errors="replace")))
             for c in _conftests(project, path)]
    modules = [_Module(tree), *confs]
    args = [a.arg for a in fn.args.args if a.arg != "self"]
    out: list[Distilled] = []
    generated = absl_binding(fn, names[-1], cls) if fn.name != names[-1] else None
    if fn.name != names[-1] and generated is None:
        raise NotDistillable(f"the parameters of the generated test {names[-1]} are not literal cases")
    consts = {st.targets[0].id: st.value for st in tree.body if isinstance(st, ast.Assign)
              and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)}
    every = bindings(fn, param, cls, exact_first=True, consts=consts) if generated is None else [generated]
    # the class decorators from the farthest base to the test's class, then the method's: a later setting
    # wins, as a subclass's and a method's own configuration do when unittest runs the test
    setup = decorator_setup([*(d for b in reversed(inherited) for d in b.decorator_list),
                             *(cls.decorator_list if cls is not None else []), *fn.decorator_list])
    for binding in ([generated] if generated is not None else bindings(fn, param, cls, consts=consts)[:6]):
        others: dict[str, list[ast.expr]] = {}
        for b in every:
            for k, v in b.items():
                if ast.dump(v) != ast.dump(binding.get(k, v)) and all(ast.dump(v) != ast.dump(x)
                                                                       for x in others.get(k, [])):
                    others.setdefault(k, []).append(v)
        out.append(_assemble(modules, stmts, raising, binding, args, line, node_id, others, instance, setup))
    return out


def _conftests(project: Path, test: Path) -> list[Path]:
    out: list[Path] = []
    d = test.parent
    root = project.resolve()
    while True:
        c = d / "conftest.py"
        if c.is_file():
            out.append(c)
        if d.resolve() == root or d.parent == d:
            break
        d = d.parent
    return out


def _assemble(modules: list[_Module], stmts: list[ast.stmt], raising: ast.stmt, binding: dict[str, ast.expr],
              args: list[str], line: int, node_id: str, others: dict[str, list[ast.expr]],
              instance: Sequence[ast.stmt] = (), setup: Setup = Setup()) -> Distilled:
    prelude: list[ast.stmt] = [copy.deepcopy(s) for s in [*instance, *setup.statements]]
    own = {name for s in instance for name in _bound(s)}
    params: list[ast.stmt] = []
    extra_imports: list[str] = list(setup.imports)
    needed = used_names(stmts)
    fixtures_done: set[str] = set()

    def add_fixture(name: str, depth: int = 0) -> None:
        if name in fixtures_done or depth > 5:
            return
        fixtures_done.add(name)
        if name in BUILTIN_FIXTURES:
            imp, expr = BUILTIN_FIXTURES[name]
            extra_imports.append(imp)
            prelude.append(ast.parse(f"{name} = {expr}").body[0])
            return
        for m in modules:
            fx = m.fixture(name)
            if fx is None:
                continue
            for a in fx.args.args:
                if a.arg in used_names(fx.body):
                    if a.arg == "request":
                        raise NotDistillable(f"fixture {name} reads pytest's request")
                    add_fixture(a.arg, depth + 1)
            prelude.extend(_fixture_stmts(fx, name))
            return
        raise NotDistillable(f"fixture {name} not found")

    for a in args:
        if a not in needed or a in setup.gives:
            continue
        if a in binding:
            assign = ast.Assign(targets=[ast.Name(a, ast.Store())], value=copy.deepcopy(binding[a]), lineno=0)
            assign.errdex_param = True  # type: ignore[attr-defined]
            params.append(assign)
        else:
            add_fixture(a)
    body = [*prelude, *params, *stmts]
    # module-level imports and helpers the script uses, transitively, in source order
    defs = [(i, j, s) for i, m in enumerate(modules) for j, s in enumerate(m.defs()) if not _bound(s) & own]
    chosen: set[tuple[int, int]] = set()
    want = used_names(body)
    changed = True
    while changed:
        changed = False
        for i, j, s in defs:
            if (i, j) not in chosen and _bound(s) & want:
                chosen.add((i, j))
                want |= used_names([s])
                changed = True
    header = [_only_needed(s, want) for i, j, s in defs if (i, j) in chosen]
    header = [*header[:0], *sorted(header, key=lambda s: not isinstance(s, (ast.Import, ast.ImportFrom)))]
    imports = [ast.parse(x).body for x in dict.fromkeys(extra_imports)]
    lead: list[ast.stmt] = []
    for st in [*[x for b in imports for x in b], *header]:
        if not (isinstance(st, (ast.Import, ast.ImportFrom)) and ast.unparse(st) in {ast.unparse(x) for x in lead}):
            lead.append(st)
    module = ast.Module(body=[*lead, *body], type_ignores=[])
    module = ast.fix_missing_locations(copy.deepcopy(module))
    raising_index = len(module.body) - 1
    focus = _focus(module, raising_index, len(module.body) - len(params) - len(stmts), len(params), line,
                   len(stmts))
    order = {id(n): i for i, n in enumerate(ast.walk(module))}
    alts = tuple((order[id(st.value)], tuple(others[st.targets[0].id][:4]))
                 for st in module.body if isinstance(st, ast.Assign) and getattr(st, "errdex_param", False)
                 and isinstance(st.targets[0], ast.Name) and st.targets[0].id in others)
    return Distilled(module=module, focus=focus, raising=raising_index, test=node_id, alternatives=alts)


def _focus(module: ast.Module, raising: int, params_start: int, n_params: int, line: int,
           n_test: int) -> tuple[int, ...]:
    """Walk indexes of the nodes a variant may change: the calls of the raising statement on the
    test's call line (else all of its calls), the parametrized values, then the calls and assigned
    values (constants and literal containers) of the test's statements before it (not fixtures or helpers)."""
    order = {id(n): i for i, n in enumerate(ast.walk(module))}
    last = module.body[raising]
    calls = [n for n in ast.walk(last) if isinstance(n, ast.Call)]
    on_line = [c for c in calls if c.lineno <= line <= (c.end_lineno or c.lineno)]
    picked: list[ast.AST] = list(on_line or calls)
    for s in module.body[params_start:params_start + n_params]:
        if isinstance(s, ast.Assign):
            picked.append(s.value)
    for s in module.body[raising - n_test + 1:raising]:
        for n in ast.walk(s):
            if isinstance(n, ast.Call) or (isinstance(n, ast.Assign) and isinstance(
                    n.value, (ast.Constant, ast.Tuple, ast.List, ast.Dict, ast.Set))):
                picked.append(n.value if isinstance(n, ast.Assign) else n)
    for s in module.body[raising:raising + 1]:  # decorators of defs nested in the raising statement
        for n in ast.walk(s):
            if isinstance(n, ast.Call) and n not in picked:
                picked.append(n)
    return tuple(dict.fromkeys(order[id(n)] for n in picked))

