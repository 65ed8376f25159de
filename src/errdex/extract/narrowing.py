"""Narrowing by an earlier dispatch: the values that can reach a dispatch's fall-through raise.

A function that walks the same items twice, each time dispatching on their type, raises in the
second loop's fall-through only for what the first loop let through and the second does not
handle::

    for t in transforms:                 # the read loop: its fall-through raises,
        match t:                         # so only A, B and C get past it
            case A(): ...
            case B(): ...
            case C(): ...
            case _: raise NotImplementedError(t)
    for x, t in reversed(zip(xs, transforms)):   # the write loop, over the same items
        if isinstance(t, A): ...
        else: raise NotImplementedError(t)       # reached only by a B or a C

The second raise gets a guard of kind ``narrowed``: its ``normalized`` condition is
``isinstance(t, (B, C))`` (the first loop's handled types minus the second's), its ``source``
the first loop's ``isinstance(t, (A, B, C))``, its line the first dispatch's.  Values work the
same way (``==``/``in`` constants, ``case "x":``).  Only what the code proves counts: the first
dispatch is the first statement of its loop's body (nothing can ``continue`` past it), its
fall-through raises, no ``break`` leaves that loop, and the items (a name) are not assigned
between the loops.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from errdex.model import Guard

_WRAPPERS = frozenset({"reversed", "list", "tuple", "sorted", "iter"})


@dataclass(frozen=True, slots=True)
class Dispatch:
    """One exhaustive dispatch on a loop's item: what it handles, and its fall-through raise."""

    subject: str  # the loop variable the dispatch tests
    kind: str  # "type" or "value"
    handled: tuple[str, ...]  # source text of each handled type or value, in source order
    raise_node: ast.Raise
    line: int  # the dispatch's first line
    passes: tuple[str, ...] | None = None  # what gets past it, when not every handled branch does (None: handled)

    @property
    def through(self) -> tuple[str, ...]:
        return self.handled if self.passes is None else self.passes


def narrowed_guards(func: ast.FunctionDef | ast.AsyncFunctionDef, lines: Sequence[str] | None = None) -> dict[int, Guard]:
    """``id(raise node)`` -> the ``narrowed`` guard of each fall-through raise an earlier loop narrows.
    ``lines`` (the module's source lines) let a function without two ``for`` lines and a ``raise`` be skipped unparsed."""
    if lines is not None and not _loops_twice(lines[func.lineno - 1:func.end_lineno or func.lineno]):
        return {}
    out: dict[int, Guard] = {}
    for block in _blocks(func.body):
        loops = [n for n in block if isinstance(n, (ast.For, ast.AsyncFor))]
        if len(loops) >= 2:
            out.update(_narrowed_in(func, loops))
    return out


def _narrowed_in(func: ast.FunctionDef | ast.AsyncFunctionDef, loops: list[ast.For | ast.AsyncFor]) -> dict[int, Guard]:
    """The narrowings among loops of one block: an earlier one there runs (or raises) whenever a later one runs
    (one in a branch, or in a ``try`` whose handler takes its raise, may not have)."""
    out: dict[int, Guard] = {}
    seen: list[tuple[ast.For | ast.AsyncFor, str, Dispatch]] = []  # earlier exhaustive loops: items, dispatch
    for loop in loops:
        disp = _loop_dispatch(loop)
        if disp is None:
            continue
        items = _items_of(loop.target, loop.iter, disp.subject)
        if items is None:
            continue
        for earlier, earlier_items, first in reversed(seen):
            if earlier_items != items or first.kind != disp.kind or not _strict(earlier):
                continue
            if earlier.end_lineno is None or earlier.end_lineno >= loop.lineno \
                    or _assigned_between(func, items, earlier.end_lineno, loop.lineno):
                continue
            left = tuple(h for h in first.through if h not in disp.handled)
            if left and len(left) < len(first.through):
                out[id(disp.raise_node)] = _guard(disp.subject, disp.kind, first.through, left, first.line)
            break
        seen.append((loop, items, disp))
    return out


