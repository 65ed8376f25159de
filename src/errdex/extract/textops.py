"""Phase 2's text transformations of an expanded message variant: ``textwrap.dedent``,
``inspect.cleandoc``, ``.strip()``, and ``.format`` fields of text known only now."""

from __future__ import annotations

import ast
import inspect
import textwrap

from errdex.extract.formats import Field, parse_brace_run, parse_percent_format
from errdex.extract.ir import FORMAT_FIELDS, PERCENT_FIELDS, REPLACE_SEP, REPLACED, SHOWN_REPR, Piece, Variant
from errdex.model import Segment


def fields_of(v: Variant, mapping: str) -> Variant:
    """A table entry that the code formats (``msg.format(**kwargs)``): its ``{name}`` fields become
    placeholders (``{kwargs['name']}``); text whose braces do not parse stays as it is."""
    out: list[Piece] = []
    for p in merged(v):
        text = p.segment.text
        if p.segment.expr is not None or text is None or ("{" not in text and "}" not in text):
            out.append(p)
            continue
        parsed = parse_brace_run(text, 0)
        if parsed is None:
            return v
        for part in parsed[0]:
            if isinstance(part, str):
                out.append(Piece(Segment(text=part)))
            else:
                expr = f"{mapping}[{part.key!r}]{part.rest}" if mapping else f"{part.key}{part.rest}"
                out.append(Piece(Segment(expr=expr, conversion=part.conversion, format_spec=part.format_spec)))
    return tuple(out)


def _value_names(values: str) -> list[str] | None:
    """The values a ``%`` applies as written: a tuple's items, or a lone name or attribute (one value);
    else None (``self.args[1:]``: its items are numbered)."""
    try:
        node = ast.parse(values, mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in node.elts):
        return [ast.unparse(e) for e in node.elts]
    return [values] if isinstance(node, (ast.Name, ast.Attribute)) else None


def percent_fields(v: Variant, values: str) -> Variant:
    """Text known only now, formatted with ``%`` (``self.args[0] % self.args[1:]``): its ``%s`` fields
    become placeholders named after the values (``self.args[1:][0]``, ``values['name']``); text that is
    no valid format stays as it is."""
    out: list[Piece] = []
    index = 0  # positional fields are numbered across the literal runs
    names = _value_names(values)
    if names == [values] and _positional_fields(v) != 1:
        names = None  # a lone name formatting several fields is a tuple (``output % params``, ``*params``)
    for p in merged(v):
        text = p.segment.text
        if p.segment.expr is not None or text is None or "%" not in text:
            out.append(p)
            continue
        parts = parse_percent_format(text)
        if parts is None:
            return v
        shift = index
        for part in parts:
            if isinstance(part, Field):
                key = part.key + shift if isinstance(part.key, int) else part.key
                index += isinstance(part.key, int)
                expr = names[key] if names is not None and isinstance(key, int) and key < len(names) \
                    else f"{values}[{key!r}]"
                out.append(Piece(Segment(expr=expr, conversion=part.conversion,
                                         format_spec=part.format_spec)))
            else:
                out.append(Piece(Segment(text=part)))
    return merged(tuple(out))


UNCONVERTED = "not all arguments converted during string formatting"  # Python's TypeError of `"text" % value`
FAILS_ALWAYS = "\x02"  # marks a ``PERCENT_FIELDS`` value that is no mapping: a text with no field raises
FAILS_MAYBE = "\x01"  # marks one that may be no mapping (a parameter): the text, or Python's error


def percent_fails(node: ast.expr, params: frozenset[str], mapping: str | None) -> str:
    """How ``"text with no field" % node`` ends (num2words' ``Num2Word_ID`` sets ``errmsg_floatord = "Cannot
    treat float number as ordinal"`` where the base's has ``%s``, and ``verify_ordinal`` raises
    ``TypeError(self.errmsg_floatord % value)``: Python's ``TypeError`` is what the user sees):
    ``FAILS_ALWAYS`` for a non-empty tuple or a constant, ``FAILS_MAYBE`` for a parameter (not ``mapping``, the
    ``**kwargs``), else ``""`` (a mapping, a list, an empty tuple, any other value: the text unchanged)."""
    if isinstance(node, ast.Tuple):
        return FAILS_ALWAYS if node.elts and not any(isinstance(e, ast.Starred) for e in node.elts) else ""
    if (isinstance(node, ast.Constant) and node.value is not None) or isinstance(node, ast.JoinedStr):
        return FAILS_ALWAYS
    if isinstance(node, ast.Name) and node.id in params and node.id != mapping:
        return FAILS_MAYBE
    return ""


