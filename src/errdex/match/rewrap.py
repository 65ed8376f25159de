"""Re-raises around a caught exception's message, found although their own text is too little.

``raise PylockValidationError(e, context=key) from e`` prints the caught message and `` in 'hashes'``;
``raise InvalidRequirement(str(e)) from e`` prints the caught message alone, as another class.  The
index lists such templates per class (``MatchIndex.rewraps``); ``explain`` adds those of the printed
class to the candidates, and ``wrap.py`` (or, for a bare ``{e}``, ``bare_rewraps``) ties each to the
message it holds, so the re-raise ranks first and the caught error just below it.
"""

from __future__ import annotations

from errdex.match import rank as R
from errdex.match import verify as V
from errdex.match import wrap as W
from errdex.match.index import S_EXC, S_EXC_NAME, T_LITCHARS, T_SEGS, T_SITE, MatchIndex

_REWRAPS = 24  # re-raising templates of one class tried per exception of the input


def rewrap_pool(idx: MatchIndex, exc_name: str, cands: list[W.Candidate], seen: set[int]) -> list[int]:
    """Templates that re-raise a caught exception's message (``raise B(f"{e} in {key}") from e``):
    of the printed class, or, with no class printed, of the classes whose text verified.  Their own
    literal text is too little for retrieval to find them, yet they are what raised the message."""
    names = [exc_name] if exc_name and exc_name != R.REPR_MESSAGE else list(dict.fromkeys(
        idx.sites[idx.templates[c.template][T_SITE]][S_EXC_NAME] for c in cands if c.exact))
    out: list[int] = []
    for name in names:
        out.extend(t for t in idx.rewraps.get(name, ())[:_REWRAPS] if t not in seen)
    return out


def bare_rewraps(idx: MatchIndex, cands: list[W.Candidate], methods: list[str], exc_name: str, text: str,
                  seen: set[int]) -> dict[int, int]:
    """``raise InvalidRequirement(str(e)) from e``: a template that is only the caught message, of the
    printed class, re-raises the best exactly verified template when that one's class is not the printed
    one.  It is then an exact candidate scored as the message it holds ({outer: inner})."""
    if not exc_name or exc_name == R.REPR_MESSAGE:
        return {}
    inner = max((c for c in cands if c.exact), key=lambda c: c.score, default=None)
    if inner is None:
        return {}
    raised = idx.sites[idx.templates[inner.template][T_SITE]]
    if R.type_factor(exc_name, raised[S_EXC_NAME], raised[S_EXC]) >= 0.9 or R.subclass_of(exc_name, raised[S_EXC_NAME]):
        return {}
    segs = idx.templates[inner.template][T_SEGS]
    v = V.verify(segs, text)
    if not (v.anchored_start and v.anchored_end) or not (segs[0][0] or segs[-1][0]):
        # (a template with a placeholder at each end, `{a} is not {b}`, fits anywhere: it proves nothing)
        return {}  # `str(e)` is the caught message itself: text around it comes from elsewhere
    score = R.exact_score(idx.templates[inner.template][T_LITCHARS], v, text)
    out: dict[int, int] = {}
    for k, c in enumerate(cands):
        t = idx.templates[c.template]
        if c.template in seen or t[T_LITCHARS] or len(t[T_SEGS]) != 1:
            continue
        cands[k] = W.Candidate(c.template, score, True, (("{" + t[T_SEGS][0][1] + "}", text),))
        methods[k] = "exact"
        out[c.template] = inner.template
    return out


def forwarded(idx: MatchIndex, cands: list[W.Candidate]) -> dict[int, int]:
    """``raise BadTimeSignature(str(e))``, whose site carries the templates of the caught class's sites
    (``extract/forwarded.py``): an exact match of one of those is the re-raise of the candidate whose own
    first template it is ({forwarded: own}), named in ``wraps`` as a bare re-raise above is."""
    own = {idx.templates[c.template][T_SEGS]: c.template for c in cands
           if c.exact and idx.site_templates[idx.templates[c.template][T_SITE]][:1] == (c.template,)}
    out: dict[int, int] = {}
    for c in cands:
        site = idx.templates[c.template][T_SITE]
        first = idx.site_templates[site][0] if idx.site_templates[site] else c.template
        if c.exact and first != c.template and _bare(idx.templates[first][T_SEGS]):
            inner = own.get(idx.templates[c.template][T_SEGS])
            if inner is not None and idx.templates[inner][T_SITE] != site:
                out[c.template] = inner
    return out


def _bare(segs: tuple[tuple[bool, str], ...]) -> bool:
    return len(segs) == 1 and not segs[0][0]