def _loops_twice(lines: Sequence[str]) -> bool:
    fors = sum(1 for ln in lines if ln.lstrip().startswith(("for ", "async for ")))
    return fors >= 2 and any("raise " in ln for ln in lines)


def _guard(subject: str, kind: str, handled: tuple[str, ...], left: tuple[str, ...], line: int) -> Guard:
    return Guard(kind="narrowed", source=_condition(subject, kind, handled),
                 normalized=_condition(subject, kind, left), line=line)


def _condition(subject: str, kind: str, choices: tuple[str, ...]) -> str:
    if kind == "type":
        return f"isinstance({subject}, {choices[0]})" if len(choices) == 1 \
            else f"isinstance({subject}, ({', '.join(choices)}))"
    return f"{subject} == {choices[0]}" if len(choices) == 1 else f"{subject} in ({', '.join(choices)})"


def _blocks(body: list[ast.stmt]) -> list[list[ast.stmt]]:
    """The statement lists of a function body (it, and those of its nested blocks; nested defs not)."""
    out = [body]
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for name in ("body", "orelse", "finalbody"):
            out.extend(_blocks(getattr(node, name, None) or []))
        for h in getattr(node, "handlers", None) or []:
            out.extend(_blocks(h.body))
        if isinstance(node, ast.Match):
            for c in node.cases:
                out.extend(_blocks(c.body))
    return [b for b in out if b]


