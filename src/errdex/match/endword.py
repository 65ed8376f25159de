"""Tied sites told apart by the word a value ends with, when it is the whole name of a function of the group.

cyclopts 4.23.1 converts a command-line token by the type it is bound to, one small converter a type
(``def _bool(s: str) -> bool``, ``_int``, ``_bytes``...), and a converter that cannot read the token raises
``CoercionError(target_type=bool)``, whose class prints ``Invalid value for {keyword}: unable to convert "{value}"
into {type}.``; the class text is the same at twenty sites, ``_convert`` and its helpers among them.  The
value that fills it ends with the type's name (``... into bool.``), and ``_bool`` is the one function of the
group named by that word alone.  yamlpath's ``KeywordSearches.distinct`` / ``.max`` / ``.min`` /
``.unique`` raise one text naming the keyword (``The max([NAME]) Search Keyword ...``), configupdater's
``BlockBuilder.section`` the section kind, cel-python's ``Evaluator.conditionalor`` its node: a function
named for the one thing it handles prints that thing last.

For a tied group, the last word of a placeholder's value (letters and digits, case aside; outside the parts it
quotes, which cite what was handed in, not what handled it) that is the whole
name of some of the group's functions (a name of one word, three letters or more: ``_bool``, ``max``;
``_load_point`` is two words and ``named.py``'s) keeps those sites; only a strict part of the group is
kept, and, as a value naming a function (``named.py``), it is a hint: the answer is not confident on it.

A value that is a caught exception's own text (``{e}`` of a re-raise: python-toon 0.2.0's ``_Parser.key``,
``try: return _parse_key(token) except ToonDecodeError as e: raise self.error(line, str(e))``) is the text some
other raise printed, whose last word says nothing of the re-raising function's name (``missing colon after key:
'user'`` ends with ``key``, raised in ``parse_field_line``): it is not read (issue 17's ninety-third round).

Measured over every replayed event of rounds 12..33 (docs/matching.md, the seventy-second round): it
narrowed 51 groups (message and last line) and kept the true site in all; a value's *any* word, or the last word
of a name of several words, lost the true site in a third of the groups it narrowed (pyspnego's free
``Context: ...`` text, dataclass-wizard's ``phase: load``) and is not used.
"""

from __future__ import annotations

import re

from errdex.match import rank as R
from errdex.match.index import S_QUAL, MatchIndex
from errdex.match.indexdata import caught

_VALUE_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")  # a part a value cites verbatim: a repr, a user's input in quotes
_NAME_WORD = re.compile(r"[A-Za-z][a-z0-9]*|[A-Z]+(?![a-z])")  # ``snake_case`` and ``camelCase`` words
MIN_WORD = 3  # letters a function's name needs to be named by a value's word


def by_end_word(idx: MatchIndex, top: R.Scored, sites: list[int]) -> tuple[list[int], str] | None:
    """The sites of the group (``top``'s and ``sites``) in a function whose whole name is the last unquoted
    word of one of the values, the top's site first when it is among them, and that word; ``None`` when no value's
    last word names a strict part of the group."""
    group = [top.site, *sites]
    if len(group) < 2:
        return None
    names = [one_word(idx.sites[s][S_QUAL]) for s in group]
    if not any(names):
        return None
    for expr, value in top.values:
        if caught(expr.strip("{}"), None):  # another raise's text, re-raised (``{e}``, ``str(err)``)
            continue
        words = _VALUE_WORD.findall(_QUOTED.sub(" ", value))
        if not words:
            continue
        word = words[-1].lower()
        kept = [s for s, n in zip(group, names, strict=True) if n == word]
        if kept and len(kept) < len(group):
            return kept, word
    return None


def one_word(qualname: str) -> str:
    """A function's own name when it is one word of ``MIN_WORD`` letters or more, lower-cased (``_bool`` ->
    ``bool``, ``KeywordSearches.max`` -> ``max``); ``""`` for a name of several words (``_load_point``,
    ``getValue``) or a short one."""
    own = next((p for p in reversed(qualname.split(".")) if p != "<locals>"), "")
    words = [w for chunk in own.split("_") for w in _NAME_WORD.findall(chunk)]
    return words[0].lower() if len(words) == 1 and len(words[0]) >= MIN_WORD else ""


def note(word: str, dropped: int) -> str:
    """The sentence added to the tie note when a value's last word narrowed the group."""
    return (f" A value ends with {word!r}, the whole name of this raise's function: {dropped} other"
            f" place{'s' if dropped != 1 else ''} raising this text, in functions named otherwise, were set aside"
            " (a hint, not proof).")
