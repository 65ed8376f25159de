"""Confidence and tie labels of the top answer: whether the text, the values or the frames single it out.

Once the candidates are scored and ranked, the top match is confident only if nothing in the input
leaves another site as likely: sites raising the same text (``with_ties``, ``ties.py``, narrowed by the
values: ``named.py``, ``keywords.py``, ``keyvalues.py``, ``registered.py``, ``endword.py``), another exact reading of the text (``earned``, ``earned.py``),
or a site outside the tied group scoring level with a fuzzy top (``level_with``).  These only relabel
(and regroup) the top; they change no score, so they live apart from the scoring (``candidates.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from errdex.match import answer as AN
from errdex.match import earned as EA
from errdex.match import endword as EW
from errdex.match import keyvalues as KV
from errdex.match import keywords as KW
from errdex.match import named as NM
from errdex.match import rank as R
from errdex.match import reading as RD
from errdex.match import registered as RG
from errdex.match import ties as T
from errdex.match import verify as V
from errdex.match.index import S_EXC_NAME, S_ID, S_LINE, S_PATH, T_SEGS, MatchIndex
from errdex.match.model import Match, ParsedException
from errdex.record import replace

# the sites a hint keeps of a tied group, and the sentence saying so (given the answer and how many were set aside)
_Narrowed = tuple[list[int], Callable[[Match, int], str]]


def _narrowed(idx: MatchIndex, first: R.Scored, sites: list[int], listed: bool) -> _Narrowed | None:
    """The first hint in the text that tells some of the tied sites from the others, strongest first: a value
    naming their function (``named.py``), the keywords a class prints (``keywords.py``), a ``name=value`` one
    raise passes (``keyvalues.py``), the key their decorators register (``registered.py``), a value ending
    with their function's one-word name (``endword.py``). Each is a hint: the answer is not confident on it."""
    if listed and (kept := NM.named_by_value(idx, first, sites)) is not None:
        return kept, lambda m, dropped: NM.note(m.qualname.rsplit(".", 1)[-1], dropped)
    if listed and (kept := KW.by_keywords(idx, first, sites)) is not None:
        return kept, lambda m, dropped: KW.note(dropped)
    if listed and (valued := KV.by_values(idx, first, sites)) is not None:
        kept, shown = valued
        return kept, lambda m, dropped: KV.note(shown, dropped)
    if (registered := RG.by_registration(idx, first, sites)) is not None:
        kept, key = registered
        return kept, lambda m, dropped: RG.note(key, dropped)
    if (ended := EW.by_end_word(idx, first, sites)) is not None:
        kept, word = ended
        return kept, lambda m, dropped: EW.note(word, dropped)
    return None


def with_ties(idx: MatchIndex, m: Match, c: R.Scored, best: dict[int, R.Scored], exc_name: str,
               printed: str = "") -> Match:
    """The top match with the sites that raise the same text (``ties.py``): not confident then,
    unless a frame pinned it or the values picked one."""
    first, sites, count = T.tied_sites(idx, c, best, exc_name, printed)
    narrowed = _narrowed(idx, first, sites, listed=count <= T.MAX_LISTED)  # (a larger group: by its count)
    kept = narrowed[0] if narrowed is not None else None
    before = count
    if kept is not None:  # the value names the function of some of the tied sites (``named.py``): a hint
        own = best.get(kept[0])
        first = first if kept[0] == first.site else own if own is not None and own.score >= first.score - T.TIE_EPSILON \
            else T.twin(idx, first, kept[0])
        sites, count = kept[1:], len(kept) - 1
    sites = sites[:T.MAX_LISTED]
    if first.site != c.site:
        m = AN.as_match(idx, first)
    hint = "" if narrowed is None else narrowed[1](m, before - count)
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


def earned(idx: MatchIndex, first: Match, ranked: list[R.Scored], reported: ParsedException, frames: bool) -> Match:
    """The top match, unconfident when another exact reading of the text covers all its literal text
    (``earned.py``): its template fits better, but nothing in the input rules the other one out; or,
    with no traceback, when it leaves words before its text unexplained (``earned.lead``)."""
    top = next((c for c in ranked if idx.sites[c.site][S_ID] == first.id), None)
    if not first.confident or top is None:
        return first
    text = V.normalize(V.clip(RD.unrepr(reported, idx))).strip()
    if not frames and not top.pinned and top.method == "exact" and (
            before := EA.lead(idx.templates[top.template][T_SEGS], text)):
        return replace(first, confident=False, tie_note=first.tie_note or (
            f"the text starts with {before.strip()!r}, which this raise does not write: whoever printed it may "
            f"have caught the error and added it (a command line's `error: ...`); a traceback decides"))
    rival = EA.rival_reading(idx, top, ranked, text, RD.printed_type(reported))
    if rival is None:
        return first
    row = idx.sites[rival.site]
    # the rival joins the tied group: the input cannot tell the two apart (its score says only that the top's
    # template fits more tightly)
    listed = {t.id for t in first.tied}
    tied = first.tied if row[S_ID] in listed or len(first.tied) >= T.MAX_LISTED \
        else (*first.tied, *T.as_tied(idx, [rival.site]))
    return replace(first, confident=False, tied=tied, tied_count=first.tied_count + (row[S_ID] not in listed),
                   tie_note=first.tie_note or (
        f"{row[S_PATH]}:{row[S_LINE]} reads this same text with its own template; nothing in the text rules "
        f"it out (every word this template writes, that one writes or takes as a value): a traceback decides"))


def level_with(idx: MatchIndex, ranked: list[R.Scored], group: set[str]) -> bool:
    """Whether a site outside the top's tied group scores exactly as the top does: two raises of the
    same first line whose frames differ (`Path: .` / `Path: {path}`) are not one template, so the tie
    rule does not group them, yet nothing in the input tells them apart; naming one is a guess.  Only for
    a fuzzy top: an exact one's level sites are the tie rule's to judge (a value may pick one of them)."""
    top = ranked[0]
    return any(c.site != top.site and idx.sites[c.site][S_ID] not in group and c.score >= top.score - 1e-9
               for c in ranked[1:4])
