"""``explain``: from pasted text to ranked raise sites (or to "no raise site produced this").

The stages: parse the text (``traceback.py``), map its frames onto the
catalog's files, retrieve and verify candidate templates for each exception
of the input (``rank.py``), let the innermost library frame pin or veto
sites, and classify errors that no raise statement produced (``origin.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from errdex.match import absorbed as AB
from errdex.match import earned as EA
from errdex.match import edited as ED
from errdex.match import honesty as HO
from errdex.match import keywords as KW
from errdex.match import named as NM
from errdex.match import rank as R
from errdex.match import rewrap as RW
from errdex.match import scope as SC
from errdex.match import ties as T
from errdex.match import verify as V
from errdex.match import where as WH
from errdex.match import wrap as W
from errdex.match.frames import library_path, may_raise, reaches_library
from errdex.match.index import (
    S_EXC,
    S_EXC_NAME,
    S_ID,
    S_KIND,
    S_LINE,
    S_PATH,
    S_QUAL,
    S_SNAP,
    T_LITCHARS,
    T_RENDER,
    T_SEGS,
    T_SITE,
    MatchIndex,
    index_for,
    words,
)
from errdex.match.indexdata import GATED, KEY_ERROR, REPR, STDLIB
from errdex.match.lines import BUILTIN_EXCEPTIONS
from errdex.match.model import (
    Explanation,
    Frame,
    Match,
    Method,
    Parsed,
    ParsedException,
    Value,
)
from errdex.match.origin import cpython_wording
from errdex.match.traceback import parse
from errdex.record import replace

TYPE_CHECKING = False
if TYPE_CHECKING:  # neither ``typing`` nor the catalog package is imported on ``errdex explain``'s start-up path
    from errdex.catalog.base import Catalog

_SECONDARY = 0.9  # a cause or context of the reported exception, or a message another one wraps
_PRECISE = 12  # candidates whose fuzzy score uses every word of the template
_MIMIC = 0.45  # the message is one the interpreter itself produces, and there is no traceback
_SELF_NAMED = 0.95  # "Type: text" read whole, as the message of a class whose str() starts with its name
_ELEMENT = 0.45  # a template found as one element of a list or dict that the message prints
_OTHER_CLASS = 0.45  # the most a text scores at a site raising another class than the one printed
_OWN_WORDS = 0.15  # a site naming the printed class whose text scores this much shares words with the message
_AT_LINE = 0.45  # a pinned site raising another class than the one printed: the line, never confident
_VETO = 0.5  # the traceback shows the error surfaced elsewhere than at this site


def explain(catalog: Catalog, text: str, *, top: int = 5, repo: str | None = None) -> Explanation:
    """The raise sites of ``catalog`` that best explain ``text`` (a message or a traceback).

    The top match also says which indexed versions fit the input (``versions.py``).
    Over a catalog of many libraries, the global index picks the libraries first (``route.py``).
    """
    from errdex.match.versions import with_versions

    parsed = parse_safely(text)
    if repo is None:
        from errdex.match import route

        if route.should_route(catalog):
            repos = route.candidate_repos(catalog, parsed)
            if repos:
                merged = route.merge([explain_parsed(index_for(catalog, r), parsed, top=top) for r in repos], top)
                best = merged.matches[0].repo if merged.matches else repos[0]
                return with_versions(catalog, index_for(catalog, best), merged)
    idx = index_for(catalog, repo)
    return with_versions(catalog, idx, explain_parsed(idx, parsed, top=top))


def parse_safely(text: str) -> Parsed:
    """``parse``, and if it ever fails, the whole text as a bare message (never a crash)."""
    try:
        return parse(text)
    except Exception:  # the parser is property-tested never to raise; this is the last guard
        return Parsed(format="message", message=text.strip())


def explain_parsed(idx: MatchIndex, parsed: Parsed, *, top: int = 5) -> Explanation:
    """``explain`` on an already parsed input and a loaded index (what the benchmark times)."""
    parsed, grouped = _group_first(idx, parsed)
    chained = (*_CHAINED, "group-member", "group") if grouped else _CHAINED
    frames = _frames_for_pinning(parsed)
    primary_where = WH.where(idx, frames, parsed.notes)
    tops = SC.scope_tops(idx, parsed.exception, [p for f in frames if (p := library_path(idx, f.path))])
    best: dict[int, R.Scored] = {}
    cap = 1.0
    for n, (exc, factor) in enumerate(_exceptions(parsed, grouped)):
        where = primary_where if n == 0 else WH.where(idx, list(exc.frames), exc.notes)
        if where.innermost is None and cpython_wording(exc.message):
            # CPython's own wording ("'function' object has no attribute 'lower'"): a library
            # template that mimics it is only a guess until a traceback says where it was raised
            factor *= _MIMIC
        _score_exception(idx, exc, where, factor, best, cap if exc.role in chained else 1.0)
        if n == 0:
            cap = _chain_cap(primary_where, best)
    # the library the input names comes first: another library's template never outranks it
    ranked = sorted(best.values(), key=lambda c: (not SC.in_scope(idx, c.site, tops), -c.score,  # own text first
                                                  _nth(idx, c), idx.sites[c.site][S_ID]))
    matches = tuple(_match(idx, c) for c in ranked[: max(top, 0)] if c.score > 0.0)
    fallback = _class_fallback(idx, parsed, tops, ranked) if not frames else None
    if fallback is not None:
        matches = (fallback, *(m for m in matches if m.id != fallback.id))[: max(top, 0)]
    elif matches:
        reported = next(iter(_exceptions(parsed)))[0]
        first = _with_ties(idx, matches[0], ranked[0], best, _printed_type(reported), reported.exception)
        first = HO.unconfident(idx, first, ranked[0].site, bool(frames), reported.message, ranked[0].template)
        first = _earned(idx, first, ranked, reported, bool(frames))
        group = {t.id for t in first.tied}
        if first.confident and first.method == "fuzzy" and _level_with(idx, ranked, group):
            first = replace(first, confident=False)
        # the tied sites listed below the top, and every site below a top that is not confident, are no more
        # certain than it (a rival that took the top's confidence is listed below it: it has not earned its own)
        matches = (first, *(replace(m, confident=False) if m.id in group or not first.confident else m
                            for m in matches[1:] if m.id != first.id))
    confident = bool(matches) and matches[0].confident
    no_site = WH.no_site(idx, parsed, primary_where, confident)
    return Explanation(matches=matches, parsed=parsed, confident=confident, threshold=R.THRESHOLD,
                       no_site=no_site)


def _earned(idx: MatchIndex, first: Match, ranked: list[R.Scored], reported: ParsedException, frames: bool) -> Match:
    """The top match, unconfident when another exact reading of the text covers all its literal text
    (``earned.py``): its template fits better, but nothing in the input rules the other one out; or,
    with no traceback, when it leaves words before its text unexplained (``earned.lead``)."""
    top = next((c for c in ranked if idx.sites[c.site][S_ID] == first.id), None)
    if not first.confident or top is None:
        return first
    text = V.normalize(V.clip(_unrepr(reported, idx))).strip()
    if not frames and not top.pinned and top.method == "exact" and (
            before := EA.lead(idx.templates[top.template][T_SEGS], text)):
        return replace(first, confident=False, tie_note=first.tie_note or (
            f"the text starts with {before.strip()!r}, which this raise does not write: whoever printed it may "
            f"have caught the error and added it (a command line's `error: ...`); a traceback decides"))
    rival = EA.rival_reading(idx, top, ranked, text, _printed_type(reported))
    if rival is None:
        return first
    row = idx.sites[rival.site]
    return replace(first, confident=False, tie_note=first.tie_note or (
        f"{row[S_PATH]}:{row[S_LINE]} reads this same text with its own template; nothing in the text rules "
        f"it out (every word this template writes, that one writes or takes as a value): a traceback decides"))


def _scored(idx: MatchIndex, tno: int, text: str, text_words: frozenset[str], exc_name: str, share: float | None,
            container: bool) -> tuple[float, str, tuple[tuple[str, str], ...]]:
    """``rank.score_template``; a template found as one element of a printed list or dict is no exact match."""
    score, method, vals = R.score_template(idx, tno, text, text_words, exc_name, share)
    if container and score > 0.0 and V.element_of(idx.templates[tno][T_SEGS], text):
        return score * _ELEMENT, "fuzzy", ()
    return score, method, vals


_CHAINED = ("cause", "context")  # exceptions the reported one was raised from or while handling


def _nth(idx: MatchIndex, c: R.Scored) -> int:
    """Which of its site's templates a candidate is: a site's own come before those it forwards."""
    own = idx.site_templates[c.site]
    return own.index(c.template) if c.template in own else len(own)


def _chain_cap(where: WH.Where, best: dict[int, R.Scored]) -> float:
    """The most a site of the reported exception's cause or context may score, once the reported
    exception's own frames have spoken.  Its innermost frame pins a site whose text or class agrees:
    that site raised what the user sees (``raise InvalidRequirement(str(e)) from e``), so the cause's
    sites rank below it.  Its innermost frame is a library line that raises nothing indexed, or its
    frames go through the library into code that raised it (``parser.exit(2, ...)`` in a library's
    ``except`` clause: argparse raised the ``SystemExit``): no site explains the reported exception,
    so none of the chain's is confident.  Its frames never reach the library and end in the standard
    library or another installed package (argparse's ``SystemExit: 2`` around a ``type=`` callback's
    error, ``earned.converted_elsewhere``): that code caught the library's error and raised its own, and
    none of the chain's is confident either.  (A reported exception raised by the user's code, ``raise
    RuntimeError(...) from e``, leaves the chain's library error its confidence.)"""
    pinned = [c.score for c in best.values() if c.pinned and c.method in ("exact", "frame")]
    if pinned:
        return max(pinned) * _SECONDARY
    if (where.surfaced_in_lib or where.innermost_lib is not None) and where.elsewhere:
        return R.THRESHOLD * _SECONDARY
    if where.innermost is not None and where.innermost_lib is None and EA.converted_elsewhere(where.innermost.path):
        return R.THRESHOLD * _SECONDARY  # the standard library or another package raised it around the library's
    return 1.0


