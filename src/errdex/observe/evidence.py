"""Observations as page evidence: the ``observed`` list of an error's document, and which of the
static test links (``analyze/testlink.py``, a guess from names and patterns) a real run confirms.

Light on purpose: the web server and ``show --json`` import this, never the sandbox.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, TypedDict

from errdex.model import Analysis, Observation, ObserveRun, Snapshot

if TYPE_CHECKING:
    from errdex.catalog.base import Catalog

MAX_OBSERVED = 20


class ObservedArgJSON(TypedDict):
    name: str
    type: str
    repr: str


class ObservedEntry(TypedDict):
    """One distinct way the library's tests reached this error (``errdex observe``)."""

    message: str  # the real message, as str(exception) gave it
    exception: str  # qualified class
    test: str  # pytest node id
    entry: str  # the outermost library function called on the way (the public call)
    escaped: bool  # reached the test (True) or was caught inside the library (False)
    count: int  # how many times this (message, test, entry, escaped) was seen
    test_path: str  # repo-relative test file
    test_line: int
    test_url: str  # the test's source pinned at the snapshot's commit, "" when unknown
    entry_args: list[ObservedArgJSON]
    chain: list[str]  # "module.function (path:line)", test first


class StaticTestLink(TypedDict):
    """A test that the static analysis linked to the error, and whether an observation confirms it."""

    name: str
    path: str
    line: int
    url: str
    confirmed: bool


def test_url(snapshot: Snapshot, path: str, line: int) -> str:
    """Link to a repo-relative test file at the snapshot (tests are not under the package prefix)."""
    if not snapshot.url_base or not path:
        return ""
    return f"{snapshot.url_base.rstrip('/')}/{path}" + (f"#L{line}" if line else "")


def entry_of(o: Observation, snapshot: Snapshot) -> ObservedEntry:
    return ObservedEntry(
        message=o.message, exception=o.exception, test=o.test, entry=o.entry, escaped=o.escaped, count=o.count,
        test_path=o.test_path, test_line=o.test_line, test_url=test_url(snapshot, o.test_path, o.test_line),
        entry_args=[ObservedArgJSON(name=a.name, type=a.type, repr=a.repr) for a in o.entry_args],
        chain=list(o.chain),
    )


def observed_entries(catalog: Catalog, snapshot: Snapshot, error_id: str) -> list[ObservedEntry]:
    """The error's observations at ``snapshot``, most frequent first, bounded."""
    found = catalog.observations(error_id=error_id, snapshot_key=snapshot.key)
    return [entry_of(o, snapshot) for o in found[:MAX_OBSERVED]]


def _test_name(nodeid: str) -> str:
    """``tests/t.py::TestA::test_b[x]`` → ``TestA.test_b``: the spelling of TestExpectation.test_name."""
    parts = nodeid.split("::")[1:]
    return ".".join(re.sub(r"\[.*\]$", "", p) for p in parts)


def static_test_links(analysis: Analysis | None, observed: list[Observation] | list[ObservedEntry],
                      ran: bool) -> list[StaticTestLink]:
    """The analysis's test evidence; ``confirmed`` when an observation ran that very test and reached
    this error (only meaningful when the snapshot was observed: ``ran``)."""
    if analysis is None:
        return []
    seen: set[tuple[str, str]] = set()
    for o in observed:
        test = o.test if isinstance(o, Observation) else o["test"]
        path = test.split("::", 1)[0]
        seen.add((path, _test_name(test)))
    out: list[StaticTestLink] = []
    for ev in analysis.evidence:
        if ev.kind != "test":
            continue
        confirmed = ran and any(
            (p.endswith(ev.path) or ev.path.endswith(p)) and (name == ev.text or name.endswith("." + ev.text))
            for p, name in seen
        )
        out.append(StaticTestLink(name=ev.text, path=ev.path, line=ev.line, url=ev.url, confirmed=confirmed))
    return out


