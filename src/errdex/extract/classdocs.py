"""A message built from the raised class's docstring through the local that holds the class.

rarfile 4.5's ``check_returncode(code, out, errmap)`` picks the class on each path (``exc = errmap[code]``, the
caller's table, else ``exc = RarUserBreak`` / ``RarSignalExit`` / ``RarUnknownError``), builds the text as ``"%s
[%d]: %s" % (exc.__doc__, code, out)`` and raises ``exc(msg)``: the user sees ``Unknown exit code [100]``, each
class's own one-line docstring (``class RarUnknownError(RarExecError)`` whose docstring is ``Unknown exit code``).  The same
idiom as ``self.__doc__`` in an exception's ``__init__``/``__str__`` (dnspython, ``classmessage._own_attrs``),
written at the raise.

Phase 1 (``msgraise``): a local called as a class whose call reads ``<local>.__doc__`` is one of the classes it
holds on the paths that name one; a path taking the class from the caller (a parameter, or an item or ``.get``
of one: ``errmap[code]``) is ``SIBLINGS``, a ``Ref`` whose ``item`` lists the named classes.  Phase 2
(``expand``): each class's call reads its own docstring for ``<local>.__doc__`` (``with_doc``); ``SIBLINGS``
is each other subclass of the named classes' nearest common base in the package (``siblings``), up to
``MAX_SIBLINGS``: the docstring tells them apart, so each is a text of its own.  Without a ``.__doc__`` read
nothing changes: a caller's class on one path still leaves the local unknown.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from errdex.extract.ir import Hole, Lit, Node, reaches, with_parts

SIBLINGS = "<siblings>"  # ``Ref.callee``: a class the caller hands in, one of the named classes' kin
MAX_SIBLINGS = 16  # classes read for one caller-picked path (``resolve.PICKED_TEMPLATES`` texts kept)
DOC = ".__doc__"


def reads_doc(node: Node, var: str) -> bool:
    """Whether a message IR reads ``<var>.__doc__``."""
    return reaches(node, lambda n: isinstance(n, Hole) and n.expr == var + DOC, limit=24)


def with_doc(node: Node, var: str, doc: str, depth: int = 0) -> Node:
    """``node`` with each ``<var>.__doc__`` read as ``doc``."""
    if depth > 24:
        return node
    if isinstance(node, Hole):
        return Lit(doc) if node.expr == var + DOC else node
    return with_parts(node, lambda p: with_doc(p, var, doc, depth + 1))


def called_local(src: str) -> str:
    """The local a raise calls, from its source (``exc(msg)`` -> ``exc``); "" for anything else."""
    head = src.partition("(")[0].strip()
    return head if head.isidentifier() else ""


def handed_in(value: ast.expr, params: Iterable[str]) -> bool:
    """A class the caller hands in: a parameter, or an item or ``.get(...)`` of one (``errmap[code]``)."""
    names = set(params)
    if isinstance(value, ast.Subscript):
        value = value.value
    elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get":
        value = value.func.value
    return isinstance(value, ast.Name) and value.id in names


def siblings(known: list[str], subclasses: Callable[[str], tuple[str, ...]],
             common: Callable[[list[str]], str | None]) -> list[str]:
    """The other subclasses of the nearest common base of ``known`` (the package's classes), up to
    ``MAX_SIBLINGS``; none when they share no base of the package's or only one class is known."""
    base = common(known) if len(known) > 1 else None
    if base is None:
        return []
    return [c for c in subclasses(base) if c not in known][:MAX_SIBLINGS]