def _score_exception(
    idx: MatchIndex, exc: ParsedException, where: WH.Where, factor: float, best: dict[int, R.Scored],
    cap: float = 1.0,
) -> None:
    """Score the candidates of one exception of the input into ``best`` (site -> best candidate);
    no score above ``cap``."""
    raw = V.clip(_unrepr(exc, idx))
    text = V.normalize(raw).strip()
    text_words = frozenset(words(text))
    pinned_t: list[tuple[int, float | None]] = [(t, None) for s in sorted(where.pins) for t in idx.site_templates[s]]
    skip = {t for t, _ in pinned_t}
    found: list[tuple[int, float | None]] = [(t, sh) for t, sh in (R.retrieve(idx, text) if text else []) if t not in skip]
    confirmed = False  # a pinned site's template agrees with the message: the pin is certain
    drift_ok = not cpython_wording(exc.message)  # the interpreter's own words never come from a raise
    exc_name = _printed_type(exc)
    # a class surely printed: qualified, or a builtin's name (`Error: text` may be a tag, not a class)
    named_class = "." in exc.exception or exc.exception in BUILTIN_EXCEPTIONS
    cands: list[W.Candidate] = []
    methods: list[str] = []
    container = V.container_repr(text)
    alike: dict[tuple[object, ...], tuple[float, str, tuple[tuple[str, str], ...]]] = {}
    for n, (tno, share) in enumerate(pinned_t + found):
        # the best candidates get an exact word overlap, the rest the retrieval's estimate; a copy of a text
        # raised as the same class (``rank._distinct`` keeps them together) scores as the first one did
        site_row = idx.sites[idx.templates[tno][T_SITE]]
        key = (idx.templates[tno][T_SEGS], site_row[S_EXC_NAME], site_row[S_EXC], None if n < _PRECISE else share)
        got = alike.get(key)
        if got is None:
            got = alike[key] = _scored(idx, tno, text, text_words, exc_name, None if n < _PRECISE else share,
                                       container)
        score, method, vals = got
        cands.append(W.Candidate(tno, score, method == "exact", vals))
        methods.append(method)
    seen = {c.template for c in cands}
    for tno in RW.rewrap_pool(idx, exc_name, cands, seen):
        score, method, vals = _scored(idx, tno, text, text_words, exc_name, None, container)
        cands.append(W.Candidate(tno, score, method == "exact", vals))
        methods.append(method)
    for c in ED.originals(idx, cands, exc_name):  # the message a handler edited, read without its added line
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
    text_scores = ED.original_first(idx, cands, text_scores, exc_name)  # the message a handler edited: its original first
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


