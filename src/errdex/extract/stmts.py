"""Statement-level helpers of the walker: branch joins, binding targets, cheap message tests.

Kept apart from ``walker`` so that the walker module holds only the handlers;
these are pure functions of AST nodes and binding chains.
"""

from __future__ import annotations

import ast
import re

from errdex.extract import env as envmod
from errdex.extract.imports import class_like, dotted_source

Env = envmod.Env | None

MSG_NAME = re.compile(r"err|msg|message|warn|exc|fail|dedent|cleandoc", re.I)
_TERMINAL = (ast.Raise, ast.Return, ast.Continue, ast.Break)


def join(base: Env, ends: list[tuple[list[ast.stmt], Env]]) -> Env:
    """Merge branch ends; a branch whose last statement leaves (raise/return/...) does not reach the join."""
    live = [e for body, e in ends if not (body and isinstance(body[-1], _TERMINAL))]
    if not live:
        return base
    if len(live) == 1:
        return live[0]
    return envmod.merge(base, live)


def truth_tested(test: ast.expr, before: Env, joined: Env) -> Env:
    """``if parts: parts.insert(0, '')``: the join of the tested list's two branches, marked so that the
    branch taken holds only its non-empty values and the other only the empty one (Python's truth of a
    list). Without it every combination of earlier ``append``s meets both branches, which doubles them
    past the cap and keeps lists that cannot be (pykwalify's ``__str__``: 16 combinations, 8 real)."""
    positive = True
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, positive = test.operand, False
    if not isinstance(test, ast.Name) or joined is None or joined is before:
        return joined
    was, now = envmod.lookup(before, test.id), envmod.lookup(joined, test.id)
    if was is None or now is None or len(now.options) != 2 or now is was or now.tested is not None:
        return joined
    return envmod.bind(joined, test.id, envmod.Binding(options=now.options, tested=(was, positive)))


def target_names(t: ast.expr) -> list[str]:
    if isinstance(t, ast.Name):
        return [t.id]
    if isinstance(t, (ast.Tuple, ast.List)):
        return [n for e in t.elts for n in target_names(e)]
    if isinstance(t, ast.Starred):
        return target_names(t.value)
    return []


def unpacked_varargs(body: list[ast.stmt], vararg: str) -> tuple[tuple[str, ...], bool]:
    """``a, b, c = args[:3]`` (or ``= args``) among the first statements of a function taking ``*args``, maybe
    in a ``try`` (avro 1.12.2's ``AvroTypeException.__init__(self, *args)``, whose ``except (IndexError,
    ValueError)`` passes the arguments on as they are): the names, each the argument at its position on the
    paths after it, and whether more arguments than names may be passed (a slice).  Empty otherwise."""
    for stmt in body[:3]:
        for s in (stmt, *(stmt.body[:1] if isinstance(stmt, ast.Try) else ())):
            if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Tuple)):
                continue
            names = [e.id for e in s.targets[0].elts if isinstance(e, ast.Name)]
            if len(names) != len(s.targets[0].elts) or not names:
                continue
            v = s.value
            if isinstance(v, ast.Name) and v.id == vararg:
                return tuple(names), False
            if isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name) and v.value.id == vararg \
                    and isinstance(v.slice, ast.Slice) and v.slice.lower is None and v.slice.step is None \
                    and isinstance(v.slice.upper, ast.Constant) and v.slice.upper.value == len(names):
                return tuple(names), True
    return (), False


def bind_opaque(env: Env, target: ast.expr, loop: bool = False) -> Env:
    for n in target_names(target):
        env = envmod.bind(env, n, envmod.Binding(loop_target=loop))
    return env


def child_bodies(node: ast.stmt) -> list[list[ast.stmt]]:
    out: list[list[ast.stmt]] = []
    for name in ("body", "orelse", "finalbody"):
        sub = getattr(node, name, None)
        if sub:
            out.append(sub)
    for h in getattr(node, "handlers", ()):
        out.append(h.body)
    return out


def param_defaults(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[ast.arg, ast.expr]]:
    """Each parameter that has a default, with it: the last positional ones (``a.defaults`` lines up with the end
    of the positional parameters), then the keyword-only ones given a default."""
    a = fn.args
    positional = [*a.posonlyargs, *a.args]
    pairs = list(zip(positional[len(positional) - len(a.defaults):], a.defaults, strict=True))
    pairs += [(k, d) for k, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None]
    return pairs


def is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


# methods Python binds to the class without a decorator: ``__new__`` (a static method handed the class first)
# and the implicit class methods ``__init_subclass__`` and ``__class_getitem__``
IMPLICIT_CLASS = frozenset({"__new__", "__init_subclass__", "__class_getitem__"})