class RaisedInstead(TypedDict):
    """The error a user sees when the library catches this one and raises another (``from None``, or
    wrapped): seen in the same test, raised by a function on this error's way, and reaching the test."""

    error_id: str  # the other error's id (its page: /errors/<id>)
    exception: str
    message: str  # the real message, as the test saw it
    test: str
    raised_in: str  # "module.function": the library function that caught this error and raised that one


def _function(frame: str) -> str:
    """``jax._src.pjit._infer_input_type (jax/_src/pjit.py:123)`` -> ``jax._src.pjit._infer_input_type``."""
    return frame.split(" (", 1)[0]


def raised_instead(found: list[Observation], same_snapshot: list[Observation]) -> list[RaisedInstead]:
    """For an error only ever seen caught inside the library: the escaped errors of the same tests
    that a function on its way raised (the caller chain of the other is this one's, up to the frame
    that raised it), most frequent first, one per error id."""
    if not found or any(o.escaped for o in found):
        return []
    out: dict[str, RaisedInstead] = {}
    for o in found:
        mine = [_function(f) for f in o.chain]
        for other in same_snapshot:
            if (not other.escaped or other.test != o.test or other.error_id in ("", o.error_id)
                    or other.error_id in out or len(other.chain) < 2):
                continue
            theirs = [_function(f) for f in other.chain]
            k = len(theirs) - 1  # the frame that raised the other error
            if k < len(mine) - 1 and mine[:k + 1] == theirs:
                out[other.error_id] = RaisedInstead(error_id=other.error_id, exception=other.exception,
                                                    message=other.message, test=other.test,
                                                    raised_in=theirs[-1])
    return list(out.values())[:3]


class ObservationFields(TypedDict):
    observed: list[ObservedEntry]
    observed_run: bool
    test_links: list[StaticTestLink]
    raised_instead: list[RaisedInstead]  # what users see instead when the library never lets it out


def observation_document(catalog: Catalog, snapshot: Snapshot, error_id: str,
                         analysis: Analysis | None) -> ObservationFields:
    """The fields an error's document gains from observation."""
    found = catalog.observations(error_id=error_id, snapshot_key=snapshot.key)
    ran = catalog.observe_run(snapshot.key) is not None
    return ObservationFields(
        observed=[entry_of(o, snapshot) for o in found[:MAX_OBSERVED]],
        observed_run=ran,
        test_links=static_test_links(analysis, found, ran),
        raised_instead=raised_instead_of(catalog, snapshot.key, found),
    )


def raised_instead_of(catalog: Catalog, snapshot_key: str, found: list[Observation]) -> list[RaisedInstead]:
    """``raised_instead`` for an error's observations, reading the snapshot's other observations only when
    the error was never seen escaping (otherwise there is nothing to look for)."""
    if not found or any(o.escaped for o in found):
        return []
    return raised_instead(found, _snapshot_sites(catalog, snapshot_key))


_SITES_CACHE: dict[tuple[str, str], list[Observation]] = {}


def _snapshot_sites(catalog: Catalog, snapshot_key: str) -> list[Observation]:
    """The snapshot's site observations, read once per catalog generation: exporting a whole catalog asks
    for them once per caught-only error, and they only change when the catalog does (its generation,
    which names the catalog too, is the key; one entry is kept)."""
    key = (catalog.generation(), snapshot_key)
    cached = _SITES_CACHE.get(key)
    if cached is None:
        _SITES_CACHE.clear()
        cached = _SITES_CACHE[key] = catalog.observations(snapshot_key=snapshot_key, kind="site")
    return cached


class ObservedStats(TypedDict):
    """``errdex stats --json``: what the last ``errdex observe`` of a snapshot saw (None: never observed)."""

    sites: int
    events: int
    tests: int
    failed_files: int
    duration_s: float


def observed_stats(run: ObserveRun | None) -> ObservedStats | None:
    if run is None:
        return None
    return ObservedStats(sites=run.sites, events=run.events, tests=run.tests,
                         failed_files=len(run.failed_files), duration_s=run.duration_s)
