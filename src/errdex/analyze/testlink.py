"""Link tests that expect an exception to the errors they trigger.

Each test chooses its sites, not the other way round: its expected type
must be the site's class or one of its bases, and its pattern must agree with
the site's template (``patterns.match_pattern``).  Among the agreeing sites
only the best-scoring ones are kept, and a test whose best score is shared
by more than ``MAX_TIES`` sites is too vague to be evidence for any of them.
A test without a pattern is linked only when its (library-defined) class is
raised at exactly one site.

Candidates come from an index of the templates' words, so a test is compared
with the few sites that share its rarest word rather than with every
``ValueError`` in the library.
"""

from __future__ import annotations

import builtins
from collections import defaultdict
from collections.abc import Sequence

from errdex.analyze.patterns import match_pattern, pattern_words, safe_compile, template_words
from errdex.model import ErrorSite, TestExpectation

MAX_TIES = 5
MAX_TESTS_PER_ERROR = 5
Link = tuple[TestExpectation, str, float]


def _is_builtin(name: str) -> bool:
    return isinstance(getattr(builtins, name, None), type)


def _compatible(expected: str, site: ErrorSite) -> bool:
    name = expected.rsplit(".", 1)[-1]
    if name == site.exception_name:
        return True
    bases = {b.rsplit(".", 1)[-1] for b in site.exception_bases}
    return name in bases and name not in ("Exception", "BaseException")


def link_all(all_sites: Sequence[ErrorSite], tests: Sequence[TestExpectation]) -> dict[str, list[Link]]:
    """Error id -> its linked tests, best first (at most ``MAX_TESTS_PER_ERROR``)."""
    sites = [s for s in all_sites if s.error_id]
    index: defaultdict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(sites):
        words: set[str] = set()
        for t in s.templates:
            words |= template_words(t)
        for w in words:
            index[w].append(i)
    by_class: defaultdict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(sites):
        by_class[s.exception_name].append(i)
    links: defaultdict[str, list[Link]] = defaultdict(list)
    for test in tests:
        for i, how, score in _best_sites(test, sites, index, by_class):
            links[sites[i].error_id].append((test, how, score))
    out: dict[str, list[Link]] = {}
    for eid, lst in links.items():
        lst.sort(key=lambda x: (-x[2], x[0].path, x[0].line))
        out[eid] = lst[:MAX_TESTS_PER_ERROR]
    return out


def _best_sites(test: TestExpectation, sites: list[ErrorSite], index: dict[str, list[int]],
                by_class: dict[str, list[int]]) -> list[tuple[int, str, float]]:
    name = test.exception.rsplit(".", 1)[-1]
    if not test.pattern:
        owned = by_class.get(name, [])
        if len(owned) == 1 and not _is_builtin(name):
            return [(owned[0], "type", 1.0)]
        return []
    words = pattern_words(test.pattern)
    candidates: list[int] | None = None
    for w in sorted(words, key=lambda w: len(index.get(w, ())) or 10**9):
        hits = index.get(w)
        if hits:
            candidates = hits
            break
    if not candidates:
        return []
    rx = safe_compile(test.pattern)
    scored: list[tuple[int, str, float]] = []
    for i in candidates:
        s = sites[i]
        if not _compatible(test.exception, s):
            continue
        best = None
        for t in s.templates:
            m = match_pattern(test.pattern, t, rx)
            if m is not None and (best is None or m.score > best.score):
                best = m
        if best is not None:
            scored.append((i, best.how, best.score))
    if not scored:
        return []
    top = max(sc for _, _, sc in scored)
    winners = [x for x in scored if x[2] == top]
    return winners if len(winners) <= MAX_TIES else []

