"""Tied sites of a class-built text told apart by the keyword arguments the text prints.

dataclass-wizard 1.0.0's ``ParseError`` builds its text in the class (``Failed to {p} field `{field}` in class
`{cls}`.{expectation}\\n  phase: {p}\\n{value}  error: {e!s}``) and then prints every extra keyword argument its
raise passed, one ``  name: value`` line each (``'\\n  '.join(f'{k}: {v}' for k, v in self.kwargs.items())``,
a usual way of printing ``**kwargs``).  Twenty-nine sites raise it, so the template alone is a group of
twenty-nine; but ``raise ParseError(e, o, base_type, 'load', valid_values=..., lookup_key=..., lookup_func=...)``
is the one whose keywords are the text's ``valid_values:``, ``lookup_key:`` and ``lookup_func:`` lines.

At indexing, each site whose text is its class's (``honesty.class_text``) files its templates under the
keyword names of its raise call (``KEYWORD + name`` in ``MatchIndex.rewraps``).  For a tied group, the names
that a placeholder's value shows as ``name: `` or ``name=`` after a space (the text the template left
unexplained, its line breaks made spaces)
pick the sites passing the most of them; only a strict part of the group is kept, and, as a value naming a
function (``named.py``), it is a hint: the answer is not confident on such a reading.
"""

from __future__ import annotations

import re

from errdex.match import rank as R
from errdex.match.index import T_SITE, MatchIndex
from errdex.match.indexdata import KEYWORD

# a name before ``: `` or ``=`` after a space or at the start: the text is compared with its line breaks
# made spaces (``verify.normalize``), so a ``  name: value`` line is a name after a space
_KEY_LINE = re.compile(r"(?:^|(?<=\s))([A-Za-z_]\w*)\s?[:=]\s")


def by_keywords(idx: MatchIndex, top: R.Scored, sites: list[int]) -> list[int] | None:
    """The sites of the group (``top``'s and ``sites``) whose raise passes the most keywords that the values
    print as ``name: ...`` lines, the top's site first when it is among them; ``None`` when no site passes
    any, or every site passes as many."""
    group = [top.site, *sites]
    if len(group) < 2:
        return None
    names = dict.fromkeys(m.group(1) for _, value in top.values for m in _KEY_LINE.finditer(value))
    shown: dict[int, int] = dict.fromkeys(group, 0)
    for name in names:
        for site in {idx.templates[t][T_SITE] for t in idx.rewraps.get(KEYWORD + name, ())}:
            if site in shown:
                shown[site] += 1
    most = max(shown.values())
    kept = [s for s in group if shown[s] == most]
    return kept if most and len(kept) < len(group) else None


def note(dropped: int) -> str:
    """The sentence added to the tie note when the keywords narrowed the group."""
    return (f" The keyword arguments the text prints are those these raises pass: {dropped} other"
            f" place{'s' if dropped != 1 else ''} raising this text, passing others, were set aside (a hint, not proof).")
