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

import builtins
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
from errdex.match.lines import BUILTIN_EXCEPTIONS

THRESHOLD = 0.5
POSTING_BUDGET = 1_000  # postings read per lookup, rarest words first
CANDIDATES = 20  # templates verified per exception of the input
UNEXPLAINED = 0.02  # an exact match loses up to this much for the share of the text left around it


@dataclass(frozen=True, slots=True)
class Scored:
    """One verified candidate template with its score and the evidence for it."""

    template: int
    site: int
    score: float
    method: str  # "exact" | "fuzzy" | "frame"
    pinned: bool
    values: tuple[tuple[str, str], ...]
    wraps: int = -1  # the site whose whole message one of this template's placeholders holds (``wrap.py``)


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
        score = exact_score(litchars, v, text)
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


def exact_score(litchars: int, v: V.Verification, text: str, inner_total: int = 0) -> float:
    """The score of a template whose every literal was found (before the exception type is compared).

    ``litchars`` is its literal text without edge whitespace (how specific it
    is); ``inner_total`` the literal text of a message it wraps (``wrap.py``).
    """
    score = 0.62 + 0.36 * specificity(litchars)
    if not (v.anchored_start and v.anchored_end):
        # text around the template: an exception class that adds to its message, or notes
        explained = (v.total + inner_total) / max(len(text), 1)
        score -= 0.08 * (1.0 - min(1.0, explained * 2))
        # and, however long the template, a little less than one that explains the whole text
        score -= UNEXPLAINED * _outside(v, len(text)) / max(len(text), 1)
    return score


def _outside(v: V.Verification, n: int) -> int:
    """Characters of the text before the template's first literal and after its last, when it starts/ends with one."""
    first, last = v.spans[0] if v.spans else None, v.spans[-1] if v.spans else None
    out = 0
    if not v.anchored_start and first is not None:
        out += first[0]
    if not v.anchored_end and last is not None:
        out += n - last[1]
    return out


def composite_score(idx: MatchIndex, outer: int, inner: int, text: str, exc_name: str) -> float:
    """The score of template ``outer`` whose placeholder holds the whole message of ``inner`` (``wrap.py``).

    The literal text of both is explained as literal text, so both count
    towards specificity; the exception type is the outer site's.
    """
    t, u = idx.templates[outer], idx.templates[inner]
    v = V.verify(t[T_SEGS], text)
    inner_total = sum(len(x) for lit, x in u[T_SEGS] if lit)
    score = exact_score(t[T_LITCHARS] + u[T_LITCHARS], v, text, inner_total)
    site = idx.sites[t[T_SITE]]
    return max(0.0, min(1.0, score * type_factor(exc_name, site[S_EXC_NAME], site[S_EXC])))


# The "printed type" of a message shown without one whose text is the ``repr`` of a string:
# only a KeyError (or a subclass) prints its message that way, so no other builtin raised it.
REPR_MESSAGE = "<repr>"


def type_factor(printed: str, raised_name: str, raised_as_written: str) -> float:
    """1 when the printed type is the raised one (or unknown), less when they disagree."""
    if not printed:
        return 1.0
    if printed == REPR_MESSAGE:
        return 0.55 if raised_name in BUILTIN_EXCEPTIONS and raised_name != "KeyError" else 1.0
    if printed == raised_name:
        return 1.0
    written = raised_as_written.rsplit(".", 1)[-1]
    if not written[:1].isupper():  # ``raise err_cls(...)``: cannot tell
        return 0.9
    return 0.55


def subclass_of(printed: str, raised: str) -> bool:
    """Whether an exception printed as ``printed`` is an instance of the builtin class ``raised``.

    A site that re-raises what it caught (``except Exception as e: ... raise e``)
    is catalogued with the caught class; what it raises is any subclass. Only
    builtin classes are compared (Python's own hierarchy); every exception is
    an ``Exception`` or a ``BaseException``.
    """
    base = getattr(builtins, raised, None)
    if not (isinstance(base, type) and issubclass(base, BaseException)):
        return False
    if raised in ("Exception", "BaseException"):
        return bool(printed)
    cls = getattr(builtins, printed, None)
    return isinstance(cls, type) and issubclass(cls, base)


def pinned_sites(idx: MatchIndex, path: str, line: int | None) -> list[int]:
    """Sites of ``path`` (repo-relative) whose line range holds ``line``."""
    if line is None:
        return []
    return [s for lo, hi, s in idx.locations.get(path, ()) if lo <= line <= hi]


def site_range(idx: MatchIndex, site: int) -> tuple[str, int, int]:
    s = idx.sites[site]
    return s[S_PATH], s[S_LINE], s[S_END]