def _with_ties(idx: MatchIndex, m: Match, c: R.Scored, best: dict[int, R.Scored], exc_name: str,
               printed: str = "") -> Match:
    """The top match with the sites that raise the same text (``ties.py``): not confident then,
    unless a frame pinned it or the values picked one."""
    first, sites, count = T.tied_sites(idx, c, best, exc_name, printed)
    kept = NM.named_by_value(idx, first, sites) if count == len(sites) else None
    by_keyword = kept is None and count == len(sites) and (kept := KW.by_keywords(idx, first, sites)) is not None
    before = count
    if kept is not None:  # the value names the function of some of the tied sites (``named.py``): a hint
        own = best.get(kept[0])
        first = first if kept[0] == first.site else own if own is not None and own.score >= first.score - T.TIE_EPSILON \
            else T.twin(idx, first, kept[0])
        sites, count = kept[1:], len(kept) - 1
    if first.site != c.site:
        m = _match(idx, first)
    hint = "" if kept is None else KW.note(before - count) if by_keyword else \
        NM.note(m.qualname.rsplit(".", 1)[-1], before - count)
    if kept is not None and not count:
        return replace(m, confident=False, tie_note=hint.strip())
    if not count and (n := T.unruled(idx, first, exc_name)):
        return replace(m, confident=False, tie_note=(
            f"{n} re-raise{'s' if n != 1 else ''} of a caught {idx.sites[first.site][S_EXC_NAME]} may print this text"
            " through calls not followed; paste the full traceback and its innermost frame decides."))
    if not count:
        return m
    tied = T.as_tied(idx, sites)
    return replace(m, tied=tied, tied_count=count, confident=False,
                   tie_note=T.apart(m.path, m.qualname, m.exception, tied, count) + hint)


