"""After-variants that change what surrounds the call, not its arguments (parsing only).

``mutate.py`` changes the raising call's arguments.  Many errors are fixed elsewhere, and these
variants cover the usual places, each keeping every public call of the script:

- **the object used in its ``with`` block**: ``x = f(...)`` then a use of ``x`` becomes
  ``with f(...) as x:`` around the rest (an object that must be entered first, a progress bar);
- **a value set up before the call**: a number or bool assigned to an attribute before the call
  (``mock.return_value.wait.return_value = 1`` -> ``0``: the exit status a stand-in returns);
- **the configuration of what the call uses**: a parameter the site's guard reads that the
  configuring call (a decorator, a constructor, the call itself) leaves out, given a value
  (``@click.version_option(package_name=...)`` -> ``..., version='1.0'``), and a string naming a
  distribution replaced by the installed library's own (``package_name='nonexistent'`` -> the
  package proven);
- **a name that exists**: ``module.missing`` where ``module`` is one of the library's modules
  becomes the closest name the module defines (its symbols in the catalog), else its first own
  class, else the first name the package exports too;
- **one more value**: a literal list argument of the raising call given its last element again
  (``['a']`` -> ``['a', 'a']`` for an argument that takes two values);
- **the function through its wrapper**: a function of the script called bare, called through what the
  script made of it (``f_shmap = shard_map(f, ...)``: ``f(x)`` -> ``f_shmap(x)``);
- **input at the prompt**: a stand-in for a library function (``monkeypatch.setattr(...)``) left
  out, with a line given on standard input (what a user types at the prompt the stand-in aborted).

Each variant is still run and checked like any other (``engine.Prover.prove``): it is an after
only when it exits 0 without this error.
"""

from __future__ import annotations

import ast
import copy
import difflib
from collections.abc import Mapping, Sequence

from errdex.extract.imports import dotted_source
from errdex.prove.distill import Distilled, mutates, prune, used_names

MAX_RESHAPED = 16
MAX_CONFIGURATION = 8  # configuring calls x guard parameters can be many (a jax test's every call)
GUARD_VALUE = "1.0"  # a value for a parameter the guard wants set: a string that also reads as a number
STDIN_LINE = "y\n"


def _src(module: ast.Module) -> str:
    return ast.unparse(ast.fix_missing_locations(module)) + "\n"


def with_blocks(d: Distilled) -> list[tuple[str, ast.Module]]:
    """``x = f(...)`` before the raising statement, ``x`` read from there on: the rest in ``with f(...) as x:``."""
    out: list[tuple[str, ast.Module]] = []
    body = d.module.body
    for k, stmt in enumerate(body[:d.raising]):
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Call)):
            continue
        name = stmt.targets[0].id
        if name not in used_names(body[d.raising:d.raising + 1]):
            continue
        m = copy.deepcopy(d.module)
        s = m.body[k]
        assert isinstance(s, ast.Assign)
        block = ast.With([ast.withitem(s.value, ast.Name(name, ast.Store()))], m.body[k + 1:] or [ast.Pass()])
        m.body[k:] = [ast.copy_location(block, s)]
        out.append((f"{ast.unparse(stmt.value)[:50]} used in its with block", m))
    return out[-2:]  # the objects made last, nearest the call


def _flip(v: object) -> list[bool | int]:
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        return [x for x in (0, 1) if x != v]
    return []


def setup_values(d: Distilled) -> list[tuple[str, ast.Module]]:
    """A number or bool assigned to an attribute before the call, changed (``... = 1`` -> ``0``)."""
    out: list[tuple[str, ast.Module]] = []
    for k, stmt in enumerate(d.module.body[:d.raising + 1]):  # the raising block's own set-up too
        for j, inner in enumerate(ast.walk(stmt)):
            if not (isinstance(inner, ast.Assign) and mutates(inner) and isinstance(inner.value, ast.Constant)):
                continue
            for v in _flip(inner.value.value):
                m = copy.deepcopy(d.module)
                twin = list(ast.walk(m.body[k]))[j]
                assert isinstance(twin, ast.Assign) and isinstance(twin.value, ast.Constant)
                twin.value.value = v
                out.append((f"{ast.unparse(inner)[:50]} -> {v!r}", m))
    return out


