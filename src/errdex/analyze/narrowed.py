"""Where a narrowed raise's values come from, in the user's terms.

A ``narrowed`` guard (extract/narrowing.py) says which types reach a dispatch's fall-through:
``transform`` is a ``BitcastTransform`` or a ``ReshapeTransform``.  Users never build those; they
call the methods that do (``TransformedRef.bitcast``, ``TransformedRef.reshape``), on an object whose
other methods (``__setitem__``, ``set``, ``swap``) are the operation that reaches the raise.  This
module finds both in the call graph: the methods that construct each narrowed type, kept only in a
class that also has a method reaching the raising function, and those methods.  The page then says
"writing `ref[...] = value` through a view made by `ref.reshape(...)` or `ref.bitcast(...)`".
"""

from __future__ import annotations

import ast
import re
from collections import deque
from dataclasses import dataclass

from errdex.analyze.public_path import MAX_VISITED, CallGraph, site_function
from errdex.model import ErrorSite

MAX_DEPTH = 10
# Python's syntax for the special methods an operation may be: what the user writes
_SYNTAX = {"__setitem__": "{o}[...] = value", "__getitem__": "{o}[...]", "__delitem__": "del {o}[...]",
           "__call__": "{o}(...)", "__iter__": "iter({o})", "__len__": "len({o})", "__contains__": "x in {o}"}


@dataclass(frozen=True, slots=True)
class Narrowed:
    """The narrowed types of one raise, the user's calls that make them and the operations that reach it."""

    subject: str  # "transform"
    types: tuple[str, ...]  # the types that reach the raise, as written ("BitcastTransform")
    handled: tuple[str, ...]  # the types this dispatch handles ("indexing.NDIndexer")
    holder: str  # the class whose methods make them ("jax._src.state.types.TransformedRef")
    makers: tuple[str, ...]  # its methods that construct them, in the types' order ("reshape", "bitcast")
    operations: tuple[str, ...]  # its methods that reach the raise ("__setitem__", "set", "swap")
    chain: tuple[str, ...] = ()  # the calls from the first operation down to the raising function

    @property
    def obj(self) -> str:
        """The object as users name it: the last word of the class (``TransformedRef`` -> ``ref``)."""
        last = self.holder.rsplit(".", 1)[-1].lstrip("_")
        words = re.findall(r"[A-Z][a-z0-9]*|[a-z0-9]+", last)
        return (words[-1] if words else last).lower() or "obj"

    def made(self) -> list[str]:
        return [f"`{self.obj}.{m}(...)`" for m in self.makers]

    def done(self) -> list[str]:
        return [f"`{_SYNTAX.get(m, '{o}.' + m + '(...)').format(o=self.obj)}`" for m in self.operations]


def narrowed_of(site: ErrorSite, graph: CallGraph) -> Narrowed | None:
    guard = next((g for g in site.guards if g.kind == "narrowed"), None)
    if guard is None:
        return None
    reach, through = _isinstance(guard.normalized), _isinstance(guard.source)
    if reach is None or through is None:
        return None
    subject, types = reach
    handled = tuple(t for t in through[1] if t not in types)
    by_class: dict[str, list[str]] = {}
    for t in types:
        for cls in _classes(t, graph):
            for caller, kind in graph.callers.get(cls, []):
                owner, _, meth = caller.rpartition(".")
                if kind == "call" and not meth.startswith("_") and owner[owner.rfind(".") + 1:][:1].isupper():
                    makers = by_class.setdefault(owner, [])
                    if meth not in makers:
                        makers.append(meth)
    if not by_class:
        return None
    reaching = _reaching(site_function(site), graph)
    best: Narrowed | None = None
    for owner, makers in by_class.items():
        ops = tuple(m for m in _methods(owner, graph) if f"{owner}.{m}" in reaching and m not in makers
                    and (m in _SYNTAX or not m.startswith("_")))
        if ops and (best is None or len(makers) > len(best.makers)):
            ordered = _ordered(ops)
            chain: list[str] = []
            cur = f"{owner}.{ordered[0]}"
            while cur:
                chain.append(cur)
                cur = reaching[cur]
            best = Narrowed(subject, types, handled, owner, tuple(makers), ordered, tuple(chain))
    return best


def _isinstance(text: str) -> tuple[str, tuple[str, ...]] | None:
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"
            and len(node.args) == 2 and isinstance(node.args[0], ast.Name)):
        return None
    types = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
    return node.args[0].id, tuple(ast.unparse(t) for t in types)


def _classes(written: str, graph: CallGraph) -> list[str]:
    """The classes of the package a type's written name (``tf.ReshapeView``) may be: callees that end in it."""
    last = "." + written.rsplit(".", 1)[-1]
    return [c for c in graph.callers if c.endswith(last)]


def _methods(owner: str, graph: CallGraph) -> list[str]:
    prefix = owner + "."
    out: list[str] = []
    for callee, callers in graph.callers.items():
        for name in (callee, *(c for c, _ in callers)):
            if name.startswith(prefix) and "." not in name[len(prefix):]:
                meth = name[len(prefix):]
                if meth not in out:
                    out.append(meth)
    return out


def _reaching(start: str, graph: CallGraph) -> dict[str, str]:
    """The functions from which a chain of calls (and registrations) reaches ``start``: each -> the one it calls
    on the shortest such chain ("" for ``start``)."""
    seen = {start: ""}
    queue = deque([(start, 0)])
    while queue and len(seen) < MAX_VISITED:
        cur, d = queue.popleft()
        if d >= MAX_DEPTH:
            continue
        for caller, _kind in graph.callers.get(cur, []):
            if caller not in seen:
                seen[caller] = cur
                queue.append((caller, d + 1))
    return seen


def _ordered(ops: tuple[str, ...]) -> tuple[str, ...]:
    """Special methods (the syntax users write) first, then the named ones."""
    return tuple(sorted(ops, key=lambda m: (m not in _SYNTAX, ops.index(m))))
