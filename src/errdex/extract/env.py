"""Local bindings seen so far in a function, as a persistent linked list.

``msg = "a"; if c: msg += "b"; raise E(msg)`` needs to know, at the raise,
which values ``msg`` can hold.  Every assignment pushes one ``Binding`` onto an
immutable chain (O(1), no copying), branches start from the same chain, and
at the join the names that changed are merged into one binding with options.
Values are kept as AST nodes and only turned into message IR if a raise
actually reads them, so functions full of assignments cost almost nothing.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, eq=False)
class Binding:
    """What a name holds after one statement.

    ``value`` is the assigned expression (None: something we do not model,
    such as a loop target or a tuple unpacking), ``env`` the bindings visible
    when it was evaluated, ``prev`` the binding ``+=`` extends, and
    ``options`` the alternatives merged at a branch join (``tested``: the join of an
    ``if name:`` on the name itself, whose branches split its values by emptiness).
    """

    value: ast.expr | None = None
    env: Env | None = None
    prev: Binding | None = None
    options: tuple[Binding | None, ...] = ()
    caught: ast.ExceptHandler | None = None  # ``except X as name``: an instance of X
    local_def: str | None = None  # a nested ``def``: the dotted key of its summary
    grow: str = ""  # "append" / "extend" / "prepend" (``insert(0, value)``) / "reverse": from the list ``prev``
    line: int = 0  # the line of a ``grow`` call
    # a join after ``if name:`` / ``if not name:`` on this name: (the binding the test read, whether the first
    # option is the branch taken when it was non-empty); each option then only holds the lists that reach it
    tested: tuple[Binding, bool] | None = None
    loop_target: bool = False  # a ``for`` loop's target, its value unknown (``loopclause``)


@dataclass(frozen=True, slots=True, eq=False)
class Env:
    name: str
    binding: Binding
    parent: Env | None


MAX_DEPTH = 400  # lookups give up on absurdly long chains rather than crawl


def lookup(env: Env | None, name: str) -> Binding | None:
    """The newest binding of ``name``, or None when the function never bound it."""
    steps = 0
    while env is not None and steps < MAX_DEPTH:
        if env.name == name:
            return env.binding
        env = env.parent
        steps += 1
    return None


def bind(env: Env | None, name: str, binding: Binding) -> Env:
    return Env(name, binding, env)


def changed_names(env: Env | None, base: Env | None) -> list[str]:
    """Names bound on ``env``'s chain since it left ``base`` (newest first, unique)."""
    out: list[str] = []
    steps = 0
    while env is not None and env is not base and steps < MAX_DEPTH:
        if env.name not in out:
            out.append(env.name)
        env = env.parent
        steps += 1
    return out


def merge(base: Env | None, branches: list[Env | None]) -> Env | None:
    """The chain after a branch point: every name changed in any branch gets all its options.

    A branch that did not rebind a name contributes the binding from ``base``
    (None when the name was unbound there).
    """
    names: list[str] = []
    for b in branches:
        for n in changed_names(b, base):
            if n not in names:
                names.append(n)
    if not names:
        return base
    env = base
    for n in names:
        opts = tuple(lookup(b, n) for b in branches)
        env = bind(env, n, Binding(options=opts))
    return env
