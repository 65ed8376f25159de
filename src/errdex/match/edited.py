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
from errdex.match.index import T_LITCHARS, T_SEGS, T_SITE, MatchIndex
from errdex.match.indexdata import EDITED

BELOW = 0.9  # a handler's score under the original's (``explain._SECONDARY``: a wrapped message's place)


def original_first(idx: MatchIndex, cands: Sequence[W.Candidate], scores: list[float]) -> list[float]:
    """The candidates' scores with each original text raised above the handlers that edited it.

    For each handler's template that verified exactly, the value its caught text holds is the original
    message: every candidate whose template is wholly that message (``wrap.wholly``) is lifted to the
    handler's score, scaled by how well it explains that message alone (two sites raising the very text
    with placeholders named apart stay tied, as they are when the message is pasted without the added
    line), and the handler drops just below the best of them."""
    edited = set(idx.rewraps.get(EDITED, ()))
    if not edited:
        return scores
    at = {c.template: sc for c, sc in zip(cands, scores, strict=True)}
    lifted: dict[int, float] = {}
    dropped: dict[int, float] = {}
    for c in cands:
        if c.template not in edited or not c.exact or c.template in dropped:
            continue
        site = idx.templates[c.template][T_SITE]
        fits: dict[int, float] = {}
        for value in (v for _, v in c.values if v.strip()):
            for o in cands:
                segs = idx.templates[o.template][T_SEGS]
                if o.template in edited or idx.templates[o.template][T_SITE] == site or not W.wholly(segs, value):
                    continue
                alone = R.exact_score(int(idx.templates[o.template][T_LITCHARS]), V.verify(segs, value), value)
                fits[o.template] = max(fits.get(o.template, 0.0), alone)
        if not fits:
            continue
        top = max(fits.values())
        for t, alone in fits.items():
            lifted[t] = max(lifted.get(t, 0.0), at[c.template] * alone / top)
        dropped[c.template] = max(lifted[t] for t in fits) * BELOW
    if not lifted:
        return scores
    return [lifted.get(c.template, min(sc, dropped.get(c.template, sc))) for c, sc in zip(cands, scores, strict=True)]
