"""A method's local bound to ``self``: its attributes are the instance's.

``err = self`` then ``f"=====> {err.error_msg}"`` (cfgv 3.5.0's ``ValidationError.__str__``, which walks a
chain of wrapped errors: ``while err.ctx is not None: out += f"==> {err.ctx}\\n"; err = err.error_msg``)
reads ``self.error_msg``, what ``__init__`` kept from the raise's argument, on every path where ``err`` still
holds ``self``; on a path where the loop moved it on (``err = err.error_msg``) it is another object, unknown.
Read as the placeholder ``{err.error_msg}``, all fifteen of cfgv's raises printed the same bare text and no
message named its raise.  ``self_reads`` gives, for ``NAME.attr`` with ``NAME`` such a local, the
``self.attr`` each of its values stands for (``None`` where it holds something else); the value builder
(``msgvalue.py``) reads each as ``self.attr`` is read and joins them as alternatives.
"""

from __future__ import annotations

import ast

from errdex.extract import env as envmod

MAX_OPTIONS = 8  # values of a local followed through its branch joins


def self_reads(node: ast.Attribute, method: bool, env: envmod.Env | None) -> list[ast.Attribute | None] | None:
    """``[self.attr]`` when the local ``NAME`` of ``NAME.attr`` holds ``self`` on every path, ``self.attr``
    and ``None`` when it does on some (``None``: another object), or None when it never does (or this is no
    method of a class, or ``self`` is rebound)."""
    if not (method and isinstance(node.value, ast.Name) and node.value.id != "self"
            and envmod.lookup(env, "self") is None):
        return None
    b = envmod.lookup(env, node.value.id)
    if b is None:
        return None
    leaves: list[envmod.Binding | None] = []
    _flatten(b, leaves, 0)
    if len(leaves) > MAX_OPTIONS or not any(_holds_self(x) for x in leaves):
        return None
    mine = ast.copy_location(ast.Attribute(value=ast.copy_location(ast.Name(id="self", ctx=ast.Load()), node.value),
                                           attr=node.attr, ctx=ast.Load()), node)
    out: list[ast.Attribute | None] = [mine]
    if not all(_holds_self(x) for x in leaves):
        out.append(None)
    return out


def _flatten(b: envmod.Binding | None, out: list[envmod.Binding | None], depth: int) -> None:
    """The bindings a branch join merged (``options``), each a value of its own."""
    if b is not None and b.options and depth < 4:
        for o in b.options:
            _flatten(o, out, depth + 1)
    else:
        out.append(b)


def _holds_self(b: envmod.Binding | None) -> bool:
    """``NAME = self`` (not grown, not extended, and ``self`` not rebound where it was assigned)."""
    return (b is not None and isinstance(b.value, ast.Name) and b.value.id == "self" and b.prev is None
            and not b.grow and envmod.lookup(b.env, "self") is None)


def self_attr_of(name: ast.Name, env: envmod.Env | None, depth: int = 0) -> list[ast.Attribute | None] | None:
    """The ``self.attr`` each value of the local ``name`` is, following a name bound to another
    (``t = template``, a loop's item of ``[template]``, ``template = self._template`` on a branch): ``None``
    for a value that is not (a parameter, another object), None when no value is."""
    b = envmod.lookup(env, name.id)
    if b is None or depth > 4 or envmod.lookup(env, "self") is not None:
        return None
    leaves: list[envmod.Binding | None] = []
    _flatten(b, leaves, 0)
    out: list[ast.Attribute | None] = []
    for x in leaves[:MAX_OPTIONS]:
        v = x.value if x is not None and x.prev is None and not x.grow else None
        if isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and v.value.id == "self" \
                and envmod.lookup(x.env if x is not None else None, "self") is None:
            found: list[ast.Attribute | None] | None = [v]
        elif isinstance(v, ast.Name) and x is not None:
            found = self_attr_of(v, x.env, depth + 1)
        else:
            found = None
        for f in found or [None]:
            if not any(f is o or (f is not None and o is not None and ast.dump(f) == ast.dump(o)) for o in out):
                out.append(f)
    return out if any(o is not None for o in out) else None
