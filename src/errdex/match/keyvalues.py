"""Tied sites told apart by the value a ``name=value`` part of the text shows and one raise passes by keyword.

pathvalidate 3.3.1's ``ValidationError.__str__`` joins ``platform={self.platform.value}``, ``value=...`` and
other parts its raise passed by keyword; nine sites raise ``InvalidCharError`` with one template
(``[PV1100] invalid characters found: {...}``), and ``platform=Platform.UNIVERSAL`` is passed by one of them,
``platform=Platform.WINDOWS`` by four.  Extraction keeps each raise's keyword values that are one literal
text (``extract/kwvalues.py``: ``platform=universal``) and the names of the others (``value``).

For a tied group, each ``name=value`` part of a placeholder's value (quotes of a repr taken off) that some site
of the group passes with that very text keeps those sites and the ones passing ``name`` with a value known
only at run time (they may print it too); the sites passing another literal, or not passing the keyword, are
set aside.  Only a strict part of the group is kept, and no part when no site passes the shown text: a class
printing a value its own way (an enum member's name, not its value) narrows nothing.  A hint, as
``keywords.py``: the answer is never confident on it.
"""

from __future__ import annotations

import re

from errdex.match import rank as R
from errdex.match.index import T_SITE, MatchIndex
from errdex.match.indexdata import KEYVALUE

# ``name=value`` after a space, a comma, an opening bracket or at the start: a quoted value whole, else up to
# the next space, comma or closing bracket
_PAIR = re.compile(r"(?:^|(?<=[\s,(\[{]))([A-Za-z_]\w*)=('[^']*'|\"[^\"]*\"|[^\s,;)\]}]+)")


def _unquoted(value: str) -> str:
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"" else value


def _sites(idx: MatchIndex, key: str) -> set[int]:
    return {idx.templates[t][T_SITE] for t in idx.rewraps.get(KEYVALUE + key, ())}


def by_values(idx: MatchIndex, top: R.Scored, sites: list[int]) -> tuple[list[int], str] | None:
    """The sites of the group (``top``'s and ``sites``, in that order) that pass the keyword values the text
    shows, with the first such ``name=value``; ``None`` when no shown value is passed by a site of the group,
    or every site is kept."""
    group = [top.site, *sites]
    if len(group) < 2:
        return None
    keep = set(group)
    shown = ""
    for _, value in top.values:
        for m in _PAIR.finditer(value):
            name, text = m.group(1), _unquoted(m.group(2))
            equal = _sites(idx, f"{name}={text}") & keep
            if not equal:
                continue
            keep = equal | (_sites(idx, name) & keep)
            shown = shown or f"{name}={text}"
    kept = [s for s in group if s in keep]
    return (kept, shown) if shown and len(kept) < len(group) else None


def note(shown: str, dropped: int) -> str:
    """The sentence added to the tie note when a keyword's value narrowed the group."""
    return (f" The text shows {shown!r}, a value these raises pass by keyword: {dropped} other"
            f" place{'s' if dropped != 1 else ''} raising this text, passing another, were set aside (a hint, not proof).")
