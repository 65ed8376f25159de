"""An exception wrapping an error object: ``f"[{self.error.type}] ..."`` where ``self.error`` holds the
``__init__``'s ``error`` parameter (directly, or through a property returning what ``__init__`` kept), and
the raise passes an instance of a package class (``FrictionlessException(errors.PackageError(note=...))``,
frictionless 5.21.0, issue 17's sixty-second round): the attribute is that class's constant
(``PackageError.type = "package-error"``), read up its bases.  An attribute the class renders from a
format template of its own (``self.message = safe_format(self.template, ...)``) is that template filled with the
call's keywords (``classtemplate``, the sixty-third round).  Any other argument (a text, an unknown value,
a class whose constant is not literal text) leaves the placeholder as it was.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from errdex.extract.classtemplate import class_template
from errdex.extract.coerced import coerced_call
from errdex.extract.ir import Alt, Cat, Dedent, Hole, Lit, Node, Ref, alt, literal_text
from errdex.extract.tables import Tables

_SELF_PARAM_ATTR = re.compile(r"self\.(\w+)\.(\w+)")


def wrapped_attrs(t: Tables, node: Node, bind: Mapping[str, Node], owner: str = "") -> Node:
    """``node`` with each ``self.<param>.<attr>`` placeholder whose parameter the raise bound to an instance
    of a package class with a literal ``attr`` constant replaced by that constant's text (``owner``, the class
    whose ``__init__`` bound it, may make an error object of a text passed: ``coerced``)."""
    if isinstance(node, Cat):
        return Cat(tuple(wrapped_attrs(t, p, bind, owner) for p in node.parts))
    if isinstance(node, Alt):
        return Alt(tuple(wrapped_attrs(t, p, bind, owner) for p in node.options))
    if isinstance(node, Dedent):
        return dataclasses.replace(node, inner=wrapped_attrs(t, node.inner, bind, owner))
    if not (isinstance(node, Hole) and node.conversion is None and node.format_spec is None
            and (m := _SELF_PARAM_ATTR.fullmatch(node.expr)) is not None):
        return node
    arg = bind.get(m[1])
    if isinstance(arg, Alt) and all(isinstance(o, Ref) and o.is_call for o in arg.options):
        # `Error = cls.metadata_Error or MetadataError; E(Error(note=note))`: one of the classes each subclass
        # names (``heldclasses``); read independently, `{self.error.type}` and `{self.error.message}` of two
        # classes would pair wrongly: what every class's text shares, the rest a placeholder
        each = [wrapped_attrs(t, node, {**bind, m[1]: o}, owner) for o in arg.options]
        known = [e for e in each if e != node]
        shared = _shared(known, node) if known else node
        return shared if len(known) == len(each) else alt([shared, node])
    if arg is not None and (made := coerced_call(t, owner, m[1], arg)) is not None:
        arg = made  # `error if isinstance(error, C) else C(note=error)` of a text passed
    if not (isinstance(arg, Ref) and arg.is_call and not arg.param):
        return node
    cls = t.canonical(arg.target)
    if cls not in t.classes:
        return node
    rendered = class_template(t, cls, m[2], arg)  # `self.message = safe_format(self.template, ...)`
    if rendered is not None:
        return rendered
    for name in (cls, *t.bases_chain(cls)):
        const = t.constants.get(f"{name}.{m[2]}")
        if const is not None:
            return const if literal_text(const) is not None and isinstance(const, Lit) else node
    return node


def _parts(node: Node) -> list[Node]:
    return list(node.parts) if isinstance(node, Cat) else [node]


def _shared(texts: list[Node], hole: Hole) -> Node:
    """The one text when all are the same; else what they all begin and end with (whole parts, then the common
    start or end of their literal text) around ``hole``: ``[{type}-error]`` of `schema-error`/`package-error`,
    ``{self.error.message}descriptor is not valid`` of each class's template filled with the same note."""
    if all(x == texts[0] for x in texts):
        return texts[0]
    parts = [_parts(x) for x in texts]
    head: list[Node] = []
    tail: list[Node] = []
    while all(len(p) > len(head) + len(tail) + 1 for p in parts) and all(p[len(head)] == parts[0][len(head)] for p in parts):
        head.append(parts[0][len(head)])
    while all(len(p) > len(head) + len(tail) + 1 for p in parts) \
            and all(p[-1 - len(tail)] == parts[0][-1 - len(tail)] for p in parts):
        tail.insert(0, parts[0][-1 - len(tail)])
    firsts = [p[len(head)] for p in parts]
    lasts = [p[len(p) - 1 - len(tail)] for p in parts]
    if all(isinstance(f, Lit) for f in firsts) and (start := _common([f.text for f in firsts if isinstance(f, Lit)])):
        head.append(Lit(start))
    if all(isinstance(x, Lit) for x in lasts) \
            and (end := _common([x.text[::-1] for x in lasts if isinstance(x, Lit)])[::-1]):
        tail.insert(0, Lit(end))
    return Cat((*head, hole, *tail)) if head or tail else hole


def _common(texts: list[str]) -> str:
    """The longest start all ``texts`` share."""
    first = min(texts, key=len) if texts else ""
    n = 0
    while n < len(first) and all(x[n] == first[n] for x in texts):
        n += 1
    return first[:n]
