"""Options an exception class pops from its keywords: the ``__str__`` branch a raise without them prints.

doit 0.37's ``InvalidCommand.__init__(self, *args, **kwargs)`` keeps ``self.not_found =
kwargs.pop('not_found', None)`` and passes the rest on with ``super().__init__(*args, **kwargs)``; its
``__str__`` returns ``super().__str__()`` when ``self.not_found is None``, else a text about the task not
found.  zeep 4.3's ``ValidationError`` keeps ``self.path = kwargs.pop("path", [])`` and prints
``"%s (%s)" % (self.message, path)`` when ``self.path`` is not empty, else ``self.message``.  A raise that
does not pass the option (``raise InvalidCommand(msg % task_name)``) leaves the attribute at its default, so
the test on it is decided: ``is None``, ``is not None``, ``==``/``!=`` a literal, the truth of
``[]``/``None``/``""``/``0`` and ``not``/``and``/``or`` of those.

``pruned_str`` reads the class's ``__init__`` for such options (``self.<a> = kwargs.pop('<k>', <literal>)``,
``kwargs.get`` alike, or ``self.<a> = <p>`` of a parameter with a literal default) that no other method of the
class and no ``<x>.<a> = ...`` of the module assigns again (doit's ``err.cmd_used = ...`` after the raise keeps
every branch on ``cmd_used``, as round 43's class texts that change after the raise do), then walks the
``__str__`` statement by statement: an ``if`` whose test the defaults decide keeps the branch they select,
a local assigned a literal (``location = None``) is known until an undecided branch assigns it, anything else
is left as it is.  The copy, walked just before the ``__str__`` it stands for, is kept apart (``ClassSummary.
str_default``); ``classmessage.class_message``
prints it for a raise that passes none of the option keys (nor the parameters positionally), and every
branch otherwise.
"""

from __future__ import annotations

import ast
import copy
import weakref
from dataclasses import dataclass

from errdex.extract import astwalk
from errdex.extract.factories import PACK
from errdex.extract.ir import Hole, Node, Param, Ref
from errdex.extract.tables import Tables

_UNKNOWN = object()
_POPS = frozenset({"pop", "get"})


@dataclass(frozen=True, slots=True)
class Option:
    attr: str  # the attribute of ``self`` it sets
    key: str  # the keyword a raise passes to set it
    position: int  # the parameter's position after ``self`` (-1: keyword only, popped from ``**kwargs``)
    default: object


def options(cls: ast.ClassDef, tree: ast.Module) -> dict[str, Option]:
    """The attributes the class's ``__init__`` sets from an option with a literal default, each assigned
    once there and nowhere else in the class or (through another name) in the module."""
    init = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None:
        return {}
    a = init.args
    positional = [*a.posonlyargs, *a.args][1:]
    pairs = list(zip(positional[len(positional) - len(a.defaults):], a.defaults, strict=True))
    pairs += [(k, d) for k, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None]
    params: dict[str, tuple[int, ast.expr]] = {
        arg.arg: ([p.arg for p in positional].index(arg.arg) if arg in positional else -1, d) for arg, d in pairs}
    varkw = a.kwarg.arg if a.kwarg is not None else None
    found: dict[str, Option] = {}
    assigned: dict[str, int] = {}
    for n in ast.walk(init):
        for t in _targets(n):
            if _self_attr(t) is not None:
                assigned[t.attr] = assigned.get(t.attr, 0) + 1  # type: ignore[attr-defined]
    for stmt in init.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
            continue
        attr = _self_attr(stmt.targets[0])
        if attr is None:
            continue
        v = stmt.value
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in _POPS \
                and isinstance(v.func.value, ast.Name) and v.func.value.id == varkw and len(v.args) == 2 \
                and not v.keywords and isinstance(v.args[0], ast.Constant) and isinstance(v.args[0].value, str):
            value = _literal(v.args[1])
            if value is not _UNKNOWN:
                found[attr] = Option(attr, v.args[0].value, -1, value)
        elif isinstance(v, ast.Name) and v.id in params:
            value = _literal(params[v.id][1])
            if value is not _UNKNOWN:
                found[attr] = Option(attr, v.id, params[v.id][0], value)
    elsewhere = _assigned_elsewhere(cls, tree)
    if "*" in elsewhere:
        return {}
    return {k: o for k, o in found.items() if assigned.get(k) == 1 and k not in elsewhere}


