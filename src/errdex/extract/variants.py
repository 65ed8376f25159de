"""Operations on a message's variants (``Variant``: one way the text may read, as pieces): the cap on how many
a site keeps, and the transforms phase 2 applies to a whole list of them.

Apart from ``expand`` because they read no source and no table: they only combine, cap and format the
variants the expander built, so they can be tested and reused without an ``Expander``.
"""

from __future__ import annotations

from errdex.extract.binding import Bind, subst
from errdex.extract.ir import PERCENT_FIELDS, Alt, Node, Piece, Variant
from errdex.extract.textops import FAILS_ALWAYS, UNCONVERTED, split_fails, transform, unconverted
from errdex.model import Segment

MAX_TEMPLATES = 8
MAX_DEPTH = 8


def capped(options: list[tuple[Variant, ...]]) -> tuple[Variant, ...]:
    """The distinct variants of an ``Alt``'s options in order, at most ``MAX_TEMPLATES``; past the cap,
    an option none of whose variants made it still keeps its first, in place of the last ones kept
    (``msg += sub`` under ``if self.exceptions:`` of a text with eight variants otherwise loses the plain
    text, the one printed when there are none).  The first variant stays first: the site's id hashes it."""
    out = list(dict.fromkeys(v for vs in options for v in vs))
    if len(out) <= MAX_TEMPLATES:
        return tuple(out)
    kept = out[:MAX_TEMPLATES]
    missing = list(dict.fromkeys(vs[0] for vs in options if vs and not any(v in kept for v in vs)))
    if not missing:
        return tuple(kept)
    room = max(MAX_TEMPLATES - len(missing), 1)
    return tuple(kept[:room] + missing[:MAX_TEMPLATES - room])


def opaque(v: Variant) -> bool:
    """A message that is one value and no text: ``"\\n".join(errors or autos)`` an ``__init__`` builds
    through a property the extraction cannot follow (schema 0.7.8's ``SchemaError.code``)."""
    return bool(v) and not any(p.segment.text.strip() for p in v if p.segment.is_literal)


def merged(own: tuple[Variant, ...], first: tuple[Variant, ...]) -> tuple[Variant, ...]:
    """A package class whose text is opaque keeps it, then the raise's first argument when that has
    text of its own: what such a class prints is built from its arguments, the first most often."""
    extra = tuple(v for v in first if not opaque(v) and v not in own)
    return (own + extra)[:MAX_TEMPLATES]


def flat_options(node: Node, bind: Bind, depth: int = 0) -> list[Node]:
    """A value's options with the call's arguments substituted, nested alternatives flattened (a key rebound
    on some paths, ``code = 'XPST0017'``, or passed on through a parameter with a literal default)."""
    node = subst(node, bind) if depth == 0 else node
    if isinstance(node, Alt) and depth < MAX_DEPTH:
        return [o for opt in node.options for o in flat_options(opt, bind, depth + 1)]
    return [node]


def percent_variants(variants: tuple[Variant, ...], how: str) -> tuple[Variant, ...]:
    """Each variant formatted with ``%``; one with no ``%`` field formatted with a value that is no mapping
    is Python's ``TypeError`` text instead (``textops.unconverted``), or also, when the value's type is not
    known."""
    out: list[Variant] = []
    error: Variant = (Piece(Segment(text=UNCONVERTED)),)
    failing = False
    mark = split_fails(how[len(PERCENT_FIELDS):])[0]
    for v in variants:
        fails = unconverted(v, mark)
        if fails != FAILS_ALWAYS:
            out.append(transform(v, how))
        failing = failing or bool(fails)
    return tuple([*out, error] if failing else out)[:MAX_TEMPLATES]  # the texts first
