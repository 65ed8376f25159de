"""A caught exception's arguments re-raised as another class, with a note added (issue 17's fifty-eighth round).

A helper turns an exception into one of the package's classes, keeping the cause's arguments and adding a
note the caller hands in.  prance 26.7.19.0's ``util/exceptions.py``::

    def raise_from(klass, from_value, extra_message=None):
        ...
        args = list(from_value.args)
        if extra_message is not None:
            if len(args) and isinstance(args[0], str):
                args[0] += " -- " + extra_message
            else:
                args.append(extra_message)
        raise klass(*args) from from_value

``raise_from(ValidationError, ex, "Strict mode enabled ...")`` prints ``<the cause's text> -- Strict mode
enabled ...``; a cause with a first argument that is no text (``OSError(2, 'No such file or directory')``)
prints the tuple of its arguments and the note, ``(2, 'No such file or directory', 'File not found: x')``.
The raise's ``*args`` read as one unknown placeholder had no text of its own.  ``edits`` finds the local
spread into the raise, bound once to ``list(<value>.args)`` (or ``[*<value>.args]``) and edited in place
only by ``args[0] += TEXT`` and ``args.append(TEXT)``; ``noted`` gives the raise each form: the arguments
unchanged, the first one with each ``TEXT`` after it, and the arguments with each ``TEXT`` as one more.
``TEXT`` is read where the raise is (the helper's parameter ``extra_message``, whose callers' literals the
forty-ninth round's ``Resolver._interpolated_callers`` hands in).  Anything else done to the local (another
assignment, ``extend``, ``insert``, an item stored, handed to a call) leaves the raise as it was.
"""

from __future__ import annotations

import ast
import dataclasses
from dataclasses import dataclass

from errdex.extract.imports import dotted_source
from errdex.extract.ir import Alt, Cat, Hole, Node, Ref, alt
from errdex.extract.prebuilt import enclosing

_READERS = frozenset({"len", "isinstance", "bool", "tuple", "list", "str", "repr"})


@dataclass(frozen=True, slots=True)
class Edits:
    source: str  # the value whose ``.args`` the local copies (``from_value``)
    first: tuple[ast.expr, ...]  # ``args[0] += TEXT``
    appended: tuple[ast.expr, ...]  # ``args.append(TEXT)``


def _copied(value: ast.expr) -> str | None:
    """``list(X.args)`` / ``[*X.args]``: ``X`` as written."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "list" \
            and len(value.args) == 1 and not value.keywords:
        inner: ast.expr = value.args[0]
    elif isinstance(value, ast.List) and len(value.elts) == 1 and isinstance(value.elts[0], ast.Starred):
        inner = value.elts[0].value
    else:
        return None
    if isinstance(inner, ast.Attribute) and inner.attr == "args":
        return dotted_source(inner.value)
    return None


def _first_item(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name \
        and isinstance(node.slice, ast.Constant) and node.slice.value == 0


def edits(tree: ast.Module, qual: tuple[str, ...], exc: ast.expr) -> Edits | None:
    """``raise klass(*args)`` of a local copied from a value's ``.args`` and edited only by ``args[0] += TEXT``
    and ``args.append(TEXT)`` in the raise's function: the edits; None for any other raise."""
    if not (isinstance(exc, ast.Call) and len(exc.args) == 1 and isinstance(star := exc.args[0], ast.Starred)
            and isinstance(star.value, ast.Name) and not exc.keywords):
        return None
    name = star.value.id
    func, _ = enclosing(tree, qual)
    if func is None:
        return None
    source: str | None = None
    first: list[ast.expr] = []
    appended: list[ast.expr] = []
    allowed: set[int] = {id(star.value)}
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            if source is not None or len(node.targets) != 1 or (source := _copied(node.value)) is None:
                return None
            allowed.add(id(node.targets[0]))
        elif isinstance(node, ast.AugAssign) and _first_item(node.target, name) and isinstance(node.op, ast.Add):
            first.append(node.value)
            assert isinstance(node.target, ast.Subscript)
            allowed.add(id(node.target.value))
        elif isinstance(node, ast.Call) and isinstance(f := node.func, ast.Attribute) and isinstance(f.value, ast.Name) \
                and f.value.id == name and f.attr == "append" and len(node.args) == 1:
            appended.append(node.args[0])
            allowed.add(id(f.value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _READERS:
            allowed.update(id(a) for a in node.args if isinstance(a, ast.Name))  # len(args), isinstance(args[0], str)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.ctx, ast.Load):
            allowed.add(id(node.value))  # args[0] read
    if source is None or not (first or appended):
        return None
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and node.id == name and id(node) not in allowed:
            return None  # handed on, stored, extended otherwise: its items are not these
    return Edits(source, tuple(first), tuple(appended))


def noted(value: Node, found: Edits, text: dict[int, Node]) -> Node:
    """The raise's value with each form of its arguments: unchanged (one placeholder for the copy), the first
    argument followed by each ``args[0] += TEXT``, the copied arguments and each appended ``TEXT`` (and that
    ``TEXT`` alone, the cause having had no arguments).  ``text``: each edit's expression read, by ``id``."""
    out: list[Node] = []
    for o in value.options if isinstance(value, Alt) else (value,):
        out.append(o)
        if not (isinstance(o, Ref) and o.is_call and len(o.args) == 1):
            continue
        for e in found.first:
            out.append(dataclasses.replace(o, args=(Cat((Hole(f"{found.source}.args[0]"), text[id(e)])),)))
        for e in found.appended:
            out.append(dataclasses.replace(o, args=(Hole(f"*{found.source}.args"), text[id(e)])))
            out.append(dataclasses.replace(o, args=(text[id(e)],)))
    return alt(out)
