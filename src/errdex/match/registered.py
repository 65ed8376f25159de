"""Tied sites told apart by the key their function is registered under, which the text quotes.

elementpath 5.1.4's XPath parsers register their handlers with decorator calls that name the token each
one serves (``@method(axis('ancestor-or-self'))``, ``@method('@')``) and their errors print the token:
``'ancestor-or-self' axis at line 1, column 1: [err:XPDY0002] Dynamic context required for evaluate``
is raised by ``raise self.missing_context()`` in eighty-two handlers, the same text at each; the quoted
``'ancestor-or-self'`` is the key of one of them.  At indexing each site is filed under its function's
decorator keys (``REGISTERED + key`` in ``MatchIndex.rewraps``, ``extract/registered.py``).  For a tied
group, the quoted word a placeholder's value starts with (``'ancestor-or-self' axis`` -> ``ancestor-or-self``), or
the whole value when it is one word (the template writes the quotes: ``'{self.symbol}' {self.label}``), that some sites of the group are registered under keeps those sites; only a strict part of the group is
kept, and, as a value naming a function (``named.py``), it is a hint: the answer is not confident on it.
A group none of whose sites is registered under the quoted word (a handler without a decorator) stays whole.
"""

from __future__ import annotations

import re

from errdex.match import rank as R
from errdex.match.index import T_SITE, MatchIndex
from errdex.match.indexdata import REGISTERED

MAX_KEY = 40  # characters of a key, as ``extract/registered.py`` keeps them (not imported: it loads ``ast``)
# a value's quoted word at its start: ``'ancestor-or-self' axis``, ``"@" attribute reference``
_QUOTED = re.compile(r"""\s*(['"])(\S{1,40}?)\1""")


def by_registration(idx: MatchIndex, top: R.Scored, sites: list[int]) -> tuple[list[int], str] | None:
    """The sites of the group (``top``'s and ``sites``) registered under the word a value quotes at its start,
    the top's site first when it is among them, and that word; ``None`` when no value quotes a word some of
    them are registered under, or all of them are."""
    group = [top.site, *sites]
    if len(group) < 2:
        return None
    for _, value in top.values:
        m = _QUOTED.match(value)
        key = m.group(2) if m is not None else value.strip()
        if not key or len(key) > MAX_KEY or any(c.isspace() for c in key):
            continue
        registered = {idx.templates[t][T_SITE] for t in idx.rewraps.get(REGISTERED + key, ())}
        kept = [s for s in group if s in registered]
        if kept and len(kept) < len(group):
            return kept, key
    return None


def note(key: str, dropped: int) -> str:
    """The sentence added to the tie note when the registration key narrowed the group."""
    return (f" The text quotes {key!r}, a key the decorators of this raise's function register it under: {dropped} other"
            f" place{'s' if dropped != 1 else ''} raising this text, registered otherwise, were set aside"
            " (a hint, not proof).")
