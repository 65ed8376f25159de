"""What a base's ``__init__`` keeps on ``self``, handed its arguments by a subclass's ``__init__`` (issue 17's
fiftieth round).

asn1tools 0.169.0's ``DecodeError(ErrorWithLocation, _DecodeError)`` has ``__init__(self, message, offset=None,
location=None)`` calling ``super(DecodeError, self).__init__(message, location=location)``; the base
``ErrorWithLocation.__init__(self, message, location=None)`` keeps ``self.message = message``, and
``DecodeError.__str__`` composes its text from ``self.message``.  What the subclass's methods read as
``self.message`` is the base's kept node with the base's parameters bound to the arguments the subclass handed
on (``super().__init__(...)``, ``super(Cls, self).__init__(...)`` or ``Base.__init__(self, ...)``, one call, of a
base of the same module whose ``__init__`` phase 1 has read).  An attribute whose kept node still reads a
base parameter the call left out is not taken (its default, not the subclass's parameter of that name).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from errdex.extract.binding import bind_args, subst
from errdex.extract.imports import dotted_source
from errdex.extract.ir import Node, param_names


@dataclass(frozen=True, slots=True)
class Kept:
    """A class's ``__init__`` (its own or the one it inherits): its parameters, how many take positional
    arguments (-1: all), and what it keeps on ``self`` in terms of them."""

    params: tuple[str, ...]
    positional: int
    attrs: Mapping[str, Node]


def handed_base(init: ast.FunctionDef | ast.AsyncFunctionDef, cls: str, bases: Sequence[str],
                resolve: Callable[[str], str | None]) -> str | None:
    """The base whose ``__init__`` the one call of ``init`` to a base's ``__init__`` runs: the first base
    for ``super().__init__`` / ``super(Cls, self).__init__``, the one named in ``Base.__init__(self, ...)``."""
    calls = [n.func for n in ast.walk(init) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "__init__"]
    if len(calls) != 1 or not bases:
        return None
    owner = calls[0].value
    if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
        a = owner.args
        own = not a or (len(a) == 2 and isinstance(a[0], ast.Name) and a[0].id == cls.rsplit(".", 1)[-1]
                        and isinstance(a[1], ast.Name) and a[1].id == "self")
        return bases[0] if own else None
    args = next(n.args for n in ast.walk(init) if isinstance(n, ast.Call) and n.func is calls[0])
    if not (args and isinstance(args[0], ast.Name) and args[0].id == "self"):
        return None
    d = dotted_source(owner)
    named = (resolve(d) or d) if d is not None else None
    return named if named in bases else None


def handed_attrs(base: Kept, args: Sequence[Node], kwargs: Sequence[tuple[str, Node]]) -> dict[str, Node]:
    """``base``'s kept attributes with its parameters bound to the arguments handed to it."""
    bind = bind_args(base.params, list(args), dict(kwargs), base.positional)
    unbound = set(base.params) - set(bind)
    return {attr: subst(node, bind) for attr, node in base.attrs.items() if not (param_names(node) & unbound)}

