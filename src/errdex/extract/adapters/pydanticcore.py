"""The text of pydantic-core's ``PydanticCustomError``, which libraries raise with their own template.

pydantic-extra-types 2.11 raises ``PydanticCustomError('color_error', 'value is not a valid color: color
values must be in the range 0 to {max_val}', {'max_val': max_val})``.  The class is compiled (pydantic-core's
``src/errors/value_exception.rs``): ``PydanticCustomError(error_type, message_template, context=None)``
prints ``message_template`` with each ``{key}`` of ``context`` replaced by its value (a field the context
does not hold stays as written); ``error_type`` is a tag it never prints.  The builtin rule (``str()`` of an
exception of several arguments) gave the tuple of the three.  Here the text is the template, its ``{name}``
fields placeholders (their values are the context's, read at run time); a template that is no literal text
(``str(exc)``) is that value, as ``ValueError(str(exc))`` is.  ``PydanticKnownError(error_type, context)``
prints a text of pydantic-core's own table, which is not modelled (its raises keep the builtin rule).
Dependency knowledge: it holds for every package that raises the class.
"""

from __future__ import annotations

import re

from errdex.extract.ir import Alt, Cat, Hole, Lit, Node

# the class as a package imports it (``from pydantic_core import PydanticCustomError``) and as it is defined
CUSTOM_ERROR = frozenset(("pydantic_core.PydanticCustomError", "pydantic_core._pydantic_core.PydanticCustomError"))
_PARAMS = ("error_type", "message_template", "context")
_FIELD = re.compile(r"\{(\w+)\}")


def custom_error_text(cls: str, args: list[Node], kwargs: dict[str, Node]) -> Node | None:
    """The text ``PydanticCustomError(*args, **kwargs)`` prints when ``cls`` is that class, else None (also
    when the template is not passed, or the arguments do not fit its parameters)."""
    if cls not in CUSTOM_ERROR or len(args) > len(_PARAMS) or any(k not in _PARAMS for k in kwargs):
        return None
    if any(isinstance(a, Hole) and a.expr.startswith("*") for a in args):
        return None  # `PydanticCustomError(*spec)`: which argument is the template is not known
    bound = {**dict(zip(_PARAMS, args, strict=False)), **kwargs}
    template = bound.get("message_template")
    return None if template is None else fields_as_holes(template)


def fields_as_holes(node: Node) -> Node:
    """``node`` with each ``{name}`` of its literal text a placeholder ``{name}`` (the context's value)."""
    if isinstance(node, Lit):
        parts: list[Node] = []
        pos = 0
        for m in _FIELD.finditer(node.text):
            parts.extend((Lit(node.text[pos:m.start()]), Hole(m[1])))
            pos = m.end()
        if not parts:
            return node
        parts.append(Lit(node.text[pos:]))
        return Cat(tuple(p for p in parts if not (isinstance(p, Lit) and not p.text)))
    if isinstance(node, Cat):
        return Cat(tuple(fields_as_holes(p) for p in node.parts))
    if isinstance(node, Alt):
        return Alt(tuple(fields_as_holes(p) for p in node.options))
    return node
