"""Candidate retrieval, verification and a calibrated score for each candidate site.

Retrieval reads the posting lists of the message's rarest words (a budget of
postings caps the work however common the words are) and keeps the templates
whose word weight is best covered; sites that a traceback frame points at are
added whatever their text.  Each candidate is then verified exactly
(``verify.py``) and scored from four signals:

- literal coverage and how specific the literal text is (longer is rarer),
- whether the whole message is explained (anchored at both ends),
- agreement of the printed exception type with the raised one,
- a frame of the traceback inside the site's line range (the innermost
  library frame pins the exact site even when two sites share a template).

Scores are in 0–1; ``THRESHOLD`` separates a confident match from a guess.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from errdex.match import verify as V
from errdex.match.index import (
    S_END,
    S_EXC,
    S_EXC_NAME,
    S_LINE,
    S_PATH,
    T_LITCHARS,
    T_SEGS,
    T_SITE,
    T_WEIGHT,
    MatchIndex,
    keys,
)

THRESHOLD = 0.5
POSTING_BUDGET = 1_000  # postings read per lookup, rarest words first
CANDIDATES = 20  # templates verified per exception of the input


@dataclass(frozen=True, slots=True)
class Scored:
    """One verified candidate template with its score and the evidence for it."""

    template: int
    site: int
    score: float
    method: str  # "exact" | "fuzzy" | "frame"
    pinned: bool
    values: tuple[tuple[str, str], ...]


def retrieve(idx: MatchIndex, text: str, limit: int = CANDIDATES) -> list[tuple[int, float]]:
    """``(template, share)`` for the templates whose indexed words best cover their own weight.

    ``share`` is the IDF-weighted part of the template's words found in the
    message, counting the words read within the posting budget (rarest first).
    """
    present = sorted((d, w) for w in set(keys(text)) if (d := idx.df(w)))
    acc: dict[int, float] = {}
    budget = 0
    for df, w in present:
        if acc and budget + df > POSTING_BUDGET:
            break  # the remaining words are commoner: they would add many postings and little weight
        weight = idx.idf(w)
        for t in idx.posting(w):
            acc[t] = acc.get(t, 0.0) + weight
        budget += df
    templates = idx.templates
    ranked = [(a / (templates[t][T_WEIGHT] or 1.0), a, t) for t, a in acc.items()]
    # the templates whose words are best covered, and those that share the most weight with the
    # message (a long template of which the message is only a part)
    best = [(t, min(sh, 1.0)) for sh, _, t in heapq.nlargest(limit, ranked)]
    seen = {t for t, _ in best}
    best.extend((t, min(sh, 1.0)) for a, sh, t in heapq.nlargest(limit // 3, ((a, sh, t) for sh, a, t in ranked))
                if t not in seen)
    # a template of no indexable word ("a <= 1.0") is found by its whole text
    best.extend((t, 1.0) for t in idx.exact.get(text.strip().lower(), ()) if t not in acc)
    return best


def specificity(litchars: int) -> float:
    """How unlikely the literal text is to match by chance: 0 for none, ~1 beyond 40 chars."""
    return 1.0 - math.exp(-litchars / 14.0)


def score_template(
    idx: MatchIndex, tno: int, text: str, text_words: frozenset[str], exc_name: str,
    share: float | None = None,
) -> tuple[float, str, tuple[tuple[str, str], ...]]:
    """(score before frame evidence, method, placeholder values) of template ``tno`` for ``text``."""
    t = idx.templates[tno]
    segs = t[T_SEGS]
    litchars = t[T_LITCHARS]
    spec = specificity(litchars)
    v = V.verify(segs, text)
    if v.exact and litchars:
        score = 0.62 + 0.36 * spec
        if not (v.anchored_start and v.anchored_end):
            # text around the template: an exception class that adds to its message, or notes
            explained = v.total / max(len(text), 1)
            score -= 0.08 * (1.0 - min(1.0, explained * 2))
        method = "exact"
        vals = tuple(V.values(segs, text, v))
    else:
        if share is None:
            tw = idx.words_of(tno)
            if not tw:
                return 0.0, "fuzzy", ()
            got = sum(wt for w, wt in tw if w in text_words)
            overlap = got / (sum(wt for _, wt in tw) or 1.0)
        else:
            overlap = share  # the retrieval's estimate, for candidates far down the list
        score = 0.72 * (overlap**2) * spec * (0.5 + 0.5 * v.coverage)
        # the message is part of the template (a conditional tail the code did not append):
        # how much of the *message* the literal text found in order explains
        lits = [x for lit, x in segs if lit]
        found = sum(len(x) for x, sp in zip(lits, v.spans, strict=True) if sp is not None and len(x.strip()) >= 4)
        explained = min(1.0, found / max(len(text), 1))
        score = max(score, 0.72 * specificity(found) * explained**2 * (0.5 + 0.5 * v.coverage))
        method = "fuzzy"
        vals = ()
    site = idx.sites[t[T_SITE]]
    score *= type_factor(exc_name, site[S_EXC_NAME], site[S_EXC])
    return max(0.0, min(1.0, score)), method, vals


def type_factor(printed: str, raised_name: str, raised_as_written: str) -> float:
    """1 when the printed type is the raised one (or unknown), less when they disagree."""
    if not printed:
        return 1.0
    if printed == raised_name:
        return 1.0
    written = raised_as_written.rsplit(".", 1)[-1]
    if not written[:1].isupper():  # ``raise err_cls(...)``: cannot tell
        return 0.9
    return 0.55


def pinned_sites(idx: MatchIndex, path: str, line: int | None) -> list[int]:
    """Sites of ``path`` (repo-relative) whose line range holds ``line``."""
    if line is None:
        return []
    return [s for lo, hi, s in idx.locations.get(path, ()) if lo <= line <= hi]


def site_range(idx: MatchIndex, site: int) -> tuple[str, int, int]:
    s = idx.sites[site]
    return s[S_PATH], s[S_LINE], s[S_END]
