"""Errors an instance collects in a list attribute, one of them raised later (issue 17's fifty-eighth round).

Error-collecting parsers keep going after a fault: each method that meets one appends an instance to a list
of the parser, and the entry point raises one of them at the end.  json-five 1.1.2's ``JSONParser``::

    self.errors: list[JSON5DecodeError] = []                        # __init__
    self.errors.append(JSON5DecodeError(message, token))            # error(), several other methods
    ...
    if self.errors:
        raise self.errors[0]                                        # parse()

The raise shows no constructor: its texts are those of the instances appended to ``self.errors`` in the
methods of the raise's class, each built where it is appended (its locals: ``message`` is an f-string of
``error()``).  ``prebuilt.collected`` does this for a local list (``errors.append(...)`` ... ``raise
errors[0]``), ``prebuilt.assigned`` for ``self.failure = X(...)`` ... ``raise self.failure``; this is the
attribute list between them.  ``appended`` finds the constructor calls in the class's syntax; the walker
reads each with the scope of the method appending it (``Walker._stored``) and gives the raise their texts
once the module is walked (the raise may come before the methods appending).  Nothing when the list may hold
anything else: an item appended that is no constructor call (a caught exception), ``extend``/``+=``/a slice
assignment, the attribute assigned anything but an empty list, or handed to a call (a helper could grow it).
"""

from __future__ import annotations

import ast
from dataclasses import replace

from errdex.extract.classtables import PICKED
from errdex.extract.ir import Alt, Node, Ref, alt
from errdex.extract.prebuilt import MAX_CALLS, Func, constructor, owner_class

_GROW = frozenset({"append", "insert"})
_READERS = frozenset({"len", "bool", "list", "tuple", "iter", "any", "all", "sorted", "reversed", "enumerate",
                      "print", "repr", "str", "id"})


def stored_attr(exc: ast.expr) -> str | None:
    """``raise self.errors[0]`` (any index or slice): the attribute's name; None for any other raise."""
    if isinstance(exc, ast.Subscript) and isinstance(a := exc.value, ast.Attribute) \
            and isinstance(a.value, ast.Name) and a.value.id == "self":
        return a.attr
    return None


def appended_call(call: ast.Call) -> ast.Call | None:
    """``self.<attr>.append(Cls(...))`` / ``.insert(i, Cls(...))``: the constructor call appended."""
    f = call.func
    if isinstance(f, ast.Attribute) and f.attr in _GROW and isinstance(f.value, ast.Attribute) \
            and isinstance(f.value.value, ast.Name) and f.value.value.id == "self" and call.args:
        return constructor(call.args[-1])
    return None


def _is_attr(node: ast.AST, attr: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name) \
        and node.value.id == "self"


def _empty(value: ast.expr | None) -> bool:
    return value is None or (isinstance(value, ast.List) and not value.elts) or (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "list"
        and not value.args and not value.keywords)


def _method_calls(method: Func, attr: str) -> list[ast.Call] | None:
    out: list[ast.Call] = []
    for node in ast.walk(method):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_is_attr(t, attr) for t in targets) and not _empty(node.value):
                return None  # `self.errors = other`: items from elsewhere
        elif isinstance(node, ast.AugAssign) and _is_attr(node.target, attr):
            return None
        elif isinstance(node, ast.Subscript) and _is_attr(node.value, attr) and isinstance(node.ctx, ast.Store):
            return None  # `self.errors[0] = e`
        elif isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and _is_attr(f.value, attr):
                if f.attr in _GROW:
                    if (c := appended_call(node)) is None:
                        return None  # a caught exception or a value: the list holds what it holds
                    out.append(c)
                elif f.attr in ("extend", "__setitem__", "__iadd__"):
                    return None
                continue
            if any(_is_attr(a, attr) for a in (*node.args, *(k.value for k in node.keywords))) and not (
                    isinstance(f, ast.Name) and f.id in _READERS):
                return None  # handed to a helper that may grow it
    return out


def appended(tree: ast.Module, qual: tuple[str, ...], exc: ast.expr) -> list[ast.Call]:
    """The constructor calls the methods of the raise's class append to the list attribute it raises an item
    of (``raise self.errors[0]``); empty for any other raise, or when the list may hold anything else."""
    attr = stored_attr(exc)
    owner = owner_class(tree, qual) if attr is not None else None
    if attr is None or owner is None:
        return []
    out: list[ast.Call] = []
    for method in owner.body:
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            got = _method_calls(method, attr)
            if got is None:
                return []
            out.extend(got)
    return out if len(out) <= MAX_CALLS else []


def picked(values: list[Node]) -> Node:
    """The appended instances as the raise's value, each constructor marked as picked (as a table's prebuilt
    objects are, ``classtables``): the site keeps up to ``resolve.PICKED_TEMPLATES`` texts, one per instance,
    rather than the first ``MAX_TEMPLATES`` of a single raise's variants."""
    out: list[Node] = []
    for v in values:
        for o in v.options if isinstance(v, Alt) else (v,):
            out.append(replace(o, item=PICKED) if isinstance(o, Ref) and o.is_call and not o.item else o)
    return alt(out)


def all_picked(value: Node | None) -> bool:
    """Whether a raise's value is several instances each marked as picked (``picked``, ``classtables``)."""
    return isinstance(value, Alt) and all(isinstance(o, Ref) and o.item == PICKED for o in value.options)
