"""Binding a helper's or an ``__init__``'s parameters to what a call passes (phase 2's substitution,
used by ``expand.py``): a parameter placeholder becomes the argument, read as text where the parameter
stood as text, with the placeholder's conversion and format spec applied to literal text."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from errdex.extract.factories import spread
from errdex.extract.ir import Alt, Cat, Dedent, Hole, Lit, Node, Param, Ref, alt, default_key, literal_text

Bind = Mapping[str, Node]


def as_text(node: Node) -> Node:
    """``node`` read as message text: an unknown value there is unresolved text (each alternative's)."""
    if isinstance(node, Alt):
        return Alt(tuple(as_text(o) for o in node.options))
    if isinstance(node, Hole) and not node.unresolved:
        return dataclasses.replace(node, unresolved=True)
    if isinstance(node, (Ref, Param)) and not node.text_position:
        return dataclasses.replace(node, text_position=True)
    return node


def bind_args(params: tuple[str, ...], args: list[Node], kwargs: Mapping[str, Node],
              positional: int = -1) -> dict[str, Node]:
    """``params`` bound to a call's arguments; only the first ``positional`` take positional ones (-1: all)."""
    out = dict(zip(params if positional < 0 else params[:positional], args, strict=False))
    for k, v in kwargs.items():
        if k in params:
            out[k] = v
    return out


def substitute_param(p: Param, arg: Node) -> Node:
    """What a parameter placeholder becomes once bound to ``arg`` (simple cases inline)."""
    if p.conversion is None and p.format_spec is None:
        return as_text(arg) if p.text_position else arg
    text = literal_text(arg)
    if text is not None:
        if p.conversion == "r" and p.format_spec is None:
            return Lit(repr(text))
        if p.conversion is None:
            try:
                return Lit(format(text, p.format_spec or ""))
            except ValueError:
                pass
    if isinstance(arg, Hole):
        return Hole(arg.expr, p.conversion, p.format_spec)
    if isinstance(arg, Param):
        return Param(arg.name, p.conversion, p.format_spec, shown=arg.shown)
    if p.conversion == "r" and p.format_spec is None and isinstance(arg, Cat) \
            and any(isinstance(q, Lit) and q.text for q in arg.parts) and (quotes := _repr_quotes(arg)):
        # f"Invalid MultiAddr {string!r}" given `"/" + "/".join(parts)` (multiaddr's `StringParseError`): a text
        # built of literal text and values is a `str`, whose repr is itself between quotes: single ones, double
        # ones when the text holds a `'`, either when a value may print one (stone's `InvalidSpec({!r}, ...)`)
        return alt([Cat((Lit(q), arg, Lit(q))) for q in quotes])
    if isinstance(arg, Alt):
        return alt([substitute_param(p, o) for o in arg.options])  # each text it may be, as each shows
    return arg


def _repr_quotes(node: Cat) -> str:
    """The quotes ``repr`` of a text built of literals and values may print it between: ``'`` when nothing in it
    holds a quote; ``"`` when a literal holds a ``'``; both when a value may print one (its own repr, a helper's
    text, ``quote(name)`` returning ``"'%s'" % name``); none (the text is left as it was) when a literal holds a
    ``"``, a backslash or a line break, or a part is no plain literal or value."""
    lits = "".join(q.text for q in node.parts if isinstance(q, Lit))
    if any(c in lits for c in '"\\\n\r\t') or not all(isinstance(q, (Lit, Hole, Param, Ref)) for q in node.parts):
        return ""
    if "'" in lits:
        return '"'
    if any(isinstance(q, (Hole, Param)) and q.conversion == "r" for q in node.parts) or any(
            isinstance(q, Hole) and "(" in q.expr and not q.expr.startswith(("str(", "len(", "int(")) for q in node.parts):
        return "'\""
    return "'"


def subst(node: Node, bind: Bind) -> Node:
    """``node`` with bound parameters replaced (arguments are evaluated in the caller's bindings)."""
    if not bind:
        return node
    if isinstance(node, Param):
        return substitute_param(node, bind[node.name]) if node.name in bind else node
    if isinstance(node, Cat):
        return Cat(tuple(subst(p, bind) for p in node.parts))
    if isinstance(node, Alt):
        return Alt(tuple(subst(p, bind) for p in node.options))
    if isinstance(node, Dedent):
        return Dedent(subst(node.inner, bind), node.how)
    if isinstance(node, Ref):
        args, kwargs = spread(tuple(subst(a, bind) for a in node.args), tuple((k, subst(v, bind)) for k, v in node.kwargs))
        item = tuple(_defaulted_key(subst(a, bind), bind) for a in node.item)  # a table's key (``keyedtables``)
        return dataclasses.replace(node, args=args, kwargs=kwargs, item=item)
    return node


def _defaulted_key(node: Node, bind: Bind) -> Node:
    """A table's key, substituted, with each parameter left in it (the raising function's own, unbound
    there) that has a literal default (bound under ``default_key`` at the raise) also that default:
    ``Alt((code, 'XPST0003'))``."""
    if isinstance(node, Param) and (d := bind.get(default_key(node.name))) is not None:
        return alt([node, d])
    if isinstance(node, Alt):
        return alt([_defaulted_key(o, bind) for o in node.options])
    return node
