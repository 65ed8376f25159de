"""Scoring the candidate templates of one exception of the input into its best candidate per site.

``score_exception`` retrieves and verifies the templates whose text the message may be (``rank.py``),
adds those of pinned sites and of handlers (``rewrap.py``, ``edited.py``), scores wrappers around
wrapped texts (``wrap.py``, ``_wrapped_scores``, ``_below_wrappers``), lowers texts that rival text
explains (``rank.rival_factors``, ``absorbed.py``) and weighs what the traceback's frames say
(``_frame_evidence``).  It is the one stage that turns candidates into scores: ``explain.py``
orchestrates it over the input's exceptions, and the answer is built from its ``best`` map
(``answer.py``, ``labels.py``).
"""

from __future__ import annotations

from errdex.match import absorbed as AB
from errdex.match import edited as ED
from errdex.match import rank as R
from errdex.match import reading as RD
from errdex.match import rewrap as RW
from errdex.match import verify as V
from errdex.match import where as WH
from errdex.match import wrap as W
from errdex.match.frames import may_raise
from errdex.match.index import (
    S_EXC,
    S_EXC_NAME,
    T_LITCHARS,
    T_SEGS,
    T_SITE,
    MatchIndex,
    words,
)
from errdex.match.indexdata import GATED, STDLIB, WORDLESS_OF
from errdex.match.lines import BUILTIN_EXCEPTIONS
from errdex.match.model import Frame, Method, ParsedException
from errdex.match.origin import cpython_wording

PRECISE = 12  # candidates whose fuzzy score uses every word of the template
_ELEMENT = 0.45  # a template found as one element of a list or dict that the message prints
_OTHER_CLASS = 0.45  # the most a text scores at a site raising another class than the one printed
_AT_LINE = 0.45  # a pinned site raising another class than the one printed: the line, never confident
_VETO = 0.5  # the traceback shows the error surfaced elsewhere than at this site


