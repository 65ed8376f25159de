"""A template's edge placeholder that absorbs text another reading of the message explains literally.

A placeholder at a template's end (or start) takes whatever text lies beyond its last (first) literal, so a
short template ``invalid value {value} for optional argument {self._name[1:]}`` (xmlschema 4.3.2's
``Argument.__str__`` in a message of its own) verifies exactly against every message of
``validate_choice``, ``invalid value 'foo' for optional argument 'validation': must be one of ('strict',
...)``: its ``{self._name[1:]}`` takes ``'validation': must be one of (...)``, the text that the other site's
``invalid value {value} for {attr}: must be one of {tuple(choices)}`` explains with literal text of its own.
Scored by its literal text alone the shorter template may even come first (round 16: eight confident-wrong
answers per mode).  An edge value is no evidence: a template whose edge placeholder holds literal text of an
exactly verified rival never scores above that rival (``dominated``), and when each of two templates holds
the other's literal text at its edges, neither explains more: they are held level (a tie, not confident).

The rival must read the same text, not text around it: one of its literals overlaps one of the template's
own (both start ``invalid value ``).  A message nested whole in a value (a wrapper's ``{e}`` holding another
site's message, ``wrap.py``) shares no literal with the wrapper and is no rival here; templates tied by a
wrap are skipped as well.  An edge placeholder holding a caught exception's text (``{e}\nPath: .``) is no
edge here: what the caught call raised is another raise's message, which the wrap and tie rules weigh
(typedload's two re-raises of ``{e}\nPath: .`` stay a tie, ``tests/match/test_framed_rewrap.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from errdex.match import rank as R
from errdex.match.index import T_SEGS, MatchIndex
from errdex.match.indexdata import caught

EDGE_LETTERS = 3  # letters or digits of a rival's literal text inside the edge value before it counts
BELOW = 0.99  # a dominated template's score at most this share of its rival's

Span = tuple[int, int]


def _readings(idx: MatchIndex, spans: Mapping[int, list[Span]], text: str) -> dict[int, tuple[list[Span], list[Span]]]:
    """Each exactly verified template's literal spans (``rank.literal_spans``) and its edge values (the text its
    first placeholder takes when it starts with one, and its last when it ends with one)."""
    out: dict[int, tuple[list[Span], list[Span]]] = {}
    for t, sp in spans.items():
        segs = idx.templates[t][T_SEGS]
        edges: list[Span] = []
        if sp and not segs[0][0] and sp[0][0] > 0 and not caught(segs[0][1], None):
            edges.append((0, sp[0][0]))
        if sp and not segs[-1][0] and sp[-1][1] < len(text) and not caught(segs[-1][1], None):
            edges.append((sp[-1][1], len(text)))
        out[t] = (sp, edges)
    return out


def _holds(edges: list[Span], spans: list[Span], text: str) -> bool:
    """Whether literal ``spans`` of a rival lie in ``edges`` with ``EDGE_LETTERS`` letters or more."""
    inside = [(a, b) for a, b in spans if any(lo <= a and b <= hi for lo, hi in edges)]
    return sum(ch.isalnum() for a, b in inside for ch in text[a:b]) >= EDGE_LETTERS


def dominated(idx: MatchIndex, templates: Sequence[int], scores: Sequence[float],
              spans: Mapping[int, list[Span]], text: str, group: Mapping[int, int]) -> list[float]:
    """``scores`` with each exactly verified template (``templates``) whose edge value holds a rival's literal
    text kept below that rival (level with it when each holds the other's).  ``spans`` holds each one's literal
    spans (``rank.literal_spans``); ``group`` maps a template to its wrap group (a wrap is no rival)."""
    read = _readings(idx, {t: spans[t] for t in templates}, text)
    best: dict[int, float] = {}
    for t, s in zip(templates, scores, strict=True):
        best[t] = max(best.get(t, 0.0), s)
    caps: dict[int, float] = {}
    for a, (spans_a, edges_a) in read.items():
        if not edges_a:
            continue
        for b, (spans_b, edges_b) in read.items():
            if b == a or not spans_b or group.get(a, a) == group.get(b, b) or not R.overlaps(spans_a, spans_b):
                continue
            if not _holds(edges_a, spans_b, text):
                continue
            mutual = _holds(edges_b, spans_a, text)
            cap = min(best[a], best[b]) if mutual else best[b] * BELOW
            caps[a] = min(caps.get(a, 1.0), cap)
    return [min(s, caps[t]) if t in caps else s for t, s in zip(templates, scores, strict=True)]
