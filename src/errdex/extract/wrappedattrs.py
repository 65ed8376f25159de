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
from errdex.extract.ir import Alt, Cat, Dedent, Hole, Lit, Node, Ref, literal_text
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