def score_exception(
    idx: MatchIndex, exc: ParsedException, where: WH.Where, factor: float, best: dict[int, R.Scored],
    cap: float = 1.0,
) -> None:
    """Score the candidates of one exception of the input into ``best`` (site -> best candidate);
    no score above ``cap``."""
    raw = V.clip(RD.unrepr(exc, idx))
    text = V.normalize(raw).strip()
    text_words = frozenset(words(text))
    pinned_t: list[tuple[int, float | None]] = [(t, None) for s in sorted(where.pins) for t in idx.site_templates[s]]
    skip = {t for t, _ in pinned_t}
    exc_name = RD.printed_type(exc)
    found: list[tuple[int, float | None]] = [(t, sh) for t, sh in (R.retrieve(idx, text) if text else []) if t not in skip]
    if text and exc_name and exc_name != R.REPR_MESSAGE:  # the printed class's templates of no word (``WORDLESS_OF``)
        have = {t for t, _ in found} | skip
        found.extend((t, 0.0) for t in idx.rewraps.get(WORDLESS_OF + exc_name, ()) if t not in have)
    confirmed = False  # a pinned site's template agrees with the message: the pin is certain
    drift_ok = not cpython_wording(exc.message)  # the interpreter's own words never come from a raise
    # a class surely printed: qualified, or a builtin's name (`Error: text` may be a tag, not a class)
    named_class = "." in exc.exception or exc.exception in BUILTIN_EXCEPTIONS
    cands: list[W.Candidate] = []
    methods: list[str] = []
    container = V.container_repr(text)
    tag = RD.self_named(exc)  # `Error: text` read whole: a template that opens with `Error:` printed it as text
    alike: dict[tuple[object, ...], tuple[float, str, tuple[tuple[str, str], ...]]] = {}
    for n, (tno, share) in enumerate(pinned_t + found):
        # the best candidates get an exact word overlap, the rest the retrieval's estimate; a copy of a text
        # raised as the same class (``rank._distinct`` keeps them together) scores as the first one did
        site_row = idx.sites[idx.templates[tno][T_SITE]]
        key = (idx.templates[tno][T_SEGS], site_row[S_EXC_NAME], site_row[S_EXC], None if n < PRECISE else share)
        got = alike.get(key)
        if got is None:
            got = alike[key] = _scored(idx, tno, text, text_words, _printed(idx, tno, exc_name, tag),
                                       None if n < PRECISE else share, container)
        score, method, vals = got
        cands.append(W.Candidate(tno, score, method == "exact", vals))
        methods.append(method)
    seen = {c.template for c in cands}
    for tno in RW.rewrap_pool(idx, exc_name, cands, seen):
        score, method, vals = _scored(idx, tno, text, text_words, _printed(idx, tno, exc_name, tag), None, container)
        cands.append(W.Candidate(tno, score, method == "exact", vals))
        methods.append(method)
    place = {c.template: i for i, c in enumerate(cands)}
    for c in ED.originals(idx, cands, exc_name, text):  # the message a handler edited, read without its added line
        if (i := place.get(c.template, -1)) >= 0:  # read fuzzily on the whole text: its text with the edit cut out
            cands[i], methods[i] = c, "exact"
            continue
        cands.append(c)
        methods.append("exact")
    wraps = W.find_wraps(idx, cands, text, V.line_breaks(raw))
    for outer_t, inner_t in RW.bare_rewraps(idx, cands, methods, exc_name, text, seen).items():
        wraps.setdefault(outer_t, inner_t)
    text_scores = _wrapped_scores(idx, cands, wraps, text, exc_name)
    gated = set(idx.rewraps.get(GATED, ()))  # raised on some Pythons only: the stdlib's text elsewhere
    stdlib = set(idx.rewraps.get(STDLIB, ()))  # a standard-library class's own text: the stdlib raises it too
    named = {**RW.forwarded(idx, cands), **wraps}  # what each wraps, for the answer (a forward is no wrap)
    groups = W.wrap_groups(wraps)
    exact = [i for i, c in enumerate(cands) if c.exact]
    exact_templates = [cands[i].template for i in exact]
    spans = R.literal_spans(idx, exact_templates, text)  # verified once, for the two rules below
    shares = iter(R.rival_factors(idx, exact_templates, spans, text, groups))
    text_scores = [s * next(shares) if c.exact else s for c, s in zip(cands, text_scores, strict=True)]
    text_scores = _below_wrappers(cands, W.wrapped_pairs(idx, cands, wraps, text), text_scores)
    # an edge placeholder's text explained by a rival
    for i, s in zip(exact, AB.dominated(idx, exact_templates, [text_scores[i] for i in exact], spans, text, groups),
                    strict=True):
        text_scores[i] = s
    text_scores = ED.original_first(idx, cands, text_scores, exc_name, text)  # the message a handler edited: its original first
    for c, method, score in zip(cands, methods, text_scores, strict=True):
        site = idx.templates[c.template][T_SITE]
        pinned = site in where.pins
        if named_class and not pinned and not R.may_raise(idx, exc_name, site):
            # the site raises another class, written by its name: it never printed this one (jsonschema's
            # `raise SchemaError.create_from(error)` prints ValidationError's text from their base's __str__)
            score = min(score, _OTHER_CLASS)
        score, m = _frame_evidence(idx, site, score, method, pinned, where.elsewhere, confirmed,
                                   where.innermost_lib, exc_name, drift_ok)
        if pinned and m in ("exact", "frame"):
            confirmed = True
        score = min(score * factor, cap if pinned or c.template not in gated else min(cap, R.THRESHOLD * 0.9))
        if c.template in stdlib and not pinned:
            score *= R.THRESHOLD * 0.9  # below the threshold, in the same order (a cap would tie them all)
        prev = best.get(site)
        if prev is None or score > prev.score:
            inner = named.get(c.template)
            # (a reading that found no wrap keeps the one another reading of the same template found)
            kept = prev.wraps if prev is not None and prev.template == c.template else -1
            best[site] = R.Scored(c.template, site, score, m, pinned, c.values,
                                  idx.templates[inner][T_SITE] if inner is not None else kept)


def _printed(idx: MatchIndex, tno: int, exc_name: str, tag: str) -> str:
    """The class printed, as template ``tno`` reads it: none when the `Type: ` read whole opens its text (the
    word is the site's own literal text, ``reading.opens_with``), so a site raising another class loses nothing."""
    return "" if tag and RD.opens_with(idx.templates[tno][T_SEGS], tag) else exc_name


def _scored(idx: MatchIndex, tno: int, text: str, text_words: frozenset[str], exc_name: str, share: float | None,
            container: bool) -> tuple[float, str, tuple[tuple[str, str], ...]]:
    """``rank.score_template``; a template found as one element of a printed list or dict is no exact match."""
    score, method, vals = R.score_template(idx, tno, text, text_words, exc_name, share)
    if container and score > 0.0 and V.element_of(idx.templates[tno][T_SEGS], text):
        return score * _ELEMENT, "fuzzy", ()
    return score, method, vals


