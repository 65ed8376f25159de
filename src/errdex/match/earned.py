"""Confidence the input must earn: a top match is confident only when its text rules the other readings out.

An exact top match is a reading of the text: its literals where the text has them, its placeholders
holding the rest.  Another exactly verified template may read the very same text another way: its own
literals where the top has a placeholder (asn1tools' ``Expected data of type str, but got {data}.``
under the generic ``{location}: Expected data of type {self.TYPE.__name__}, but got {data}.``), or its
placeholders where the top has literal text (RestrictedPython's ``{self.__mod.__name__}.{attr} is not
safe`` printing ``string.Formatter is not safe``, the very text another raise writes out).  The top's
score says its template fits better; it does not say the other could not have printed the text.

The top keeps its confidence only when some of its own literal text (a letter or a digit of it) is
text the rival cannot read: outside the rival's reading (before its first literal when it starts with
one, after its last), or inside a value of the rival that is no single word (a value holding blanks is
a sentence the rival would have to be handed whole: ``Unknown option {x}`` does not read ``Unknown
option foo. Valid options: a, b`` in any way that rules out the template writing ``Valid options``).
A rival that reads less of the text than the top (a lead before its first literal that the top takes
as a value: aenum's ``{cls_name}: attempt to reuse name: {key}`` against ``attempt to reuse name: {key}``
printing ``'Color1': attempt to reuse name: 'red'``) counts only when it writes a word of its own where
the top has a value (asn1tools' ``str``): otherwise the top explains more, and nothing less.
A rival counts when its class agrees with the printed one at least as well as the top's, and when it
has text of its own (``RIVAL_TEXT`` letters and digits: ``{name}: {msg}`` reads everything and says
nothing).  A frame that pins the top decides; a rival that wraps the top, or that the top wraps, is
one reading, not two (``wrap.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from errdex.match import rank as R
from errdex.match import verify as V
from errdex.match.index import S_EXC, S_EXC_NAME, T_SEGS, MatchIndex

_PYTHON_LIB = re.compile(r"[/\\][Ll]ib[/\\]python\d+(?:\.\d+)?t?[/\\]")
_INSTALLED = ("site-packages", "dist-packages")
RIVAL_TEXT = 8  # letters and digits of literal text a rival needs to count as a reading of its own

Segs = tuple[tuple[bool, str], ...]


def rival_reading(idx: MatchIndex, top: R.Scored, candidates: Iterable[R.Scored], text: str, exc_name: str,
                  tied: frozenset[int] = frozenset()) -> R.Scored | None:
    """The first candidate whose reading of ``text`` covers every letter and digit of the top's literal
    text (``covers``), of a class at least as likely as the top's, or None: the top then earned it."""
    if top.pinned or top.method != "exact" or not text:
        return None
    segs = idx.templates[top.template][T_SEGS]
    v = V.verify(segs, text)
    if not v.exact:
        return None
    mine = idx.sites[top.site]
    own_factor = R.type_factor(exc_name, mine[S_EXC_NAME], mine[S_EXC])
    for c in candidates:
        if c.site == top.site or c.site in tied or c.method != "exact" or c.pinned or c.template == top.template \
                or c.wraps == top.site or top.wraps == c.site:
            continue
        row = idx.sites[c.site]
        if R.type_factor(exc_name, row[S_EXC_NAME], row[S_EXC]) < own_factor:
            continue  # the printed class rules it out
        other = idx.templates[c.template][T_SEGS]
        if R.own_letters(other) < RIVAL_TEXT or other == segs:
            continue
        # its first reading, or a second one that gives every value some text (``verify.other_readings``:
        # codext's `... in {item} {position}` first read with an empty item, `position 22` one value)
        if _reads(segs, v, other, V.verify(other, text), text) or any(
                _reads(segs, v, other, w, text) for w in V.other_readings(other, text) if _every_value(other, w, text)):
            return c
    return None


def _every_value(segs: Segs, w: V.Verification, text: str) -> bool:
    """Whether a second reading gives every placeholder some text: the values-first reading the first one
    missed (codext's ``{item} {position}`` as ``position`` and ``22``), not spaces picked one by one to cut
    a sentence into words (eql's ``{message} {source} {leading}{"^" * width}`` read as ``Unknown``, ``pipe``,
    ``badPipe`` and nothing)."""
    return w.exact and all(value for _, value in V.values(segs, text, w))


