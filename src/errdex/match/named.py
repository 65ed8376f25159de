"""Tied sites in functions named for what they read: the value that fills the text names the function.

geomet 1.1.0 raises ``ValueError(INVALID_WKT_FMT % string)`` (``Invalid WKT: `%s```) at fourteen sites, two
in each of ``_load_point``, ``_load_linestring``, ``_load_polygon``, ``_load_multipoint``... and the value is
the WKT text each was given: ``Invalid WKT: `MULTIPOINT 0 1, 0 0``` was raised in ``_load_multipoint``.  The
text itself is the same at every site, so the tie stands, but the value's first word is a word of the name
of one function (split at ``_``, case aside): the group narrows to that function's sites (28 round-22
events were a group of fourteen).  Only a strict part of a group is kept, and the answer is never confident
on such a reading (a name is a hint, not proof).
"""

from __future__ import annotations

import re

from errdex.match import rank as R
from errdex.match.index import S_QUAL, MatchIndex

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
MIN_WORD = 3  # letters a value's first word needs to name anything


def named_by_value(idx: MatchIndex, top: R.Scored, sites: list[int]) -> list[int] | None:
    """The sites of the group (``top``'s and ``sites``) in the function the value's first word names, the
    top's site first when it is among them; ``None`` unless every site of the group is in a function of one
    family (names of two words or more that differ in their last word only: ``_load_point``,
    ``_load_multipoint``...) and that word names a strict part of the group (python-jsonpath's ``_index``,
    ``_getitem`` and ``_handle_type_error`` raise one text too, and ``index out of range`` names none)."""
    group = [top.site, *sites]
    if len(group) < 2:
        return None
    names = [_family(idx.sites[s][S_QUAL]) for s in group]
    if any(n is None for n in names) or len({n[0] for n in names if n is not None}) != 1:
        return None
    for _, value in top.values:
        m = _WORD.match(value.strip().lstrip("`'\"([{<"))
        if m is None or len(m.group(0)) < MIN_WORD:
            continue
        word = m.group(0).lower()
        kept = [s for s, n in zip(group, names, strict=True) if n is not None and n[1] == word]
        if kept and len(kept) < len(group):
            return kept
    return None


def _family(qualname: str) -> tuple[str, str] | None:
    """A function's own name as (its words but the last, its last word), lower-cased: ``_load_multipoint`` ->
    (``load``, ``multipoint``); ``None`` for a name of one word."""
    words = [w.lower() for w in qualname.rsplit(".", 1)[-1].split("_") if w]
    return ("_".join(words[:-1]), words[-1]) if len(words) > 1 else None


def note(function: str, dropped: int) -> str:
    """The sentence added to the tie note when the value narrowed the group."""
    return (f" The value's first word names `{function}`: {dropped} other place{'s' if dropped != 1 else ''}"
            " raising this text, in functions named otherwise, were set aside (a hint, not proof).")
