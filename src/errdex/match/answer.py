"""Building the answer documents: a ranked candidate as a ``Match``, and the labelled groups of sites
answered when no template's text was found (``class_fallback``).

The fallbacks answer a message that no template explains with the sites that may have raised it: those
raising the printed class with no checkable text, those whose message is only a value, or the handlers
that raise a caught text as their own (``scope.py``), each as one tied, unconfident group.  They read the
ranked candidates but score none, so they live apart from the scoring (``candidates.py``).
"""

from __future__ import annotations

from errdex.match import candidates as CA
from errdex.match import foreign as FO
from errdex.match import rank as R
from errdex.match import reading as RD
from errdex.match import scope as SC
from errdex.match import ties as T
from errdex.match import verify as V
from errdex.match.argstuple import printed_container
from errdex.match.index import (
    S_EXC,
    S_EXC_NAME,
    S_ID,
    S_KIND,
    S_LINE,
    S_PATH,
    S_QUAL,
    S_SNAP,
    T_RENDER,
    T_SEGS,
    MatchIndex,
)
from errdex.match.indexdata import REPR, WORDLESS_OF
from errdex.match.model import Match, Parsed, Value
from errdex.record import replace

_OWN_WORDS = 0.15  # a site naming the printed class whose text scores this much shares words with the message


def as_match(idx: MatchIndex, c: R.Scored) -> Match:
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


def _labelled_group(idx: MatchIndex, sites: list[int], note: str) -> Match:
    """``sites`` as one tied, unconfident answer labelled by ``note`` (the fallbacks' groups): the first on top."""
    ts = idx.site_templates[sites[0]]
    m = as_match(idx, R.Scored(ts[0] if ts else -1, sites[0], SC.CLASS_SCORE, "class", False, ()))
    return replace(m, method="class", confident=False, tied=T.as_tied(idx, sites[1 : 1 + T.MAX_LISTED]),
                   tied_count=len(sites) - 1, tie_note=note)


def class_fallback(idx: MatchIndex, parsed: Parsed, tops: frozenset[str], ranked: list[R.Scored]) -> Match | None:
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
    if any(c.pinned or (c.method == "exact"
                        and (R.may_raise(idx, printed, c.site) or _tagged(idx, parsed, c.template))
                        and (not requoted or SC.opens(idx.templates[c.template][T_SEGS], first_line))
                        and R.own_letters(idx.templates[c.template][T_SEGS]) > 0) for c in ranked[:3]):
        # (a template of punctuation alone, an args tuple `({e}, {path!r})`, says nothing of the text)
        return None  # (text found in a site raising another class than the printed one does not count)
    # the class's wordless texts of some punctuation found (abnf's `{self.__class__.__name__}('{self.name}'): {start}`):
    # first in the class's group, whose texts of no text fit as well (werkzeug's `{code} {self.name}: {url}` beside
    # `{code} {self.name}: {scheme}//{domain_part}{script_name}/{path}`): punctuation does not tell them apart
    shaped = set(idx.rewraps.get(WORDLESS_OF + printed, ()))
    found = list(dict.fromkeys(c.site for c in ranked[:CA.PRECISE] if c.method == "exact" and c.template in shaped)) \
        if any(c.method == "exact" and c.template in shaped for c in ranked[:3]) else []
    if any(c.method == "exact" for c in ranked[:3]) and SC.foreign_class(idx, parsed.exception):
        # a class of no package the catalog holds (a test's `Error` handed in as `exc_tp`, setuptools' alias of a
        # distutils class): no site can name it, so a text found is the answer (cfgv's `==> {ctx}\n=====> {msg}`
        # of punctuation and values too), not the raises of any class
        return None
    exception, element = parsed.exception, -1
    if not exception:
        exception, element = SC.collected_class(idx, [(c.template, c.site) for c in ranked[:CA.PRECISE]], text)
        if not exception:
            return _value_fallback(idx, tops, ranked, text) or _caught_fallback(idx, tops, ranked, text)
        tops = frozenset({idx.sites[element][S_PATH].split("/", 1)[0]}) | tops
    told = not SC.untold(parsed.message)
    every = SC.class_sites(idx, exception, tops, requoted, told)
    if not every:
        return None
    held = SC.held_class(idx) if told and not requoted else frozenset()
    if told and not requoted and all(SC.at_run_time(idx, s) or s in held for s in every) and any(
            c.score >= _OWN_WORDS and idx.sites[c.site][S_EXC_NAME] == printed for c in ranked[:3]):
        return None  # a site naming the class has text sharing words with the message: it speaks first
    sites = SC.narrow(idx, every, text if told else "")
    sites = [*found, *(s for s in sites if s not in found)]
    first = sites[0]
    ts = idx.site_templates[first]
    m = as_match(idx, R.Scored(ts[0] if ts else -1, first, SC.CLASS_SCORE, "class", False, ()))
    tied = T.as_tied(idx, sites[1 : 1 + T.MAX_LISTED])
    return replace(m, method="class", confident=False, tied=tied, tied_count=len(sites) - 1,
                   tie_note=SC.class_note(exception, len(sites), not parsed.message.strip(), len(every),
                                          sum(SC.at_run_time(idx, s) for s in sites), told))


def _tagged(idx: MatchIndex, parsed: Parsed, tno: int) -> bool:
    """A lone ``Name: text`` (no traceback) whose ``Name:`` opens the template's own text: the text was found,
    the name is no class (``reading.opens_with``)."""
    return parsed.format == "message" and not parsed.frames and tno >= 0 \
        and RD.opens_with(idx.templates[tno][T_SEGS], parsed.exception)


def _value_fallback(idx: MatchIndex, tops: frozenset[str], ranked: list[R.Scored], text: str) -> Match | None:
    """A message of no class that is one value (``'akey'``, a list or dict printed whole) and no template's text:
    the sites whose message is only a value, as one labelled, tied, unconfident group (``scope.value_sites``).
    A printed list that a template of its shape holds (``[{errors}]``, found exactly) is that template's."""
    if printed_container(text) and any(c.method == "exact" for c in ranked[:3]):
        return None
    sites = SC.value_sites(idx, tops, text)
    return _labelled_group(idx, sites, SC.value_note(len(sites))) if sites else None


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


def foreign_fallback(idx: MatchIndex, parsed: Parsed, tops: frozenset[str], ranked: list[R.Scored]) -> Match | None:
    """A message of no class quoting the argument of raises of another package's class (``foreign.py``): those
    raises as one labelled, tied, unconfident group."""
    if parsed.exception or not parsed.message.strip():
        return None
    sites, named = FO.foreign_sites(idx, tops, ranked, V.normalize(parsed.message).strip())
    return _labelled_group(idx, sites, SC.foreign_note(len(sites), named)) if sites else None
