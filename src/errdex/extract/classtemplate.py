"""An object's message built from its class's format template and the fields its constructor got.

frictionless 5.21.0's ``Error`` (an attrs class, the object ``FrictionlessException`` wraps) holds a
class-level template each subclass overrides and renders it after ``__init__``::

    class Error(Metadata):
        template: ClassVar[str] = "{note}"
        def __attrs_post_init__(self):
            descriptor = self.metadata_export(exclude=["message"])
            self.message = helpers.safe_format(self.template, descriptor)

    class PackageError(MetadataError):
        template = "The data package has an error: {note}"

so ``errors.PackageError(note=f'resource "{name}" does not exist')`` has the ``message`` ``The data package has
an error: resource "{name}" does not exist`` (issue 17's sixty-third round).  Validators and linters keep
their error kinds this way (``message = self.template.format(**kw)``, ``self.msg = self.msg_template.format_map
(vars(self))``).

Phase 1 (``formatted_texts``) records, per class, each attribute named like a message that the class's methods
set only to a ``.format``/``.format_map`` of one ``self.<constant>`` (or pass that constant first to a function
named like a formatter, ``safe_format(self.template, data)``): the constant's name.  Phase 2 (``class_template``)
reads it for an instance of a package class built by the raise: the constant as the instance's class sets it
(its own override, else the nearest base's), when it is literal text, with each ``{field}`` the constructor got
as a keyword filled by that argument and the others left as placeholders.
"""

from __future__ import annotations

import ast
import string

from errdex.extract.ir import Hole, Lit, Node, Ref, cat, literal_text
from errdex.extract.kepttexts import message_assignments
from errdex.extract.tables import Tables

FORMATTED = "<fmt>"  # the infix of a recorded template's key among a module's constants
_FORMAT_METHODS = frozenset({"format", "format_map"})
_FORMATTER = "format"  # a function whose name holds this, given the template first: a formatter


def formatted_key(cls: str, attr: str) -> str:
    """The key of the template constant ``cls`` renders into ``self.<attr>`` (``Error.<fmt>message``)."""
    return f"{cls}.{FORMATTED}{attr}"


def _self_attr(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _formatted(value: ast.expr) -> str | None:
    """The ``self.<constant>`` a value formats: ``self.T.format(...)``, ``self.T.format_map(...)``, or a
    formatter given it first (``helpers.safe_format(self.T, data)``); else None."""
    if not isinstance(value, ast.Call):
        return None
    func = value.func
    if isinstance(func, ast.Attribute) and func.attr in _FORMAT_METHODS:
        return _self_attr(func.value)
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if _FORMATTER in name.lower() and value.args:
        return _self_attr(value.args[0])
    return None


def formatted_texts(node: ast.ClassDef, cls: str) -> dict[str, Node]:
    """``Cls.<fmt>attr`` → ``Lit(constant)`` for each message-like attribute every assignment of which, in the
    class's methods, formats that one ``self.<constant>``."""
    found: dict[str, set[str | None]] = {}
    for attr, value in message_assignments(node):
        found.setdefault(attr, set()).add(_formatted(value) if value is not None else None)
    return {formatted_key(cls, attr): Lit(name) for attr, names in found.items()
            if len(names) == 1 and (name := next(iter(names))) is not None}


def fill(text: str, kwargs: dict[str, Node]) -> Node | None:
    """A format template with each plain ``{name}`` field a keyword argument fills; other fields placeholders."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return None
    parts: list[Node] = []
    for lit, field, spec, conversion in parsed:
        parts.append(Lit(lit))
        if field is None:
            continue
        value = kwargs.get(field)
        if value is not None and not spec and conversion is None:
            parts.append(value)
        else:
            parts.append(Hole(field or "?", conversion, spec or None))
    return cat(*parts)


def class_template(t: Tables, cls: str, attr: str, built: Ref) -> Node | None:
    """``<obj>.<attr>`` of an instance of ``cls`` the call ``built`` made: the class's rendered template, or
    None when no class of its chain renders one into ``attr`` or the instance's template is not literal."""
    chain = (cls, *t.bases_chain(cls))
    recorded = next((n for c in chain if (n := t.constants.get(formatted_key(c, attr))) is not None), None)
    if not isinstance(recorded, Lit):
        return None
    text = next((n for c in chain if (n := t.constants.get(f"{c}.{recorded.text}")) is not None), None)
    literal = literal_text(text) if text is not None else None
    if literal is None:
        return None
    return fill(literal, dict(built.kwargs))