def pruned_str(cls: ast.ClassDef, tree: ast.Module) -> tuple[ast.FunctionDef | None, tuple[Option, ...]]:
    """A copy of the ``__str__`` with the branches the options' defaults rule out dropped, and the options; None when no test is decided (or the method raises: its sites stay the method's)."""
    fn = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__str__"), None)
    if fn is None or any(isinstance(n, (ast.Raise, ast.Assert, ast.Yield, ast.YieldFrom)) for n in ast.walk(fn)):
        return None, ()
    opts = options(cls, tree)
    if not opts:
        return None, ()
    pruner = _Pruner(opts)
    body = pruner.block(copy.deepcopy(fn.body), {})
    if not pruner.decided or not body:
        return None, ()
    new = copy.copy(fn)
    new.body, new.decorator_list = body, []
    return new, tuple(opts.values())


def passed(opts: tuple[tuple[str, str, int], ...], args: int, keys: set[str], unknown: bool,
           set_anywhere: frozenset[str]) -> bool:
    """Whether a raise with ``args`` positional arguments and keywords ``keys`` (``unknown``: a spread whose
    keys are not known) may set one of the options, or some module sets one after the raise."""
    return unknown or "*" in set_anywhere or any(
        attr in set_anywhere or key in keys or 0 <= position < args for attr, key, position in opts)


_SET_ANYWHERE: weakref.WeakKeyDictionary[Tables, frozenset[str]] = weakref.WeakKeyDictionary()


def set_anywhere(t: Tables) -> frozenset[str]:
    """The attributes any module of the package sets through a name other than ``self``."""
    found = _SET_ANYWHERE.get(t)
    if found is None:
        found = _SET_ANYWHERE[t] = frozenset().union(*(m.set_attrs for m in t.modules.values()))
    return found


def forwards_all(cls: ast.ClassDef) -> bool:
    """The class has no ``__init__``, or its ``__init__(self, *args, **kwargs)`` hands both packs on whole to
    ``super().__init__`` (zeep's ``ValidationError`` popping ``path`` first): the base's ``__init__`` binds the
    raise's arguments, and what it keeps on ``self`` is theirs."""
    init = next((s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and s.name == "__init__"), None)
    if init is None:
        return True
    a = init.args
    if a.vararg is None or a.kwarg is None or a.args[1:] or a.posonlyargs or a.kwonlyargs:
        return False
    for n in ast.walk(init):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "__init__" \
                and isinstance(n.func.value, ast.Call) and isinstance(n.func.value.func, ast.Name) \
                and n.func.value.func.id == "super" and len(n.args) == 1 and isinstance(n.args[0], ast.Starred) \
                and isinstance(n.args[0].value, ast.Name) and n.args[0].value.id == a.vararg.arg \
                and len(n.keywords) == 1 and n.keywords[0].arg is None \
                and isinstance(n.keywords[0].value, ast.Name) and n.keywords[0].value.id == a.kwarg.arg:
            return True
    return False


def is_pack(a: Node) -> bool:
    """A positional argument spread from something whose length is not known (``*xs``)."""
    return (isinstance(a, Hole) and a.expr.startswith("*")) or (isinstance(a, Param) and a.name.startswith("*")) \
        or (isinstance(a, Ref) and a.callee == PACK)