def _class_fallback(idx: MatchIndex, parsed: Parsed, tops: frozenset[str], ranked: list[R.Scored]) -> Match | None:
    """No template's text was found (or the message is empty): the sites raising the printed class
    with a message of no checkable text, as one labelled, tied, unconfident group (``scope.py``)."""
    printed = parsed.exception.rsplit(".", 1)[-1]
    text = V.normalize(parsed.message).strip()
    if any(c.template >= 0 and R.may_raise(idx, printed, c.site) and V.truncated(idx.templates[c.template][T_SEGS], text)
           for c in ranked[:3]):
        return None  # the beginning of a site's text, the paste cut short: that site, not a class's
    # a text quoting its own class's last line was raised again: a site of the quoted text raised it first
    requoted = SC.requotes(parsed.exception, parsed.message)
    first_line = V.normalize(parsed.message.strip().split("\n", 1)[0])
    if any(c.pinned or (c.method == "exact" and R.may_raise(idx, printed, c.site)
                        and (not requoted or SC.opens(idx.templates[c.template][T_SEGS], first_line))
                        and R.own_letters(idx.templates[c.template][T_SEGS]) > 0) for c in ranked[:3]):
        # (a template of punctuation alone, an args tuple `({e}, {path!r})`, says nothing of the text)
        return None  # (text found in a site raising another class than the printed one does not count)
    exception, element = parsed.exception, -1
    if not exception:
        exception, element = SC.collected_class(idx, [(c.template, c.site) for c in ranked[:_PRECISE]], text)
        if not exception:
            return _value_fallback(idx, tops, text) or _caught_fallback(idx, tops, ranked, text)
        tops = frozenset({idx.sites[element][S_PATH].split("/", 1)[0]}) | tops
    every = SC.class_sites(idx, exception, tops, requoted)
    if not every:
        return None
    if not requoted and all(SC.at_run_time(idx, s) for s in every) and any(
            c.score >= _OWN_WORDS and idx.sites[c.site][S_EXC_NAME] == printed for c in ranked[:3]):
        return None  # a site naming the class has text sharing words with the message: it speaks first
    sites = SC.narrow(idx, every, text)
    first = sites[0]
    ts = idx.site_templates[first]
    m = _match(idx, R.Scored(ts[0] if ts else -1, first, SC.CLASS_SCORE, "class", False, ()))
    tied = T.as_tied(idx, sites[1 : 1 + T.MAX_LISTED])
    return replace(m, method="class", confident=False, tied=tied, tied_count=len(sites) - 1,
                   tie_note=SC.class_note(exception, len(sites), not parsed.message.strip(), len(every),
                                          sum(SC.at_run_time(idx, s) for s in sites)))

    for c in ranked[:_PRECISE]:
        if c.template >= 0 and V.element_of(idx.templates[c.template][T_SEGS], text):
            exc = idx.sites[c.site][S_EXC]
            return (exc, c.site) if "." in exc else ("", -1)
    return "", -1