def _loop_dispatch(loop: ast.For | ast.AsyncFor) -> Dispatch | None:
    """The dispatch that is the first statement of the loop's body, when its fall-through raises."""
    body = [s for s in loop.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if not body:
        return None
    first = body[0]
    if isinstance(first, ast.Match):
        return _match_dispatch(first)
    if isinstance(first, ast.If):
        return _if_dispatch(first)
    return None


def _match_dispatch(node: ast.Match) -> Dispatch | None:
    if not isinstance(node.subject, ast.Name) or not node.cases:
        return None
    *cases, last = node.cases
    if not (isinstance(last.pattern, ast.MatchAs) and last.pattern.pattern is None and last.guard is None):
        return None
    raised = _raises(last.body)
    if raised is None:
        return None
    handled: list[str] = []  # every value of these is handled
    passes: list[str] = []  # some values of these get past the dispatch
    kinds: set[str] = set()
    for c in cases:
        stops = _raises(c.body) is not None  # `case A(): raise ...`: an A does not get past either
        for kind, choice in _pattern(c.pattern):
            kinds.add(kind)
            if c.guard is None and choice not in handled:
                handled.append(choice)
            if not stops and choice not in passes:
                passes.append(choice)
    if len(kinds) != 1 or not handled:
        return None
    return Dispatch(node.subject.id, kinds.pop(), tuple(handled), raised, node.lineno, tuple(passes))


def _pattern(p: ast.pattern) -> list[tuple[str, str]]:
    if isinstance(p, ast.MatchOr):
        return [x for sub in p.patterns for x in _pattern(sub)]
    if isinstance(p, ast.MatchClass) and isinstance(p.cls, (ast.Name, ast.Attribute)):
        return [("type", ast.unparse(p.cls))]
    if isinstance(p, ast.MatchValue):
        return [("value", ast.unparse(p.value))]
    if isinstance(p, ast.MatchSingleton) and p.value is not None:
        return [("value", repr(p.value))]
    return [("other", "")]


def _if_dispatch(node: ast.If) -> Dispatch | None:
    handled: list[str] = []
    kinds: set[str] = set()
    subject: str | None = None
    current: ast.If = node
    while True:
        test = _test(current.test)
        if test is None:
            return None
        name, kind, choices = test
        if subject is not None and name != subject:
            return None
        subject = name
        kinds.add(kind)
        handled.extend(c for c in choices if c not in handled)
        orelse = current.orelse
        if len(orelse) == 1 and isinstance(orelse[0], ast.If):
            current = orelse[0]
            continue
        break
    raised = _raises(orelse)
    if raised is None or subject is None or len(kinds) != 1:
        return None
    return Dispatch(subject, kinds.pop(), tuple(handled), raised, node.lineno)


def _test(node: ast.expr) -> tuple[str, str, list[str]] | None:
    """(subject, "type" or "value", choices) of ``isinstance(x, T)`` / ``x == C`` / ``x in (C, D)``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
            and len(node.args) == 2 and isinstance(node.args[0], ast.Name):
        types = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
        if types and all(isinstance(t, (ast.Name, ast.Attribute)) for t in types):
            return node.args[0].id, "type", [ast.unparse(t) for t in types]
        return None
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.left, ast.Name):
        op, right = node.ops[0], node.comparators[0]
        if isinstance(op, ast.Eq) and isinstance(right, ast.Constant):
            return node.left.id, "value", [ast.unparse(right)]
        if isinstance(op, ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)) and right.elts \
                and all(isinstance(e, ast.Constant) for e in right.elts):
            return node.left.id, "value", [ast.unparse(e) for e in right.elts]
    return None


def _raises(body: list[ast.stmt]) -> ast.Raise | None:
    """The raise a fall-through block ends in, when nothing before it can leave the block another way."""
    if not body or not isinstance(body[-1], ast.Raise) or body[-1].exc is None:
        return None
    for s in body[:-1]:
        if any(isinstance(n, (ast.Return, ast.Continue, ast.Break)) for n in ast.walk(s)):
            return None
    return body[-1]


def _items_of(target: ast.expr, it: ast.expr, subject: str) -> str | None:
    """The name of the items ``subject`` (bound by ``target``) walks: ``transforms`` for
    ``for x, t in reversed(zip(xs[:-1], transforms))`` and ``t``; None when it cannot be told."""
    while isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in _WRAPPERS \
            and len(it.args) == 1 and not it.keywords:
        it = it.args[0]
    if isinstance(target, ast.Name):
        return _name(it) if target.id == subject else None
    if not isinstance(target, ast.Tuple) or not isinstance(it, ast.Call) or not isinstance(it.func, ast.Name) \
            or it.keywords:
        return None
    slots = [e.id if isinstance(e, ast.Name) else None for e in target.elts]
    if subject not in slots:
        return None
    at = slots.index(subject)
    if it.func.id == "zip" and len(it.args) == len(slots):
        return _name(it.args[at])
    if it.func.id == "enumerate" and len(slots) == 2 and at == 1 and it.args:
        return _name(it.args[0])
    return None


def _name(node: ast.expr) -> str | None:
    """A plain name, or the name a slice of it (``xs[:-1]``) is taken from."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _strict(loop: ast.For | ast.AsyncFor) -> bool:
    """No ``break`` of this loop: every item goes through its dispatch (or the loop raises)."""
    def walk(body: list[ast.stmt]) -> bool:
        for s in body:
            if isinstance(s, ast.Break):
                return False
            if isinstance(s, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef,
                              ast.ClassDef, ast.Lambda)):
                continue  # a break in an inner loop leaves that loop only
            for name in ("body", "orelse", "finalbody"):
                if not walk(getattr(s, name, None) or []):
                    return False
            for h in getattr(s, "handlers", None) or []:
                if not walk(h.body):
                    return False
            if isinstance(s, ast.Match) and not all(walk(c.body) for c in s.cases):
                return False
        return True
    return walk(loop.body) and not loop.orelse


def _assigned_between(func: ast.FunctionDef | ast.AsyncFunctionDef, name: str, start: int, end: int) -> bool:
    """``name`` is bound again (assigned, augmented, a loop target, a ``with ... as``) between the loops,
    or changed in place by a method call (``name.append(...)``)."""
    for node in ast.walk(func):
        line = getattr(node, "lineno", 0)
        if not start < line < end:
            continue
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
            return True
    return False