def _configuring_calls(d: Distilled) -> list[int]:
    """Walk indexes of the calls that configure what the raising call uses, among the focus calls:
    the decorators of the defs and classes up to the raising statement first (a command's options),
    then the calls in the values assigned before it (``cli = Command('cli', params=[...])``).  The
    raising call's own arguments are ``mutate``'s; calls inside a def's body are the user's code."""
    focus = set(d.focus)
    order = {id(n): i for i, n in enumerate(ast.walk(d.module))}
    decorators: list[int] = []
    assigned: list[int] = []
    for stmt in d.module.body[:d.raising + 1]:
        for dec in getattr(stmt, "decorator_list", []):
            decorators += [order[id(n)] for n in ast.walk(dec) if isinstance(n, ast.Call)]
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt is not d.module.body[d.raising] and stmt.value:
            assigned += [order[id(n)] for n in ast.walk(stmt.value) if isinstance(n, ast.Call)]
    return [i for i in dict.fromkeys(decorators + assigned) if i in focus]


def _raising_calls(d: Distilled) -> list[int]:
    nodes = list(ast.walk(d.module))
    inside = {id(n) for n in ast.walk(d.module.body[d.raising])}
    return [i for i in d.focus if isinstance(nodes[i], ast.Call) and id(nodes[i]) in inside]


def configuration(d: Distilled, guard_names: Sequence[str], package: str) -> list[tuple[str, ast.Module]]:
    """A string keyword naming a distribution replaced by the library's own distribution name; a
    parameter the guard reads given a value where a configuring call leaves it out."""
    out: list[tuple[str, ast.Module]] = []
    nodes = list(ast.walk(d.module))
    dist = package.split("[")[0].strip()
    for idx in _configuring_calls(d):
        call = nodes[idx]
        assert isinstance(call, ast.Call)
        passed = {k.arg for k in call.keywords}
        if not call.keywords and not call.args:
            continue
        for j, kw in enumerate(call.keywords):
            v = kw.value
            if kw.arg is None or not (isinstance(v, ast.Constant) and isinstance(v.value, str)) \
                    or not v.value.replace("-", "_").isidentifier() or v.value == dist or "name" not in kw.arg:
                continue
            m = copy.deepcopy(d.module)
            twin = list(ast.walk(m))[idx]
            assert isinstance(twin, ast.Call)
            twin.keywords[j].value = ast.Constant(dist)
            out.append((f"{kw.arg}={v.value!r} -> {dist!r} (an installed distribution)", m))
        for name in guard_names:
            if name in passed:
                continue
            m = copy.deepcopy(d.module)
            twin = list(ast.walk(m))[idx]
            assert isinstance(twin, ast.Call)
            twin.keywords.append(ast.keyword(name, ast.Constant(GUARD_VALUE)))
            out.append((f"with {name}={GUARD_VALUE!r}", m))
    return out[:MAX_CONFIGURATION]


def one_more(d: Distilled) -> list[tuple[str, ast.Module]]:
    """A literal list argument of the raising call given its last element once more (a value that an
    option or argument taking several still needs)."""
    out: list[tuple[str, ast.Module]] = []
    nodes = list(ast.walk(d.module))
    for idx in _raising_calls(d):
        call = nodes[idx]
        assert isinstance(call, ast.Call)
        for j, a in enumerate(call.args):
            if isinstance(a, ast.List) and a.elts and isinstance(a.elts[-1], ast.Constant):
                m = copy.deepcopy(d.module)
                twin = list(ast.walk(m))[idx]
                assert isinstance(twin, ast.Call)
                box = twin.args[j]
                assert isinstance(box, ast.List)
                box.elts.append(copy.deepcopy(a.elts[-1]))
                out.append((f"{ast.unparse(a)[:40]} with {a.elts[-1].value!r} once more", m))
    return out