def _value_fallback(idx: MatchIndex, tops: frozenset[str], text: str) -> Match | None:
    """A message of no class that is one value (``'akey'``) and no template's text: the sites whose
    message is only a value, as one labelled, tied, unconfident group (``scope.value_sites``)."""
    sites = SC.value_sites(idx, tops, text)
    return _labelled_group(idx, sites, SC.value_note(len(sites))) if sites else None


def _labelled_group(idx: MatchIndex, sites: list[int], note: str) -> Match:
    """``sites`` as one tied, unconfident answer labelled by ``note`` (the fallbacks' groups): the first on top."""
    ts = idx.site_templates[sites[0]]
    m = _match(idx, R.Scored(ts[0] if ts else -1, sites[0], SC.CLASS_SCORE, "class", False, ()))
    return replace(m, method="class", confident=False, tied=T.as_tied(idx, sites[1 : 1 + T.MAX_LISTED]),
                   tied_count=len(sites) - 1, tie_note=note)


def _caught_fallback(idx: MatchIndex, tops: frozenset[str], ranked: list[R.Scored], text: str) -> Match | None:
    """A message of no class that no template explains, not even in part (the best shares hardly a word):
    the scope's handlers that raise any caught text as their own, as one labelled, unconfident group."""
    if ranked and ranked[0].score >= _OWN_WORDS:
        return None
    # a handler of one class raises another package's text: unless a template shares a run of words with it
    # (aniso8601's `Second must be between 0..60 ...`, a wording of `Hour must be between 0..24 ...`'s site)
    own = [idx.templates[c.template][T_SEGS] for c in ranked[:3] if c.template >= 0]
    sites = SC.caught_sites(idx, tops, any_class=not any(SC.shares_run(segs, text) for segs in own))
    return _labelled_group(idx, sites, SC.caught_note(len(sites))) if sites else None


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
        s = min(own[t], max(above)) * _SECONDARY if above else own[t]
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
                best[inner] = min(best[inner], best[outer] * _SECONDARY)
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
        agree = R.type_factor(exc_name, raised, raised) >= 0.9 or R.subclass_of(exc_name, raised)
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


def _exceptions(parsed: Parsed, grouped: bool = False) -> Iterable[tuple[ParsedException, float]]:
    """The reported exception first, then up to three others of its chain or group (``grouped``: the
    group is the reported one, ``_group_first``, and its members are what it collected)."""
    chain = parsed.chain or (ParsedException(parsed.exception, parsed.message, parsed.frames),)
    primary = [e for e in chain if e.exception == parsed.exception and e.message == parsed.message][:1]
    yield (primary[0] if primary else chain[-1]), 1.0
    others = [e for e in reversed(chain) if e.role not in ("wrapper",) and e not in primary]
    for e in others[:3]:
        yield e, (1.0 if e.role == "group-member" and not grouped else _SECONDARY)
    if parsed.format == "message" and parsed.exception and "." not in parsed.exception and not parsed.frames:
        # `str(exc)` pasted alone, of a class that prints its own name first (SymPy's
        # "SympifyError: '1'"): the "Type: " is part of the message too (a printed last line
        # names a library's class with its module, so a dotted one is no such message)
        yield ParsedException(parsed.exception, f"{parsed.exception}: {parsed.message}"), _SELF_NAMED