def split_fails(values: str) -> tuple[str, str]:
    """A ``PERCENT_FIELDS`` value's source and its mark (``percent_fails``)."""
    if values[:1] in (FAILS_ALWAYS, FAILS_MAYBE):
        return values[:1], values[1:]
    return "", values


def unconverted(v: Variant, fails: str) -> str:
    """``fails`` when the variant holds no ``%`` field (formatting it raises), else ``""``."""
    if not fails or any(p.segment.expr is not None for p in v):
        return ""
    text = "".join(p.segment.text or "" for p in v)
    parts = parse_percent_format(text) if "%" in text else [text]
    return "" if parts is None or any(isinstance(part, Field) for part in parts) else fails


def _positional_fields(v: Variant) -> int:
    """How many positional ``%`` fields the literal runs of a variant hold (-1: no valid format)."""
    count = 0
    for p in merged(v):
        text = p.segment.text
        if p.segment.expr is None and text is not None and "%" in text:
            parts = parse_percent_format(text)
            if parts is None:
                return -1
            count += sum(1 for part in parts if isinstance(part, Field) and isinstance(part.key, int))
    return count


def replaced(v: Variant, spec: str) -> Variant:
    """``text.replace(old, new)`` on the literal runs of a variant (``spec``: ``old``, ``REPLACE_SEP``, then
    ``=new text`` or ``{source`` of a value): placeholders are left alone (what a value holds is not known)."""
    old, _, new = spec.partition(REPLACE_SEP)
    value = Piece(Segment(text=new[1:])) if new[:1] == "=" else Piece(Segment(expr=new[1:]))
    out: list[Piece] = []
    for p in merged(v):
        text = p.segment.text
        if p.segment.expr is not None or text is None or old not in text:
            out.append(p)
            continue
        for i, chunk in enumerate(text.split(old)):
            if i:
                out.append(value)
            if chunk:
                out.append(Piece(Segment(text=chunk)))
    return merged(tuple(out))


def merged(v: Variant) -> Variant:
    """Adjacent literal pieces as one (a ``{{`` escape may have left ``{`` and ``min}`` apart)."""
    out: list[Piece] = []
    for p in v:
        if out and p.segment.is_literal and out[-1].segment.is_literal:
            out[-1] = Piece(Segment(text=(out[-1].segment.text or "") + (p.segment.text or "")))
        else:
            out.append(p)
    return tuple(out)


_SENTINEL = "\x00"


def transform(v: Variant, how: str) -> Variant:
    """Apply dedent/cleandoc/strip to a variant; placeholders ride along as sentinels."""
    if how == FORMAT_FIELDS:
        return fields_of(v, "")
    if how.startswith(PERCENT_FIELDS):
        return percent_fields(v, split_fails(how[len(PERCENT_FIELDS):])[1])
    if how.startswith(REPLACED):
        return replaced(v, how[len(REPLACED):])
    if how == SHOWN_REPR:
        return v
    holes = [p for p in v if not p.segment.is_literal]
    text = "".join(p.segment.text if p.segment.is_literal else _SENTINEL for p in v)
    if how == "dedent":
        text = textwrap.dedent(text)
    elif how == "cleandoc":
        text = inspect.cleandoc(text)
    else:
        text = getattr(text, how)()
    out: list[Piece] = []
    it = iter(holes)
    for i, chunk in enumerate(text.split(_SENTINEL)):
        if i:
            nxt = next(it, None)
            if nxt is not None:
                out.append(nxt)
        if chunk:
            out.append(Piece(Segment(text=chunk)))
    return tuple(out)