def _wrapped_scores(
    idx: MatchIndex, cands: list[W.Candidate], wraps: dict[int, int], text: str, exc_name: str
) -> list[float]:
    """The candidates' text scores once wrapping is known (``wrap.py``).

    A wrapper is scored with its literal text and its inner message's; a
    wrapped template ranks just below the best of its wrappers (and, in a
    chain of wraps, below the one outside it).
    """
    if not wraps:
        return [c.score for c in cands]
    own = {c.template: c.score for c in cands}
    site_best: dict[int, float] = {}
    for c in cands:
        if c.exact:
            s = idx.templates[c.template][T_SITE]
            site_best[s] = max(site_best.get(s, 0.0), c.score)
    for outer, inner in wraps.items():
        # at least as good as the wrapped site's best reading: when another of that site's templates
        # explains the whole text too (a class that appends " in {context}" itself), the text cannot
        # tell a direct raise from the re-raise around it, and the two tie
        own[outer] = max(own[outer], R.composite_score(idx, outer, inner, text, exc_name),
                         site_best.get(idx.templates[inner][T_SITE], 0.0))
    outers: dict[int, list[int]] = {}
    for outer, inner in W.wrapped_pairs(idx, cands, wraps, text):
        outers.setdefault(inner, []).append(outer)
    final: dict[int, float] = {}

    def resolve(t: int, visiting: frozenset[int]) -> float:
        if t in final:
            return final[t]
        above = [resolve(o, visiting | {t}) for o in outers.get(t, ()) if o not in visiting]
        s = min(own[t], max(above)) * RD.SECONDARY if above else own[t]
        final[t] = s
        return s

    return [resolve(c.template, frozenset()) for c in cands]


def _below_wrappers(cands: list[W.Candidate], wraps: list[tuple[int, int]], scores: list[float]) -> list[float]:
    """A wrapped template stays below its wrappers once rival text has lowered them (``rank.rival_factors``):
    typeguard's union error prints the texts of the errors it collected (`{path} did not match any element
    in the union:\n{formatted_errors}`), another error's text among them is not the raise."""
    if not wraps:
        return scores
    best: dict[int, float] = {}
    for c, sc in zip(cands, scores, strict=True):
        best[c.template] = max(best.get(c.template, 0.0), sc)
    for _ in range(2):  # a wrap of a wrap
        for outer, inner in wraps:
            if outer in best and inner in best:
                best[inner] = min(best[inner], best[outer] * RD.SECONDARY)
    return [min(sc, best[c.template]) for c, sc in zip(cands, scores, strict=True)]


def _frame_evidence(
    idx: MatchIndex, site: int, score: float, method: str, pinned: bool, elsewhere: bool, confirmed: bool,
    innermost_lib: tuple[Frame, str] | None, exc_name: str, drift_ok: bool = True,
) -> tuple[float, Method]:
    """Raise a site the innermost library frame points into; lower the others when it points elsewhere.

    The innermost frame of a traceback is where the exception was raised, so
    a site whose line range holds it is the answer unless its text disagrees
    (then the user runs another version, whose lines moved).
    """
    m: Method = "exact" if method == "exact" else "fuzzy"
    if pinned:
        raised = idx.sites[site][S_EXC].rsplit(".", 1)[-1]
        # (a subclass of the class raised there: the site's traceback handed on to an instance of it, werkzeug's
        # `raise ImportStringError(...).with_traceback(sys.exc_info()[2])` around `raise ImportError(e)`)
        agree = R.type_factor(exc_name, raised, raised) >= 0.9 or R.subclass_of(exc_name, raised) \
            or R.package_subclass(idx, exc_name, raised)
        if m == "exact":
            return 0.99 + 0.01 * score, m
        if agree:
            # no literal text to check (``raise E(msg)``), or text built differently than written
            short = idx.templates[idx.site_templates[site][0]][T_LITCHARS] < 8 \
                if idx.site_templates[site] else True
            return max(score, 0.86 if short else 0.75), "frame"
        # another class, and not the site's text: raised while the raise line ran (`raise NameError(
        # f"name '{obj.id}' ...")` printing `AttributeError: ... no attribute 'id'`): the place, not its text
        return max(score, _AT_LINE), "frame"
    if confirmed:
        return score * _VETO, m
    if innermost_lib is not None:
        path, lo, hi = R.site_range(idx, site)
        line = innermost_lib[0].line or 0
        if path == innermost_lib[1] and drift_ok and may_raise(innermost_lib[0].code):
            # same file, other lines: a nearby version of the code (lines moved)
            near = 0.02 if abs(line - lo) < 60 or abs(line - hi) < 60 else 0.0
            return min(1.0, score * (0.95 if elsewhere else 1.0) + near), m
    if elsewhere:
        return score * _VETO, m
    return score, m