def _group_first(idx: MatchIndex, parsed: Parsed) -> tuple[Parsed, bool]:
    """An exception group raised by the library is the reported exception, not its first member.

    The parser reports a group's first member (``traceback._primary``): a group the user's code raised
    (``raise ExceptionGroup("checks failed", errs)`` around the library's errors) says no more than
    what it collected.  When the group's own frames reach the library (its files, or code it
    generated), the library raised the group (cattrs' ``IterableValidationError``): that raise is
    the answer, and the members, collected before, are answered as a cause is (capped below it)."""
    group = next((e for e in parsed.chain if e.role == "group"), None)
    if group is None or (parsed.exception == group.exception and parsed.message == group.message) \
            or not reaches_library(idx, group.frames):
        return parsed, False
    return replace(parsed, exception=group.exception, message=group.message, frames=group.frames,
                   notes=group.notes), True


def _printed_type(exc: ParsedException) -> str:
    """The exception's name as printed, or what a typeless message says of it (``rank.REPR_MESSAGE``)."""
    if exc.exception_name:
        return exc.exception_name
    msg = exc.message
    if len(msg) >= 3 and msg[0] == msg[-1] and msg[0] in "'\"" and repr(_unrepr(exc)) == msg:
        return R.REPR_MESSAGE
    return ""


def _unrepr(exc: ParsedException, idx: MatchIndex | None = None) -> str:
    """A KeyError prints ``repr`` of its argument: ``KeyError: "Invalid name: 'x'"`` -> the text inside.
    So does a package's subclass of it that the index knows (``BoxKeyError: "'a' is not in the Box"``),
    whose templates lost their quotes as ``KeyError``'s did (``index._edges_stripped``)."""
    msg = exc.message
    keyerror = exc.exception_name in ("KeyError", "") or (
        idx is not None and (KEY_ERROR + exc.exception_name) in idx.rewraps)
    if keyerror and len(msg) >= 2 and msg[0] == msg[-1] and msg[0] in "'\"":
        q = msg[0]
        inner = msg[1:-1].replace("\\" + q, q).replace("\\\\", "\\")
        # a message without its type is read so only when it is one quoted string as ``repr`` prints it
        # ("'x' is invalid for 'name'" is text with quoted values, not a repr)
        if exc.exception_name or repr(inner) == msg:
            return inner
    return msg


def _frames_for_pinning(parsed: Parsed) -> list[Frame]:
    """The reported exception's frames, or a wrapper's unfiltered ones (JAX) when they go deeper."""
    frames = list(parsed.frames)
    for e in parsed.chain:
        same = e.message.split("\n", 1)[0] == parsed.message.split("\n", 1)[0]
        if e.role == "wrapper" and same and len(e.frames) > len(frames):
            frames = list(e.frames)
    return frames


def _match(idx: MatchIndex, c: R.Scored) -> Match:
    site = idx.sites[c.site]
    snap = idx.snaps[site[S_SNAP]]
    end = R.site_range(idx, c.site)[2]
    return Match(
        id=site[S_ID],
        score=round(c.score, 4),
        kind=site[S_KIND],
        exception=site[S_EXC],
        template=idx.templates[c.template][T_RENDER] if c.template >= 0 else "",
        values=tuple(Value(p.replace(REPR + "}", "}"), v) for p, v in c.values),  # as the template shows it
        repo=snap[0],
        commit=snap[1],
        path=f"{snap[3]}{site[S_PATH]}",
        line=site[S_LINE],
        url=idx.url(site),
        url_approximate=bool(snap[5]) and bool(idx.url(site)),
        end_line=end,
        qualname=site[S_QUAL],
        method=c.method if c.method in ("frame", "exact", "class") else "fuzzy",  # type: ignore[arg-type]
        pinned_by_frame=c.pinned,
        confident=c.score >= R.THRESHOLD,
        wraps=idx.sites[c.wraps][S_ID] if c.wraps >= 0 else None,
    )


def _level_with(idx: MatchIndex, ranked: list[R.Scored], group: set[str]) -> bool:
    """Whether a site outside the top's tied group scores exactly as the top does: two raises of the
    same first line whose frames differ (`Path: .` / `Path: {path}`) are not one template, so the tie
    rule does not group them, yet nothing in the input tells them apart; naming one is a guess.  Only for
    a fuzzy top: an exact one's level sites are the tie rule's to judge (a value may pick one of them)."""
    top = ranked[0]
    return any(c.site != top.site and idx.sites[c.site][S_ID] not in group and c.score >= top.score - 1e-9
               for c in ranked[1:4])


__all__ = ["explain", "explain_parsed", "library_path", "parse", "parse_safely"]