def through_wrapper(d: Distilled) -> list[tuple[str, ast.Module]]:
    """A function of the script called bare in the raising statement, called through what the script
    made of it before (``f_shmap = shard_map(f, ...)`` then ``f(x)`` -> ``f_shmap(x)``): code that
    must run under the wrapper (a collective outside its mapped context) is called as the script set
    it up to be."""
    out: list[tuple[str, ast.Module]] = []
    defs = {s.name for s in d.module.body[:d.raising] if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    wrappers: dict[str, str] = {}  # function -> the name the script bound its wrapped form to (the last)
    for s in d.module.body[:d.raising]:
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and isinstance(s.value, ast.Call) and s.value.args and isinstance(s.value.args[0], ast.Name) \
                and s.value.args[0].id in defs:
            wrappers[s.value.args[0].id] = s.targets[0].id
    nodes = list(ast.walk(d.module.body[d.raising]))
    for j, n in enumerate(nodes):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in wrappers:
            m = copy.deepcopy(d.module)
            twin = list(ast.walk(m.body[d.raising]))[j]
            assert isinstance(twin, ast.Call) and isinstance(twin.func, ast.Name)
            twin.func = ast.Name(wrappers[n.func.id], ast.Load())
            out.append((f"{n.func.id}(...) called as {wrappers[n.func.id]}(...), the wrapper made of it above", m))
    return out


def _module_names(module: ast.Module, symbols: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """Script name -> the library module it stands for (imports, and ``m = pkg.mod`` assignments)."""
    names: dict[str, str] = {}
    for stmt in module.body:
        if isinstance(stmt, ast.Import):
            for a in stmt.names:
                if a.asname and a.name in symbols:
                    names[a.asname] = a.name
                elif not a.asname:
                    names[a.name.split(".")[0]] = a.name.split(".")[0]
        elif isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level:
            for a in stmt.names:
                full = f"{stmt.module}.{a.name}"
                if full in symbols:
                    names[a.asname or a.name] = full
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            target = _resolve(stmt.value, names)
            if target in symbols:
                names[stmt.targets[0].id] = target
    return names


def _resolve(node: ast.expr, names: Mapping[str, str]) -> str:
    dotted = dotted_source(node)
    if not dotted:
        return ""
    head, _, rest = dotted.partition(".")
    if head not in names:
        return ""
    return f"{names[head]}.{rest}" if rest else names[head]


def module_of(module: ast.Module, node: ast.expr, symbols: Mapping[str, tuple[str, ...]]) -> str:
    """The library module ``node`` stands for in the script ``module`` (``m`` after ``m = pkg.mod``), or ""."""
    return _resolve(node, _module_names(module, symbols))


def defined_first(symbols: Mapping[str, tuple[str, ...]], classes: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Each module's names, the classes it defines itself (``classes``: qualified names) first, then
    those its top-level package exports too: a name that exists is one of the library's own rather
    than one it imports from elsewhere (``types.ModuleType``).  ``from __future__ import
    annotations`` binds no name a user reads: left out."""
    own = set(classes)
    out: dict[str, tuple[str, ...]] = {}
    for mod, names in symbols.items():
        exported = set(symbols.get(mod.split(".")[0], ()))
        keyed = sorted(((f"{mod}.{n}" not in own, n not in exported, i), n) for i, n in enumerate(names)
                       if n != "annotations")
        out[mod] = tuple(n for _, n in keyed)
    return out


def existing_names(d: Distilled, symbols: Mapping[str, tuple[str, ...]]) -> list[tuple[str, ast.Module]]:
    """``mod.missing`` in the raising statement, ``mod`` one of the library's modules and ``missing``
    none of its names: the closest name it defines (else its first public class)."""
    out: list[tuple[str, ast.Module]] = []
    names = _module_names(d.module, symbols)
    stmt = d.module.body[d.raising]
    for j, node in enumerate(ast.walk(stmt)):
        if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)):
            continue
        mod = _resolve(node.value, names)
        defined = symbols.get(mod)
        if not defined or node.attr in defined:
            continue
        public = [n for n in defined if not n.startswith("_")]
        picks = difflib.get_close_matches(node.attr, public, n=2) or public[:1]
        for name in picks:
            m = copy.deepcopy(d.module)
            twin = list(ast.walk(m.body[d.raising]))[j]
            assert isinstance(twin, ast.Attribute)
            twin.attr = name
            out.append((f"{mod}.{node.attr} -> {mod}.{name} (a name the module defines)", m))
    return out


def _stand_in(stmt: ast.stmt) -> bool:
    """``monkeypatch.setattr(...)`` / ``mock.patch.object(...).start()``: a library function replaced."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    f = stmt.value.func
    return isinstance(f, ast.Attribute) and f.attr == "setattr" and not (
        isinstance(f.value, ast.Name) and f.value.id in ("builtins", "object"))


def without_stand_ins(d: Distilled) -> Distilled | None:
    """The script with the stand-ins before the raising statement left out (``monkeypatch.setattr(...)``
    and what only they used), when it has any: the library's own behaviour, which a user meets, if it
    still raises this error (the engine tries it before the test's own script)."""
    drop = {id(s) for s in d.module.body[:d.raising] if _stand_in(s)}
    if not drop:
        return None
    memo: dict[int, object] = {}
    m = copy.deepcopy(d.module, memo)
    raising = memo[id(d.module.body[d.raising])]
    assert isinstance(raising, ast.stmt)
    kept = [c for s in d.module.body if id(s) not in drop and isinstance(c := memo[id(s)], ast.stmt)]
    m.body = prune(kept, raising, set())
    if raising not in m.body:
        return None
    order = {id(n): i for i, n in enumerate(ast.walk(m))}
    old = list(ast.walk(d.module))
    focus = tuple(order[id(memo[id(old[i])])] for i in d.focus if id(old[i]) in memo and id(memo[id(old[i])]) in order)
    return Distilled(module=m, focus=focus, raising=m.body.index(raising), test=d.test)


def prompt_input(d: Distilled) -> list[tuple[str, ast.Module]]:
    """Each stand-in before the call left out, a line given on standard input instead."""
    out: list[tuple[str, ast.Module]] = []
    for k, stmt in enumerate(d.module.body[:d.raising]):
        if not _stand_in(stmt):
            continue
        m = copy.deepcopy(d.module)
        feed = ast.parse(f"import io, sys\nsys.stdin = io.StringIO({STDIN_LINE!r})").body
        m.body[k:k + 1] = [ast.copy_location(s, stmt) for s in feed]
        out.append((f"without {ast.unparse(stmt)[:50]}, {STDIN_LINE!r} on standard input", m))
    return out


def reshaped(d: Distilled, guard_names: Sequence[str] = (), package: str = "",
             symbols: Mapping[str, tuple[str, ...]] | None = None) -> list[tuple[str, str]]:
    """(why, source) of the after-variants above, without duplicates, at most ``MAX_RESHAPED``."""
    seen = {d.source}
    out: list[tuple[int, int, str, str]] = []  # (rank within its kind, order, why, source)
    groups = (with_blocks(d), setup_values(d), configuration(d, guard_names, package),
              existing_names(d, symbols or {}), prompt_input(d), one_more(d), through_wrapper(d))
    for group in groups:  # one of each kind first, so a long list of one kind does not crowd out the others
        rank = 0
        for why, m in group:
            src = _src(m)
            if src not in seen:
                seen.add(src)
                out.append((rank, len(out), why, src))
                rank += 1
    out.sort()
    return [(why, src) for _, _, why, src in out[:MAX_RESHAPED]]
