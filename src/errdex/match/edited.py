"""A message its handler edited before raising the same exception again: the original site first.

asn1crypto's seventeen handlers ``except (ValueError, TypeError) as e: e.args = (e.args[0] + '\\n    while
parsing %s' % type_name(self),) + args; raise e`` add a line to whatever was raised inside them
(``extract/edited.py`` reads their text as ``{e.args[0]}\\n    while parsing {type_name(self)}``, indexed under
``indexdata.EDITED``).  ``wrap.py`` finds that such a template wraps the original site's text, and a wrapper
ranks above what it wraps; but here no new exception was raised: the object is the one the original site
built (its traceback's innermost frame is that site), the handler only wrote into its ``args``.  So the
original ranks first, at the wrapper's score, and the handlers just below it, each naming it in ``wraps``
("wrapped by" that handler); a message without the added line never passed through a handler and never
verifies its template, so the handlers tie with nothing.

A class whose ``__str__`` wraps its first argument (pycaption's ``f"{self.__class__.__name__}({self.args[0]})"``)
prints the handler's added text inside its own frame: ``CaptionReadError(End timestamp is not greater than start
timestamp. (line 2))`` holds no caught value that is the original's whole text, but the text with the added part
cut out (`` (line 2)``) is (``cut_texts``).
"""

from __future__ import annotations

from collections.abc import Sequence

from errdex.match import rank as R
from errdex.match import verify as V
from errdex.match import wrap as W
from errdex.match.index import T_LITCHARS, T_SEGS, T_SITE, MatchIndex, words
from errdex.match.indexdata import EDITED, NO_TEXT, Segs, caught

BELOW = 0.9  # a handler's score under the original's (``reading.SECONDARY``: a wrapped message's place)


PRECISE = 12  # the original message's best retrieved templates verified
MAX_CUTS = 4  # places of the added text's first literal tried in one message


def originals(idx: MatchIndex, cands: Sequence[W.Candidate], exc_name: str, text: str = "") -> list[W.Candidate]:
    """The templates of the original messages that handlers' texts hold, verified on those messages alone:
    retrieval read the whole text, the added line's words with it, and may have left the original out
    (asn1crypto's ``First arc must be one of 0, 1 or 2, not %s``).  Only exact and whole readings are kept.
    A template already among ``cands`` is given again when it was not exact on the whole text but is on a
    cut text (``cut_texts``): the caller puts the exact reading in its place."""
    edited = set(idx.rewraps.get(EDITED, ()))
    seen = {c.template for c in cands}
    inexact = {c.template for c in cands if not c.exact}
    out: list[W.Candidate] = []
    values = dict.fromkeys(v for c in cands if c.template in edited and c.exact for v in _inner(idx, c, text))
    for value in values:
        cut = value not in {v.strip() for c in cands if c.template in edited for _, v in c.values}
        value_words = frozenset(words(value))
        for tno, _ in R.retrieve(idx, value)[:PRECISE]:
            if (tno in seen and not (cut and tno in inexact)) or tno in edited or not whole(idx, tno, value):
                continue
            score, method, vals = R.score_template(idx, tno, value, value_words, exc_name, None)
            if method == "exact":
                seen.add(tno)
                out.append(W.Candidate(tno, score, True, vals))
    return out


def whole(idx: MatchIndex, tno: int, value: str) -> bool:
    """Whether ``value``, the whole caught text a handler's template holds, is a message of template ``tno``:
    verified exactly and anchored at both ends (the value's ends are known, so a template with a placeholder
    at each end, ``{params[0]} value must be {params[1]}, not {params[2]}``, is read as well), with some
    literal text of its own (a bare ``{e}`` fits any value)."""
    if idx.templates[tno][T_LITCHARS] < NO_TEXT:
        return False
    v = V.verify(idx.templates[tno][T_SEGS], value)
    return v.exact and v.anchored_start and v.anchored_end


def _inner(idx: MatchIndex, c: W.Candidate, text: str) -> list[str]:
    """The texts a handler's exactly verified template says the original message was: the values of its
    placeholders, and ``text`` with the handler's added part cut out (``cut_texts``)."""
    out = dict.fromkeys(v.strip() for _, v in c.values if v.strip())
    if text:
        out.update(dict.fromkeys(cut_texts(idx.templates[c.template][T_SEGS], text)))
    return list(out)


def cut_texts(segs: Segs, text: str) -> list[str]:
    """``text`` with what a handler added to the caught text taken out, at each place (up to ``MAX_CUTS``) the
    added part's first literal has in it: the message the original site raised, when the class prints its first
    argument inside a frame of its own (``Error({args[0]})``) and the edit sits inside that frame.

    The template must be the caught text (``{e.args[0]}``) and the added part after it or before it, a part that
    opens and closes with a literal (`` (line {line_index})``): its extent is then known, each placeholder in it
    taking the fewest characters.  One ``find`` per literal and place."""
    at = [i for i, (lit, x) in enumerate(segs) if not lit and caught(x, None)]
    if len(at) != 1 or len(segs) < 2 or at[0] not in (0, len(segs) - 1):
        return []
    added = segs[1:] if at[0] == 0 else segs[:-1]
    if not (added[0][0] and added[-1][0]) or not added[0][1].strip():
        return []
    first = added[0][1]
    out: list[str] = []
    start = text.find(first)
    for _ in range(MAX_CUTS):
        if start < 0:
            break
        pos = start + len(first)
        for lit, x in added[1:]:
            if lit:
                found = text.find(x, pos)
                if found < 0:
                    return out
                pos = found + len(x)
        cut = (text[:start] + text[pos:]).strip()
        if cut and cut != text.strip() and cut not in out:
            out.append(cut)
        start = text.find(first, start + 1)
    return out


def original_first(idx: MatchIndex, cands: Sequence[W.Candidate], scores: list[float], exc_name: str,
                   text: str = "") -> list[float]:
    """The candidates' scores with each original text raised above the handlers that edited it.

    For each handler's template that verified exactly, the value its caught text holds is the original
    message: every candidate whose template is wholly that message (``wrap.wholly``) scores at least what
    it scores on that message pasted alone (two sites raising the very text with placeholders named apart
    stay tied, as they are without the added line), and the handler drops just below the best of them."""
    edited = set(idx.rewraps.get(EDITED, ()))
    if not edited:
        return scores
    at: dict[int, float] = {}
    for c, sc in zip(cands, scores, strict=True):
        at[c.template] = max(at.get(c.template, 0.0), sc)
    lifted: dict[int, float] = {}
    dropped: dict[int, float] = {}
    for c in cands:
        if c.template not in edited or not c.exact or c.template in dropped:
            continue
        site = idx.templates[c.template][T_SITE]
        best = 0.0
        for value in _inner(idx, c, text):
            value_words = frozenset(words(value))
            for o in cands:
                if o.template in edited or idx.templates[o.template][T_SITE] == site or not whole(idx, o.template, value):
                    continue
                alone, method, _ = R.score_template(idx, o.template, value, value_words, exc_name, None)
                if method == "exact":
                    lifted[o.template] = max(lifted.get(o.template, at[o.template]), alone)
                    best = max(best, lifted[o.template])
        if best > 0.0:
            dropped[c.template] = best * BELOW
    if not lifted:
        return scores
    return [lifted.get(c.template, min(sc, dropped.get(c.template, sc))) for c, sc in zip(cands, scores, strict=True)]
