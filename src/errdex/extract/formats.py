"""Parsers for ``str.format`` and ``%`` format strings, on literal text.

They split a literal format string into literal runs and fields; the caller
(``messages``) maps each field to the argument it names.  Kept apart from the
AST code because they are pure string functions, tested on their own.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Field:
    """One replacement field: ``key`` is an int (positional) or a str (keyword).

    ``rest`` is what follows the argument name in the field (``.attr`` or
    ``[0]``), ``conversion`` is ``r``/``s``/``a`` and ``format_spec`` the text
    after the colon (with nested fields left as their source text).
    """

    key: int | str
    rest: str = ""
    conversion: str | None = None
    format_spec: str | None = None


Part = str | Field

_FIELD_NAME = re.compile(r"^([^.\[]*)(.*)$", re.S)


def parse_brace_format(text: str) -> list[Part] | None:
    """``"a {0!r:>10} {name} {}"`` → literal runs and Fields; None when malformed."""
    parsed = parse_brace_run(text, 0)
    return parsed[0] if parsed is not None else None


def parse_brace_run(text: str, auto: int) -> tuple[list[Part], int] | None:
    """One literal run of a format string whose other runs are placeholders already filled in
    (``f"{op} got {{}}".format(x)``): auto-numbered fields continue from ``auto``; returns the
    parts and the next automatic number, None when malformed."""
    out: list[Part] = []
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return None
    for literal, field_name, spec, conversion in parsed:
        if literal:
            out.append(literal)
        if field_name is None:
            continue
        m = _FIELD_NAME.match(field_name)
        assert m is not None  # the pattern matches any string
        name, rest = m.group(1), m.group(2)
        key: int | str
        if name == "":
            key = auto
            auto += 1
        elif name.isdigit():
            key = int(name)
        else:
            key = name
        out.append(Field(key=key, rest=rest, conversion=conversion or None, format_spec=spec or None))
    return out, auto


_PERCENT = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?(?P<spec>[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?)(?P<type>[diouxXeEfFgGcrsa%])"
)


def parse_percent_format(text: str) -> list[Part] | None:
    """``"%s and %(name)r, 100%%"`` → literal runs and Fields; None when malformed.

    ``%s`` has no conversion, ``%r``/``%a`` map to the conversions ``r``/``a``,
    other types keep their printf spec as ``format_spec`` (``d``, ``.2f``).
    """
    out: list[Part] = []
    pos = 0
    index = 0
    for m in _PERCENT.finditer(text):
        if m.start() > pos:
            out.append(text[pos : m.start()])
        pos = m.end()
        typ = m.group("type")
        if typ == "%":
            out.append("%")
            continue
        if "*" in m.group("spec"):
            return None  # the width comes from an argument: positions shift, give up
        key: int | str
        if m.group("key") is not None:
            key = m.group("key")
        else:
            key = index
            index += 1
        conversion = typ if typ in ("r", "a") else None
        spec = m.group("spec") + ("" if typ in ("s", "r", "a") else typ)
        out.append(Field(key=key, conversion=conversion, format_spec=spec or None))
    if pos < len(text):
        out.append(text[pos:])
    return out
