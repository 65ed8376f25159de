"""``explain``: from pasted text to ranked raise sites (or to "no raise site produced this").

The stages: parse the text (``traceback.py``), map its frames onto the
catalog's files, retrieve and verify candidate templates for each exception
of the input (``rank.py``, scored in ``candidates.py``), let the innermost
library frame pin or veto sites, label the top's confidence and ties
(``labels.py``), answer with a class's sites when no text was found
(``answer.py``), and classify errors that no raise statement produced
(``origin.py``).  This module orchestrates those stages.
"""

from __future__ import annotations

from errdex.match import answer as AN
from errdex.match import candidates as CA
from errdex.match import earned as EA
from errdex.match import honesty as HO
from errdex.match import labels as LB
from errdex.match import rank as R
from errdex.match import reading as RD
from errdex.match import scope as SC
from errdex.match import where as WH
from errdex.match.frames import library_path
from errdex.match.index import S_ID, MatchIndex, index_for
from errdex.match.model import Explanation, Parsed
from errdex.match.origin import cpython_wording
from errdex.match.traceback import parse
from errdex.record import replace

TYPE_CHECKING = False
if TYPE_CHECKING:  # neither ``typing`` nor the catalog package is imported on ``errdex explain``'s start-up path
    from errdex.catalog.base import Catalog

_MIMIC = 0.45  # the message is one the interpreter itself produces, and there is no traceback


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
    parsed, grouped = RD.group_first(idx, parsed)
    chained = (*RD.CHAINED, "group-member", "group") if grouped else RD.CHAINED
    frames = RD.frames_for_pinning(parsed)
    primary_where = WH.where(idx, frames, parsed.notes)
    tops = SC.scope_tops(idx, parsed.exception, [p for f in frames if (p := library_path(idx, f.path))])
    best: dict[int, R.Scored] = {}
    cap = 1.0
    for n, (exc, factor) in enumerate(RD.exceptions(parsed, grouped)):
        where = primary_where if n == 0 else WH.where(idx, list(exc.frames), exc.notes)
        if where.innermost is None and cpython_wording(exc.message):
            # CPython's own wording ("'function' object has no attribute 'lower'"): a library
            # template that mimics it is only a guess until a traceback says where it was raised
            factor *= _MIMIC
        CA.score_exception(idx, exc, where, factor, best, cap if exc.role in chained else 1.0)
        if n == 0:
            cap = _chain_cap(primary_where, best)
    # the library the input names comes first: another library's template never outranks it
    ranked = sorted(best.values(), key=lambda c: (not SC.in_scope(idx, c.site, tops), -c.score,  # own text first
                                                  _nth(idx, c), idx.sites[c.site][S_ID]))
    matches = tuple(AN.as_match(idx, c) for c in ranked[: max(top, 0)] if c.score > 0.0)
    fallback = (AN.foreign_fallback(idx, parsed, tops, ranked) or AN.class_fallback(idx, parsed, tops, ranked)) \
        if not frames else None
    if fallback is not None:
        matches = (fallback, *(m for m in matches if m.id != fallback.id))[: max(top, 0)]
    elif matches:
        reported = next(iter(RD.exceptions(parsed)))[0]
        first = LB.with_ties(idx, matches[0], ranked[0], best, RD.printed_type(reported), reported.exception)
        first = HO.unconfident(idx, first, ranked[0].site, bool(frames), reported.message, ranked[0].template)
        first = LB.earned(idx, first, ranked, reported, bool(frames))
        group = {t.id for t in first.tied}
        if first.confident and first.method == "fuzzy" and LB.level_with(idx, ranked, group):
            first = replace(first, confident=False)
        # the tied sites listed below the top, and every site below a top that is not confident, are no more
        # certain than it (a rival that took the top's confidence is listed below it: it has not earned its own)
        matches = (first, *(replace(m, confident=False) if m.id in group or not first.confident else m
                            for m in matches[1:] if m.id != first.id))
    confident = bool(matches) and matches[0].confident
    exact = bool(matches) and matches[0].method in ("exact", "frame")
    no_site = WH.no_site(idx, parsed, primary_where, confident, exact)
    return Explanation(matches=matches, parsed=parsed, confident=confident, threshold=R.THRESHOLD,
                       no_site=no_site)


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
        return max(pinned) * RD.SECONDARY
    if (where.surfaced_in_lib or where.innermost_lib is not None) and where.elsewhere:
        return R.THRESHOLD * RD.SECONDARY
    if where.innermost is not None and where.innermost_lib is None and EA.converted_elsewhere(where.innermost.path):
        return R.THRESHOLD * RD.SECONDARY  # the standard library or another package raised it around the library's
    return 1.0


__all__ = ["explain", "explain_parsed", "library_path", "parse", "parse_safely"]