def _reads(segs: Segs, v: V.Verification, other: Segs, w: V.Verification, text: str) -> bool:
    """Whether the rival's reading ``w`` covers the top's literal text and explains as much of the text as
    the top's reading ``v`` (or writes a word of its own where the top takes a value)."""
    return w.exact and covers(segs, v, other, w, text) and (
        _extent(other, w, len(text)) >= _extent(segs, v, len(text)) or own_word(other, w, v, text))


def _extent(segs: Segs, v: V.Verification, n: int) -> tuple[int, int]:
    """How much of the text a reading explains, as ``(-start, end)`` for a comparison of inclusion: from
    its first literal (or the start, when a placeholder opens it) to its last (or the end)."""
    spans = v.literal_spans
    if not spans:
        return 0, n
    return -(0 if not segs[0][0] else spans[0][0]), n if not segs[-1][0] else spans[-1][1]


def own_word(other: Segs, w: V.Verification, v: V.Verification, text: str) -> bool:
    """Whether the rival's reading ``w`` writes a letter or digit that the top's reading ``v`` does not:
    text the rival explains as its own where the top only takes a value (asn1tools' ``str``)."""
    mine = [False] * len(text)
    for a, b in v.literal_spans:
        mine[a:b] = [True] * (b - a)
    return any(text[p].isalnum() and not mine[p] for a, b in w.literal_spans for p in range(a, b))


def covers(segs: Segs, v: V.Verification, other: Segs, w: V.Verification, text: str) -> bool:
    """Whether the reading ``w`` of template ``other`` accounts for every letter and digit that the
    reading ``v`` of ``segs`` takes as its literal text: in one of ``other``'s literals, or in one of its
    values that holds no blank (a word a value happened to be)."""
    read = _read(other, w, len(text), text)
    for span in v.literal_spans:
        for p in range(*span):
            if text[p].isalnum() and not read[p]:
                return False
    return True


def _read(segs: Segs, v: V.Verification, n: int, text: str) -> list[bool]:
    """Per character of ``text``: whether the reading ``v`` of ``segs`` accounts for it (a literal of it,
    or a value without a blank)."""
    read = [False] * n
    spans = v.literal_spans
    for a, b in spans:
        read[a:b] = [True] * (b - a)
    # the values: between two literals, and before the first / after the last when a placeholder is there
    bounds = [(spans[i][1], spans[i + 1][0]) for i in range(len(spans) - 1)]
    if spans and not segs[0][0]:
        bounds.append((0, spans[0][0]))
    if spans and not segs[-1][0]:
        bounds.append((spans[-1][1], n))
    for a, b in bounds:
        if a < b and not any(ch.isspace() for ch in text[a:b]):
            read[a:b] = [True] * (b - a)
    return read


def converted_elsewhere(path: str) -> bool:
    """Whether a printed frame's file is Python's standard library (``/usr/lib/python3.13/argparse.py``) or
    another installed package (``.../site-packages/click/core.py``): code that is neither the indexed
    library nor the user's.  When the reported exception's innermost frame is there, that code raised it
    while handling the library's error it caught (argparse's ``parse_known_args`` turns the
    ``ArgumentTypeError`` a ``type=`` callback raised into ``SystemExit: 2``): the library's raise in the
    chain explains the cause, not the error reported, and is no confident answer (``explain._chain_cap``)."""
    norm = path.replace("\\", "/")
    return any(f"/{p}/" in norm for p in _INSTALLED) or bool(_PYTHON_LIB.search(path))


def lead(segs: Segs, text: str) -> str:
    """The text before a template's first literal when the template begins with one and is verified
    exactly past the start of ``text``: words its raise did not write.  CLIs print a library's error
    after a tag of their own (asn1tools' and cantools' ``sys.exit('error: {}'.format(str(e)))``,
    argparse's ``prog: error: ...``): ``error: Expected one .py-file, but got 2.`` is the text of the
    library's raise, printed by whoever caught it and added the tag, not that raise's message.  Without a
    traceback nothing says which (``labels.earned``); the top keeps its score and rank.  Only a label
    ending in a colon counts, the way code prints a caught error under a name of its own (``f"{label}:
    {e}"``); a bracketed tag (``[rng] too big``, a logger's) stays the raise's own text."""
    if not segs or not segs[0][0] or not text:
        return ""
    v = V.verify(segs, text)
    first = v.spans[0] if v.exact and v.spans else None
    before = text[: first[0]] if first is not None and first[0] > 0 else ""
    return before if before.rstrip().endswith(":") and before.strip() != ":" else ""