def classmethod_alias(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """The first parameter of a ``@classmethod`` or of a method Python hands the class first (``IMPLICIT_CLASS``:
    ``def __new__(cls, value)``), or "" for any other function (the caller knows it is a method)."""
    a = node.args
    first = [*a.posonlyargs, *a.args][:1]
    if first and (node.name in IMPLICIT_CLASS
                  or any(isinstance(d, ast.Name) and d.id == "classmethod" for d in node.decorator_list)):
        return first[0].arg
    return ""


def message_like(node: ast.expr, env: Env, depth: int = 0, alias: str = "") -> bool:
    """A cheap look at a returned expression: could it be a message or an exception instance?
    ``alias``: a classmethod's ``cls``, whose call is an instance of the class."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, (ast.Add, ast.Mod))
    if isinstance(node, ast.IfExp) and depth < 3:  # `f"Literal({v})" if isinstance(v, tuple) else "Literal('%s')" % v`
        return message_like(node.body, env, depth + 1, alias) or message_like(node.orelse, env, depth + 1, alias)
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in ("format", "join", "strip", "rstrip", "lstrip"):
            return True
        d = dotted_source(f)
        if d is None:
            return False
        last = d.rsplit(".", 1)[-1]
        if last == "cast" and len(node.args) == 2 and depth < 3:  # `typing.cast(T, value)`: the value
            return message_like(node.args[1], env, depth + 1, alias)
        return last[:1].isupper() or bool(MSG_NAME.search(last)) or d == "str" or (bool(alias) and d == alias) \
            or (isinstance(f, ast.Name) and held_classes(f.id, env))
    if isinstance(node, ast.Name) and depth < 3:
        b = envmod.lookup(env, node.id)
        if b is None:
            return False
        if b.options:
            return any(o is not None and o.value is not None and message_like(o.value, o.env, depth + 1, alias)
                       for o in b.options)
        return b.value is not None and message_like(b.value, b.env, depth + 1, alias)
    return False



def held_classes(name: str, env: Env) -> bool:
    """Whether a local holds a class on every path that binds it (``exc = GithubException.GithubException``, then
    ``exc = GithubException.UnknownObjectException`` under an ``if``): its call, returned, is an instance."""
    b = envmod.lookup(env, name)
    if b is None:
        return False
    bindings = [o for o in b.options] if b.options else [b]
    return bool(bindings) and all(
        o is not None and o.value is not None and (d := dotted_source(o.value)) is not None and class_like(d)
        for o in bindings)


def returned_instance(node: ast.expr, env: Env, params: frozenset[str], depth: int = 0) -> tuple[ast.expr, Env]:
    """The constructor call a returned expression stands for, with the bindings it was evaluated in:
    a local assigned one call (``e = ParsingError(fpname)``, then ``return e``) is that call, and
    ``exc or ParsingError(fpname)`` with ``exc`` a parameter is the call it makes when the caller passed
    none (configupdater's ``_handle_error``, whose caller raises the instance it accumulates).  Anything
    else is ``node`` itself: a helper returning its parameter returns the caller's own instance."""
    if depth < 3 and isinstance(node, ast.Name):
        b = envmod.lookup(env, node.id)
        if b is not None and not b.options and isinstance(b.value, ast.Call | ast.BoolOp):
            return returned_instance(b.value, b.env, params, depth + 1)
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and isinstance(node.values[-1], ast.Call) \
            and all(isinstance(v, ast.Name) and v.id in params for v in node.values[:-1]):
        return node.values[-1], env
    return node, env


def message_arg(node: ast.expr) -> bool:
    """A call argument that may be a message, by its shape alone (the test for recording a call):
    literal text with a space in it, an f-string, ``+``/``%``/``.format`` text, or a name like a
    message's (``msg``, ``error_message``...)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and " " in node.value
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Name):
        return bool(MSG_NAME.search(node.id))
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, (ast.Add, ast.Mod))
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            return True
        if isinstance(node.func, ast.Attribute) and node.func.attr == "join" and isinstance(node.func.value, ast.Constant) \
                and isinstance(node.func.value.value, str) and len(node.args) == 1:
            return True  # `self.__error("".join(msg_parts))` (suds' argparser): the parts' text
        # an exception built with a message, handed to a helper that raises it (`collector.error(
        # ConfigurationError(msg, key=k))` ... `def error(self, error): raise error`)
        written = dotted_source(node.func)
        return written is not None and class_like(written) and passes_message(node)
    return False


def passes_message(call: ast.Call) -> bool:
    """Whether a call's arguments hold one that may be a message (``message_arg``)."""
    for x in call.args:
        if message_arg(x):
            return True
    return any(k.arg is not None and message_arg(k.value) for k in call.keywords)


def returns_message(body: list[ast.stmt], alias: str = "") -> bool:
    """Statement-level scan (no expression walk) for a return that looks like a message
    (or, in a classmethod whose first parameter is ``alias``, an instance of its class, or a local
    assigned one: ``e = exc or ParsingError(fpname)`` ... ``return e``)."""
    stack = list(body)
    built: set[str] = set()  # locals assigned an instance-like call (or `x or Call(...)`), in any order
    returned: set[str] = set()
    classes: set[str] = set()  # locals assigned a class (``exc = errors.NotFound``), called where returned
    called: set[str] = set()
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            a = node.value
            last = a.values[-1] if isinstance(a, ast.BoolOp) and isinstance(a.op, ast.Or) else a
            if isinstance(last, ast.Call) and message_like(last, None, alias=alias):
                built.add(node.targets[0].id)
            elif (d := dotted_source(a)) is not None and class_like(d):
                classes.add(node.targets[0].id)
        elif isinstance(node, ast.Return):
            v = node.value
            if v is not None and (message_like(v, None, alias=alias)
                                  or (isinstance(v, ast.Name) and MSG_NAME.search(v.id))):
                return True
            if isinstance(v, ast.Name):
                returned.add(v.id)
            elif isinstance(v, ast.Call) and isinstance(v.func, ast.Name):
                called.add(v.func.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        else:
            for sub in child_bodies(node):
                stack.extend(sub)
            for c in getattr(node, "cases", ()):
                stack.extend(c.body)
    return bool(built & returned) or bool(classes & called)
