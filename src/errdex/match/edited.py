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
"""

from __future__ import annotations

from collections.abc import Sequence

from errdex.match import rank as R
from errdex.match import verify as V
from errdex.match import wrap as W
from errdex.match.index import T_LITCHARS, T_SEGS, T_SITE, MatchIndex, words
from errdex.match.indexdata import EDITED, NO_TEXT

BELOW = 0.9  # a handler's score under the original's (``reading.SECONDARY``: a wrapped message's place)


PRECISE = 12  # the original message's best retrieved templates verified


def originals(idx: MatchIndex, cands: Sequence[W.Candidate], exc_name: str) -> list[W.Candidate]:
    """The templates of the original messages that handlers' texts hold, verified on those messages alone:
    retrieval read the whole text, the added line's words with it, and may have left the original out
    (asn1crypto's ``First arc must be one of 0, 1 or 2, not %s``).  Only exact and whole readings are kept."""
    edited = set(idx.rewraps.get(EDITED, ()))
    seen = {c.template for c in cands}
    out: list[W.Candidate] = []
    values = dict.fromkeys(v.strip() for c in cands if c.template in edited and c.exact for _, v in c.values)
    for value in (v for v in values if v):
        value_words = frozenset(words(value))
        for tno, _ in R.retrieve(idx, value)[:PRECISE]:
            if tno in seen or tno in edited or not whole(idx, tno, value):
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


def original_first(idx: MatchIndex, cands: Sequence[W.Candidate], scores: list[float], exc_name: str) -> list[float]:
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
        for value in dict.fromkeys(v.strip() for _, v in c.values if v.strip()):
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
