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
import itertools
import math
import re
from collections.abc import Mapping, Sequence

from errdex.match import verify as V
from errdex.match.argstuple import (
    ARGS_CAP,
    ARGS_TUPLE,
    JSON_SHOWN,
    JSON_STEP,
    LIST_SHOWN,
    args_tuple_fields,
    json_shown,
    json_values,
    list_shown,
    printed_fields,
    printed_json,
    printed_list,
    tuple_values,
)
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
from errdex.match.indexdata import PICKED_CLASS, SHAPED
from errdex.match.lines import BUILTIN_EXCEPTIONS
from errdex.record import dataclass

THRESHOLD = 0.5
LEAD_CHARS = 20  # text before a template's first literal (the template starts with one) ...
LEAD_SHARE = 0.25  # ... this long, and this share of the text: another's message around it
POSTING_BUDGET = 1_000  # postings read per lookup, rarest words first
CANDIDATES = 20  # templates verified per exception of the input
SHARE_DIGITS = 9  # a retrieval share's digits that count (the rest is the float sums' order)
ALIKE = 4  # ... and at most this many times as many more, of the same text and class as those
UNEXPLAINED = 0.3  # an exact match loses up to this much for the share of the text left around it:
# pandas 3.1.1 (raised in Cython, no Python raise site), "Limit must be an integer" matched a template
# `integer` at 0.71 with 0.02; across six real data sets only such guesses changed
SHORT_LITERAL = 6  # an exact template with less literal text than this is a lead, never confident alone
OWN_LETTERS = 3  # ... or fewer letters and digits than this (punctuation, Python's group suffix)
SHORT_CAP = 0.45  # ... its score at most (a frame pin, a wrapped message or a tie can still raise it)
RIVAL_LITERAL = 8  # characters of literal text an exact candidate needs to count as a rival reading


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
    firsts, alike = _distinct(idx, acc)
    # shares rounded: a template whose words are all found has a share of 1 up to the float sums' order, and
    # that noise (1 + 1e-16 against 1 - 1e-16) must not decide which of them are cut; the weight found does
    ranked = [(round(a / (templates[t][T_WEIGHT] or 1.0), SHARE_DIGITS), a, t) for t, a in firsts]
    # the templates whose words are best covered, and those that share the most weight with the
    # message (a long template of which the message is only a part)
    kept = [(t, min(sh, 1.0)) for sh, _, t in heapq.nlargest(limit, ranked)]
    seen = {t for t, _ in kept}
    kept.extend((t, min(sh, 1.0)) for a, sh, t in heapq.nlargest(limit // 3, ((a, sh, t) for sh, a, t in ranked))
                if t not in seen)
    best: list[tuple[int, float]] = []
    room = ALIKE * limit
    for t, sh in kept:  # each text kept, then the others of its text and class
        more = alike.get(t, [])[:room]
        room -= len(more)
        best.extend([(t, sh), *((u, sh) for u in more)])
    # a template of no indexable word ("a <= 1.0") is found by its whole text
    best.extend((t, 1.0) for t in idx.exact.get(text.strip().lower(), ()) if t not in acc)
    # one of no word whose every literal part is in the text (``{}:{}:{}: {} => '{}'``): verified like the others
    best.extend((t, 1.0) for t in idx.rewraps.get(SHAPED, ())
                if all(x.strip() in text for lit, x in idx.templates[t][T_SEGS] if lit))
    # a text printed as the tuple of N values (`('abc', <...>)`): the templates that are that frame (``argstuple``)
    if (fields := printed_fields(text)) is not None:
        best.extend((t, 1.0) for t in idx.rewraps.get(f"{ARGS_TUPLE}{fields}", ()) if t not in acc)
    if printed_list(text):  # a text printed as a list (`[('a', 'b')]`): the templates of a list raised as it is
        best.extend((t, 1.0) for t in idx.rewraps.get(LIST_SHOWN, ()) if t not in acc)
    if printed_json(text):  # a text ending with a JSON document: the templates printing a `json.dumps(...)` last
        best.extend((t, 1.0) for t in idx.rewraps.get(JSON_SHOWN, ()) if t not in acc)
    return best


def _distinct(idx: MatchIndex, acc: dict[int, float]) -> tuple[list[tuple[int, float]], dict[int, list[int]]]:
    """One template of each text raised as one class, and the others of its text (in descending order).

    A text that many sites raise alike (xmlschema's 57 raises of one class whose ``__str__`` adds
    ``Schema component:``) scores alike at every one of them and filled the cut by template number,
    crowding out other texts of equal share: the cut is made among distinct texts, and the others of a
    text kept come back right after it, in the order the cut used to put them in."""
    templates, sites = idx.templates, idx.sites
    groups: dict[tuple[object, str], list[int]] = {}
    for t in sorted(acc, reverse=True):
        row = templates[t]
        groups.setdefault((row[T_SEGS], sites[row[T_SITE]][S_EXC_NAME]), []).append(t)
    return [(g[0], acc[g[0]]) for g in groups.values()], {g[0]: g[1:] for g in groups.values() if len(g) > 1}


def specificity(litchars: int) -> float:
    """How unlikely the literal text is to match by chance: 0 for none, ~1 beyond 40 chars."""
    return 1.0 - math.exp(-litchars / 14.0)


def _reread(
    segs: tuple[tuple[bool, str], ...], text: str, v: V.Verification, vals: tuple[tuple[str, str], ...],
) -> tuple[V.Verification, tuple[tuple[str, str], ...], bool]:
    """Read an exactly found template again when the first reading left a value implausible, the values
    first: a literal of spaces read as sharing the space of an empty value before it (cel-python's ``no
    such overload: {self!r} {type(self)} != ...`` gave ``self`` nothing and ``type(self)`` both), or a
    leading placeholder read as empty because the message starts with the first literal's words (``{x} AA
    {type(v).__name__} AA`` printed ``AA AA AA AA`` gave the name ``AA AA``)."""
    for v2 in V.other_readings(segs, text):
        vals2 = tuple_values(segs, text, tuple(V.values(segs, text, v2))) if v2.exact else ()
        if v2.exact and V.reprs_plausible(vals2, not segs[-1][0]) and V.names_plausible(segs, vals2):
            return v2, vals2, True
    return v, vals, False


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
    vals = tuple(V.values(segs, text, v)) if v.exact and litchars else ()
    vals = tuple_values(segs, text, vals)  # `({a!r}, {b!r})`: the values between the top-level separators
    plausible = V.reprs_plausible(vals, bool(segs) and not segs[-1][0]) and V.names_plausible(segs, vals)
    if v.exact and litchars and not plausible:
        v, vals, plausible = _reread(segs, text, v, vals)
    if json_shown(segs) and not own_letters(segs):
        # `{status} {json.dumps(data)}`: values and the payload printed, no word: "a JSON document", a lead
        # when the payload's place holds one (`{msg}: {status} {json...}` read at a `: ` inside it does not)
        # (a reading that places more literal parts explains more of the text: `{msg}: {status} {json...}` read
        # as `Max number exceeded`, `403`, the payload, above `{status} {json...}` taking `Max number exceeded: 403`)
        jvals = json_values(segs, text, _head_values)
        parts = sum(1 for lit, _ in segs if lit)
        return (ARGS_CAP - JSON_STEP / (1 + parts), "exact", jvals) if jvals is not None else (0.0, "fuzzy", ())
    if v.exact and litchars and plausible:
        score = exact_score(litchars, v, text)
        if litchars < SHORT_LITERAL or own_letters(segs) < OWN_LETTERS:
            # `{a} is {b}`, `{e} in {key}`: half of all sentences fit; `({e}, {path!r}, {i})` (an args tuple)
            # or an exception group's ` ({len(excs)} sub-exceptions)` says nothing of the library's own
            score = min(score, SHORT_CAP)
        if args_tuple_fields(segs) is not None or list_shown(segs):
            # a frame of punctuation says "N values" and no word of them: below a template whose words the
            # message shares (rule-engine's `('syntax error (illegal character ...)', {t})` read fuzzily)
            score = min(score, ARGS_CAP)
        method = "exact"
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
        if v.exact and litchars:  # every literal found, but a repr value says not in the right places
            score = min(score, SHORT_CAP)
        if segs[0][0] and v.spans and v.spans[0] is None:
            # the template's opening words are not in the text: another sentence of the same make (codext's
            # `'polybius' codec can't decode ...` against `'base{n}' codec can't decode ...`), written
            # elsewhere; a lead, never confident (a tail that differs still can be: a value the code changed)
            score = min(score, THRESHOLD * 0.9)
        vals = ()
    score *= site_type_factor(idx, exc_name, t[T_SITE])
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
        lead = v.spans[0][0] if not v.anchored_start and v.spans and v.spans[0] is not None else 0
        if (lead >= LEAD_CHARS and lead >= LEAD_SHARE * len(text)) or _runs_on(text, lead) or _mid_word(v, text):
            # `f"{msg}: {e}"` in the caller's code: a sentence of someone else's before the template's first
            # literal; the site raised the text at the end, not this one
            score = min(score, THRESHOLD * 0.9)
    return score


def _mid_word(v: V.Verification, text: str) -> bool:
    """Whether the template's first literal (the template starts with it) was found as the tail of a longer
    word, or its last literal (the template ends with it) as the head of one: ``Semaphore released too many
    times`` inside asyncio's ``BoundedSemaphore released too many times``.  The literal was not found as
    written: the template's own text starts (ends) there, and a letter or digit glued to it came from
    elsewhere.  (A placeholder at that end, ``{prefix}Semaphore``, anchors the template: no such literal.)"""
    first = v.spans[0] if v.spans else None
    if not v.anchored_start and first is not None and 0 < first[0] < first[1] \
            and text[first[0] - 1].isalnum() and text[first[0]].isalnum():
        return True
    last = v.spans[-1] if v.spans else None
    return not v.anchored_end and last is not None and last[0] < last[1] < len(text) \
        and text[last[1] - 1].isalnum() and text[last[1]].isalnum()


def _runs_on(text: str, lead: int) -> bool:
    """Whether the text before a template's first literal ends in a word and a space: the template's text
    continues a sentence it did not write (``string too long`` around a site's ``too long``, ``The DNS message
    is too big.`` around ``too big``), rather than follow a tag (``Error: ``, ``[x] ``, a line of its own)."""
    if lead < 2 or text[lead - 1] not in " \t":
        return False
    before = text[:lead].rstrip(" \t")
    return bool(before) and before[-1].isalnum()


_GROUP_SUFFIX = re.compile(r"\s*\(\x00 sub-exceptions?\)$")


def _head_values(segs: Sequence[tuple[bool, str]], text: str) -> list[tuple[str, str]] | None:
    """The values of a template's parts that hold a whole text exactly (``argstuple.json_values``' head)."""
    v = V.verify(tuple(segs), text)
    return V.values(tuple(segs), text, v) if v.exact else None


def own_letters(segs: Sequence[tuple[bool, str]]) -> int:
    """Letters and digits of a template's literal text, without the ` (N sub-exceptions)` Python appends
    to an exception group's message: punctuation and Python's own words say nothing of the raise."""
    shown = _GROUP_SUFFIX.sub("", "".join(text if lit else "\x00" for lit, text in segs))
    return sum(ch.isalnum() for ch in shown)


def _outside(v: V.Verification, n: int) -> int:
    """Characters of the text before the template's first literal and after its last, when it starts/ends with one."""
    first, last = v.spans[0] if v.spans else None, v.spans[-1] if v.spans else None
    out = 0
    if not v.anchored_start and first is not None:
        out += first[0]
    if not v.anchored_end and last is not None:
        out += n - last[1]
    return out


def literal_spans(idx: MatchIndex, templates: Sequence[int], text: str) -> dict[int, list[tuple[int, int]]]:
    """Each template's literal spans in ``text`` when it is exactly verified ([] otherwise), verified once: the
    rival factors below and ``absorbed``'s edge readings both weigh them."""
    out: dict[int, list[tuple[int, int]]] = {}
    for t in templates:
        if t not in out:
            out[t] = V.verify(idx.templates[t][T_SEGS], text).literal_spans
    return out


def rival_factors(idx: MatchIndex, templates: Sequence[int], spans: Mapping[int, list[tuple[int, int]]], text: str,
                  group: Mapping[int, int]) -> list[float]:
    """For each exactly verified template, the share of the rival literal text that is its own (1: no rival).

    A *rival* of template A is another exactly verified candidate B (with
    ``RIVAL_LITERAL`` characters of literal text or more; A may have fewer) none of whose
    literals overlaps one of A's: B's literal text lies where A sees only a
    value or text around it.  A real message with a long value holds no other
    template's text there; a text strung together from several errors' texts
    (or from a catalog's words) holds many, and then no template explains it.
    B is no rival when the two are one explanation: tied by a wrap (``group``
    maps a template to its wrap group; a wrapper explains its inner message's
    literals too), or B's message sits at one end of a value of A or A's at
    one end of a value of B (code that put a caught error's message into its
    own, where ``find`` could not tell where the value starts), or B's
    literals overlap those of such a nested message (another version of it).  A's factor
    is ``own / (own + rival)``, with ``rival`` the characters of the text its
    rivals' literals cover: a short rival inside a value costs a long
    template little, a rival as long as A halves it.  ``spans`` holds each
    template's literal spans (``literal_spans``): linear in the text.
    """
    gaps = {t: _values(idx.templates[t][T_SEGS], sp, len(text)) for t, sp in spans.items() if sp}
    # a wrapper explains its inner message's literals as its own (and the inner one the wrapper's)
    joint: dict[int, list[tuple[int, int]]] = {}
    for u, sp in spans.items():
        joint.setdefault(group.get(u, u), []).extend(sp)
    out: list[float] = []
    for t in templates:
        if not spans[t]:
            out.append(1.0)
            continue
        g = group.get(t, t)
        # its reading of the text: its wrap group's literals and the messages nested at a value's end
        own = list(joint[g])
        for u, sp in spans.items():
            if sp and group.get(u, u) != g and (_at_value_edge(sp, gaps[t]) or _at_value_edge(spans[t], gaps[u])):
                own.extend(sp)
        own.sort()
        found = sorted(s for u, sp in spans.items()
                       if sp and idx.templates[u][T_LITCHARS] >= RIVAL_LITERAL and not overlaps(sp, own) for s in sp)
        rival, end = 0, 0
        for a, b in found:  # the characters the rivals' literals cover (spans merged)
            if b > end:
                rival += b - max(a, end)
                end = b
        mine = sum(b - a for a, b in spans[t])
        out.append(mine / (mine + rival))
    return out


def _values(segs: tuple[tuple[bool, str], ...], spans: list[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    """The stretches of the text that the template's placeholders absorb (between and around its literals)."""
    out = [(a[1], b[0]) for a, b in itertools.pairwise(spans) if b[0] > a[1]]
    if segs and not segs[0][0]:
        out.append((0, spans[0][0]))
    if segs and not segs[-1][0]:
        out.append((spans[-1][1], n))
    return out


def _at_value_edge(spans: list[tuple[int, int]], values: list[tuple[int, int]]) -> bool:
    """Whether literals ``spans`` lie within one of ``values`` and reach its start or its end (bar a space)."""
    lo, hi = spans[0][0], spans[-1][1]
    return any(a <= lo and hi <= b and (lo - a <= 1 or b - hi <= 1) for a, b in values)


def overlaps(xs: list[tuple[int, int]], ys: list[tuple[int, int]]) -> bool:
    """Whether any span of ``xs`` overlaps one of ``ys`` (both sorted by start; ``ys`` may overlap itself)."""
    i = j = 0
    while i < len(xs) and j < len(ys):
        if xs[i][1] <= ys[j][0]:
            i += 1
        elif ys[j][1] <= xs[i][0]:
            j += 1
        else:
            return True
    return False


def composite_score(idx: MatchIndex, outer: int, inner: int, text: str, exc_name: str) -> float:
    """The score of template ``outer`` whose placeholder holds the whole message of ``inner`` (``wrap.py``).

    The literal text of both is explained as literal text, so both count
    towards specificity; the exception type is the outer site's.
    """
    t, u = idx.templates[outer], idx.templates[inner]
    v = V.verify(t[T_SEGS], text)
    inner_total = sum(len(x) for lit, x in u[T_SEGS] if lit)
    score = exact_score(t[T_LITCHARS] + u[T_LITCHARS], v, text, inner_total)
    return max(0.0, min(1.0, score * site_type_factor(idx, exc_name, t[T_SITE])))


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
    if not class_known(raised_as_written):  # ``raise err_cls(...)``: cannot tell
        return UNKNOWN_CLASS
    return 0.55


def picks(idx: MatchIndex, printed: str, site: int) -> bool:
    """Whether a site naming a table's classes' common base picks the printed class from it (``PICKED_CLASS``)."""
    return any(idx.templates[t][T_SITE] == site for t in idx.rewraps.get(PICKED_CLASS + printed, ()))


def site_type_factor(idx: MatchIndex, printed: str, site: int) -> float:
    """``type_factor`` of a site, 1 when the printed class is one it picks from a table."""
    row = idx.sites[site]
    return 1.0 if printed and picks(idx, printed, site) else type_factor(printed, row[S_EXC_NAME], row[S_EXC])


UNKNOWN_CLASS = 0.9  # the type factor of a site whose class is a value (``raise err_cls(...)``, ``raise error``)


def class_known(raised_as_written: str) -> bool:
    """Whether a site names its class (not ``raise err_cls(...)`` / ``raise error`` of a parameter, nor
    ``raise engine.errorFor(Kinds.SYNTAX)(...)``: a class a call returns, ``extract/returnedclass.py``)."""
    return not raised_as_written.endswith(")") and raised_as_written.rsplit(".", 1)[-1][:1].isupper()


def may_raise(idx: MatchIndex, printed: str, site: int) -> bool:
    """Whether a site may have raised the printed class (or no class was printed)."""
    row = idx.sites[site]
    return not printed or site_type_factor(idx, printed, site) >= 0.9 \
        or subclass_of(printed, row[S_EXC_NAME])


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


def package_subclass(idx: MatchIndex, printed: str, raised: str) -> bool:
    """Whether a package class printed as ``printed`` subclasses ``raised``, by the bases the index knows
    (``MatchIndex.bases``): werkzeug's ``class ImportStringError(ImportError)``, a builtin's subclass, or a
    subclass of another package class (``class NotFound(HTTPException)``)."""
    chain = idx.bases.get(printed, ()) if printed else ()
    return raised in chain or any(subclass_of(b, raised) for b in chain)


def pinned_sites(idx: MatchIndex, path: str, line: int | None) -> list[int]:
    """Sites of ``path`` (repo-relative) whose line range holds ``line``."""
    if line is None:
        return []
    return [s for lo, hi, s in idx.locations.get(path, ()) if lo <= line <= hi]


def site_range(idx: MatchIndex, site: int) -> tuple[str, int, int]:
    s = idx.sites[site]
    return s[S_PATH], s[S_LINE], s[S_END]