class _Pruner:
    def __init__(self, opts: dict[str, Option]) -> None:
        self.opts = opts
        self.decided = False

    def block(self, stmts: list[ast.stmt], env: dict[str, object]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            if isinstance(stmt, ast.If):
                test = self.value(stmt.test, env)
                if test is not _UNKNOWN:
                    self.decided = True
                    out.extend(self.block(stmt.body if test else stmt.orelse, env))
                else:
                    left, right = dict(env), dict(env)
                    stmt.body = self.block(stmt.body, left) or [ast.Pass()]
                    stmt.orelse = self.block(stmt.orelse, right)
                    for name in {*left, *right, *env}:
                        if left.get(name, _UNKNOWN) is not right.get(name, _UNKNOWN) \
                                and left.get(name, _UNKNOWN) != right.get(name, _UNKNOWN):
                            env.pop(name, None)
                        elif name in left:
                            env[name] = left[name]
                    out.append(stmt)
            else:
                self.assigns(stmt, env)
                out.append(stmt)
            if out and isinstance(out[-1], (ast.Return, ast.Raise)):
                break  # the statements after a return never run
        return out

    def assigns(self, stmt: ast.stmt, env: dict[str, object]) -> None:
        """A local assigned a literal is known; any other binding of a name forgets it."""
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            value = _literal(stmt.value)
            if value is not _UNKNOWN:
                env[stmt.targets[0].id] = value
                return
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                env.pop(n.id, None)

    def value(self, e: ast.expr, env: dict[str, object]) -> object:
        """What ``e`` is when every option holds its default: a Python value, or ``_UNKNOWN``."""
        attr = _self_attr(e)
        if attr is not None:
            return self.opts[attr].default if attr in self.opts else _UNKNOWN
        if isinstance(e, ast.Name):
            return env.get(e.id, _UNKNOWN)
        if isinstance(e, ast.Constant):
            return e.value
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            v = self.value(e.operand, env)
            return _UNKNOWN if v is _UNKNOWN else not v
        if isinstance(e, ast.BoolOp):
            return self._bool(e, env)
        if isinstance(e, ast.Compare) and len(e.ops) == 1:
            left, right = self.value(e.left, env), self.value(e.comparators[0], env)
            op = e.ops[0]
            if isinstance(op, (ast.Is, ast.IsNot)) and (left is None or right is None) \
                    and _UNKNOWN not in (left, right):
                return (left is right) == isinstance(op, ast.Is)
            if isinstance(op, (ast.Eq, ast.NotEq)) and _UNKNOWN not in (left, right):
                return (left == right) == isinstance(op, ast.Eq)
        return _UNKNOWN

    def _bool(self, e: ast.BoolOp, env: dict[str, object]) -> object:
        values = [self.value(v, env) for v in e.values]
        stop = isinstance(e.op, ast.Or)  # `or` stops at a true operand, `and` at a false one
        for v in values:
            if v is _UNKNOWN:
                break
            if bool(v) == stop:
                return v
        else:
            return values[-1]
        if any(v is not _UNKNOWN and bool(v) == stop for v in values):
            return stop  # decided by a known operand whatever the unknown ones are (their truth only)
        return _UNKNOWN


def _literal(e: ast.expr) -> object:
    try:
        return ast.literal_eval(e)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _UNKNOWN


def _self_attr(e: ast.AST) -> str | None:
    if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self":
        return e.attr
    return None


def _targets(n: ast.AST) -> list[ast.expr]:
    if isinstance(n, ast.Assign):
        out = list(n.targets)
    elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
        out = [n.target]
    else:
        return []
    flat: list[ast.expr] = []
    while out:
        t = out.pop()
        if isinstance(t, (ast.Tuple, ast.List)):
            out.extend(t.elts)
        else:
            flat.append(t)
    return flat


_MUTATORS = frozenset({"append", "extend", "insert", "clear", "update", "add", "pop", "remove", "setdefault"})


def _assigned_elsewhere(cls: ast.ClassDef, tree: ast.Module) -> set[str]:
    """The attributes a method of the class other than ``__init__`` assigns or changes through ``self``, and
    those the module assigns or changes through another name (``err.cmd_used = ...``, ``setattr``)."""
    others = [s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name != "__init__"]
    return {*_sets(others, through_self=True), *outside_sets(tree)}


def outside_sets(tree: ast.AST) -> frozenset[str]:
    """The attributes the code assigns or changes through a name other than ``self`` (``err.hint = ...`` on a
    caught exception, ``err.path.append(...)``); ``"*"`` for a ``setattr`` of a name not written out.  Kept per
    module (``ModuleSummary.set_attrs``): an option any module sets after the raise is not decided."""
    return frozenset(_sets([tree], through_self=False))


def _sets(roots: list[ast.AST] | list[ast.FunctionDef | ast.AsyncFunctionDef], through_self: bool) -> set[str]:
    out: set[str] = set()
    for root in roots:
        for n in astwalk.walk(root):  # in phase 1 for every module: the faster walk, same nodes and order
            for t in _targets(n):
                if isinstance(t, ast.Attribute) and (_self_attr(t) is not None) == through_self:
                    out.add(t.attr)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _MUTATORS \
                    and isinstance(n.func.value, ast.Attribute) and (_self_attr(n.func.value) is not None) == through_self:
                out.add(n.func.value.attr)
            if not through_self and isinstance(n, ast.Call) and isinstance(n.func, ast.Name) \
                    and n.func.id == "setattr" and len(n.args) >= 2:
                name = n.args[1]
                out.add(name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else "*")
    return out
