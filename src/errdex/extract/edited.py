"""A caught exception re-raised after its handler edited its message: ``e.args = (...)``.

asn1crypto 1.5.1 frames every error raised while it builds or parses a value, in seventeen handlers::

    except (ValueError, TypeError) as e:
        args = e.args[1:]
        e.args = (e.args[0] + '\\n    while constructing %s' % type_name(self),) + args
        raise e

``raise e`` raises the very object it caught, with the text its handler wrote: the caught message and a
suffix.  Read as a bare re-raise (``{e}``) the handler prints every message of the classes it catches, and
seventeen such handlers tie with every ``ValueError`` of the package.  Its text is the new ``args[0]``
(``{e.args[0]}\\n    while constructing {...}``): a message without the suffix never passed through it,
and a message with it is the original site's text, edited on the way (``match/edited.py``).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Protocol

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def edited_text(handler: ast.ExceptHandler, name: str) -> ast.expr | None:
    """The expression a handler assigns as the caught exception's new first argument before raising it
    again (``e.args = (TEXT,) + e.args[1:]``, ``e.args = (TEXT,)``, ``e.args = (TEXT, *e.args[1:])``);
    ``None`` when the handler does not assign ``name.args``, or assigns it in more than one way."""
    found: list[ast.expr] = []
    for node in _walk(handler.body):
        if isinstance(node, ast.Assign):
            if not any(_is_args(t, name) for t in node.targets):
                continue
            first = _first_element(node.value)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            if not _is_args(node.target, name):
                continue
            first = None
        else:
            continue
        if first is None:
            return None  # `e.args += (...)`, `e.args = make(...)`: some other text
        found.append(first)
    if not found or len({ast.dump(f) for f in found}) != 1:
        return None
    return found[0]


class _Guard(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def node(self) -> ast.AST: ...

    @property
    def negated(self) -> bool: ...


def edited_bare(guards: Sequence[_Guard]) -> str:
    """The name the innermost ``except`` binds, when a bare ``raise`` in it re-raises the caught exception after
    the handler assigned its ``args`` from the caught text (face 26.0.1's ``except FaceException as fe: fe.args =
    (fe.args[0] + f' (on line {lineno} of flagfile "{path}")',); raise``, markdown 3.11.3's ``message =
    e.args[0]`` ... ``e.args = (message,) + e.args[1:]; raise``): the same object as ``raise e``, with the text
    the handler wrote, an edited re-raise; "" for any other bare ``raise`` (no site: it prints what the original
    site raised, or a text the handler wrote whole of an object raised in its ``try`` body)."""
    for spec in reversed(guards):
        if spec.kind == "except" and not spec.negated:
            h = spec.node
            if isinstance(h, ast.ExceptHandler) and h.name and (text := edited_text(h, h.name)) is not None \
                    and _holds_caught(h, h.name, text):
                return h.name
            return ""
    return ""


def _holds_caught(handler: ast.ExceptHandler, name: str, text: ast.expr) -> bool:
    """Whether the handler's new text is built from the caught exception (``e.args[0] + " (in path: ...)"``,
    or a local assigned from it first: markdown's ``message = e.args[0]``, then ``message = "..." % (ext_name,
    message)``).  A text the handler writes whole (``'Invalid Output Format: "%s".' % ...``) is not: the object
    was raised in the ``try`` body (a dict's own ``KeyError``), the traceback ends there, and no site says so."""
    held = {name}
    for _ in range(4):  # locals assigned from held names, in a few passes (assignment order aside)
        for node in _walk(handler.body):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id not in held and _mentions(node.value, held):
                held.add(node.targets[0].id)
    return _mentions(text, held)


def _mentions(expr: ast.expr, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(expr))


def _walk(body: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of a handler's statements, not those of a function or class defined inside it."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(reversed(body))
    while todo:
        node = todo.pop()
        out.append(node)
        if not isinstance(node, _FUNCTIONS):
            todo.extend(reversed(list(ast.iter_child_nodes(node))))
    return out


def _is_args(target: ast.expr, name: str) -> bool:
    return isinstance(target, ast.Attribute) and target.attr == "args" and isinstance(target.value, ast.Name) \
        and target.value.id == name


def _first_element(value: ast.expr) -> ast.expr | None:
    """``(TEXT,)`` / ``(TEXT,) + rest`` / ``(TEXT, *rest)``: ``TEXT``, the message ``str(e)`` prints when the
    rest is empty (the handlers that keep ``e.args[1:]`` keep what is almost always nothing)."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        value = value.left
    if isinstance(value, ast.Tuple | ast.List) and value.elts and not isinstance(value.elts[0], ast.Starred) \
            and all(isinstance(e, ast.Starred) for e in value.elts[1:]):
        return value.elts[0]
    return None
