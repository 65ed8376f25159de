"""``text.format(a, b, key=c)`` of a text known only in phase 2, each argument's text in its field.

eql 1.0.1's ``EqlParseError`` holds ``template = u"Error at line:{},column:{}\\n{}\\n{}\\n{}"`` and its
``__init__(self, error_msg, line, column, source, width=1, trailer=None)`` builds ``message =
self.template.format(line + 1, column + 1, error_msg, source, self.caret)``: the class attribute is read
through ``self`` (``owntexts``: the raised class's own, known in phase 2), so phase 1 cannot parse its fields.
Before, they all became placeholders (``Error at line:{0},column:{1}\\n{2}\\n{3}\\n{4}``) and the raise's
``error_msg`` was lost: every site of the family had the same frame.  Phase 1 (``msgforms._format_ir``) now
keeps the arguments (a ``FORMATTED`` reference: the text, then the positional arguments; the named ones as
keywords) and phase 2 puts each argument's text in its field: a caller's literal text as literal text, any
other value as a placeholder.  A field with a conversion, a format spec or an attribute/index (``{0!r}``,
``{0:>4}``, ``{0.name}``), or naming an argument not passed (``*args``), stays a placeholder.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from errdex.extract.binding import Bind
from errdex.extract.formats import parse_brace_run
from errdex.extract.ir import Node, Piece, Ref, Variant
from errdex.extract.textops import fields_of, merged
from errdex.extract.variants import MAX_TEMPLATES
from errdex.model import Segment

Expand = Callable[[Node, Bind, int], tuple[Variant, ...]]


def formatted(expand: Expand, node: Ref, bind: Bind, depth: int) -> tuple[Variant, ...]:
    """The variants of ``node`` (a ``FORMATTED`` reference) under ``bind``."""
    fmt, *args = node.args
    kwargs = dict(node.kwargs)
    out: list[Variant] = []
    for v in expand(fmt, bind, depth + 1):
        filled = _filled(expand, v, args, kwargs, bind, depth)
        out.extend(filled if filled is not None else (fields_of(v, ""),))
        if len(out) >= MAX_TEMPLATES:
            break
    return tuple(dict.fromkeys(out[:MAX_TEMPLATES]))


def _filled(expand: Expand, v: Variant, args: list[Node], kwargs: dict[str, Node], bind: Bind,
            depth: int) -> list[Variant] | None:
    """The texts of one variant of the format string with its fields filled; None when its braces do not parse."""
    slots: list[tuple[Variant, ...]] = []
    auto = 0
    for p in merged(v):
        text = p.segment.text
        if p.segment.expr is not None or text is None or ("{" not in text and "}" not in text):
            slots.append(((p,),))
            continue
        parsed = parse_brace_run(text, auto)
        if parsed is None:
            return None
        parts, auto = parsed
        for part in parts:
            if isinstance(part, str):
                slots.append(((Piece(Segment(text=part)),),))
                continue
            key = part.key
            arg = (args[key] if key < len(args) else None) if isinstance(key, int) else kwargs.get(key)
            if arg is None or part.rest or part.conversion or part.format_spec:
                slots.append(((Piece(Segment(expr=f"{key}{part.rest}", conversion=part.conversion,
                                             format_spec=part.format_spec)),),))
            else:
                slots.append(expand(arg, bind, depth + 1))
    return [merged(tuple(p for piece in combo for p in piece))
            for combo in itertools.islice(itertools.product(*slots), MAX_TEMPLATES)]
