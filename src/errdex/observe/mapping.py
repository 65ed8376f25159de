"""From the recorder's events to Observations: by frames, never by text.

An event's origin frame (package-relative path, line) falls inside an
indexed site's span ``[line, end_line]`` or it does not.  Inside a span it
is that site's only if the exception's class is compatible with what the
site raises (its name is in the event's MRO, any Warning for a warning
site, or the site's class is computed at run time such as ``raise cls(...)``):
a ``TypeError`` thrown while formatting a ``ValueError``'s message is not
the ``ValueError``.  Everything else is kept and labelled: ``native`` when
C code raised it (``int('x')``, a dict lookup), ``not-a-site`` when a
Python ``raise`` errdex did not index raised it.
"""

from __future__ import annotations

import bisect
import json
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errdex.model import ErrorSite, Observation, ObservationKind, ObservedArg


@dataclass(frozen=True, slots=True)
class RawEvent:
    """One line of the recorder's output (events of one test already aggregated with a count)."""

    path: str
    line: int
    exception: str
    classes: tuple[str, ...]  # the MRO, qualified (not "mro": dataclasses would see type.mro as its default)
    message: str
    test: str
    escaped: bool
    raised_by: str
    entry: str
    args: tuple[ObservedArg, ...]
    chain: tuple[str, ...]
    count: int


@dataclass(frozen=True, slots=True)
class TestRecord:
    """One test the recorder saw finish: node id, file and line relative to the project root."""

    __test__ = False

    test: str
    path: str
    line: int
    outcome: str


def _chain(items: Any) -> tuple[str, ...]:
    out = []
    for it in items or ():
        if isinstance(it, dict):
            out.append(f"{it.get('func', '?')} ({it.get('path', '?')}:{it.get('line', 0)})")
    return tuple(out)


def read_output(path: Path) -> tuple[list[RawEvent], list[TestRecord], dict[str, Any]]:
    """Parse the recorder's JSON lines; a torn last line (a killed run) is skipped."""
    events: list[RawEvent] = []
    tests: list[TestRecord] = []
    info: dict[str, Any] = {}
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return events, tests, info
    for line in lines:
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if not isinstance(d, dict):
            continue
        kind = d.get("type")
        try:
            if kind == "event":
                events.append(RawEvent(
                    path=str(d["path"]), line=int(d["line"]), exception=str(d["exception"]),
                    classes=tuple(str(m) for m in d.get("mro", ())), message=str(d.get("message", "")),
                    test=str(d.get("test", "")), escaped=bool(d.get("escaped")),
                    raised_by=str(d.get("raised_by", "raise")), entry=str(d.get("entry", "")),
                    args=tuple(ObservedArg(name=str(a["name"]), type=str(a["type"]), repr=str(a["repr"]))
                               for a in d.get("args", ()) if isinstance(a, dict)),
                    chain=_chain(d.get("chain")), count=int(d.get("count", 1)),
                ))
            elif kind == "test":
                tests.append(TestRecord(test=str(d["test"]), path=str(d.get("path", "")),
                                        line=int(d.get("line", 0)), outcome=str(d.get("outcome", ""))))
            elif kind in ("start", "end"):
                info.update({f"{kind}_{k}": v for k, v in d.items() if k != "type"})
        except (KeyError, TypeError, ValueError):
            continue
    return events, tests, info


class SiteIndex:
    """Sites of one snapshot by path, for span look-ups."""

    def __init__(self, sites: Iterable[ErrorSite]) -> None:
        by_path: dict[str, list[ErrorSite]] = defaultdict(list)
        for s in sites:
            by_path[s.path].append(s)
        self._by_path = {p: sorted(v, key=lambda s: (s.line, s.end_line)) for p, v in by_path.items()}
        self._starts = {p: [s.line for s in v] for p, v in self._by_path.items()}

    def at(self, path: str, line: int) -> list[ErrorSite]:
        """Sites whose span holds ``line``, narrowest first."""
        sites = self._by_path.get(path)
        if not sites:
            return []
        i = bisect.bisect_right(self._starts[path], line)
        found = [s for s in sites[max(0, i - 50):i] if s.line <= line <= max(s.end_line, s.line)]
        return sorted(found, key=lambda s: s.end_line - s.line)


def compatible(site: ErrorSite, mro: tuple[str, ...]) -> bool:
    """Whether an exception with this MRO can be what ``site`` raises."""
    names = {m.rsplit(".", 1)[-1] for m in mro}
    wanted = site.exception_name.split("(", 1)[0].rsplit(".", 1)[-1]
    if wanted in names:
        return True
    if site.kind == "warning":
        return any(n.endswith("Warning") for n in names)
    # A class computed at run time (``raise cls(...)``, ``raise self.error(...)``) is not a name to check.
    return not wanted or not wanted[0].isupper()


def classify(index: SiteIndex, ev: RawEvent) -> tuple[ObservationKind, str]:
    """(kind, error_id) of one event."""
    for site in index.at(ev.path, ev.line):
        if compatible(site, ev.classes):
            return "site", site.error_id
    return ("native" if ev.raised_by == "native" else "not-a-site"), ""


def observations(snapshot_key: str, index: SiteIndex, events: Iterable[RawEvent],
                 tests: dict[str, TestRecord]) -> Iterator[Observation]:
    """Events mapped to sites and deduplicated: one Observation per distinct (where, what, test,
    entry, escaped), with the summed count."""
    merged: dict[tuple[Any, ...], Observation] = {}
    for ev in events:
        kind, eid = classify(index, ev)
        key = (kind, eid, ev.path, ev.line, ev.exception, ev.message, ev.test, ev.entry, ev.escaped)
        old = merged.get(key)
        if old is not None:
            merged[key] = Observation(**{**_fields(old), "count": old.count + ev.count})
            continue
        t = tests.get(ev.test)
        merged[key] = Observation(
            snapshot=snapshot_key, kind=kind, path=ev.path, line=ev.line, exception=ev.exception,
            message=ev.message, test=ev.test, error_id=eid, test_path=t.path if t else "",
            test_line=t.line if t else 0, entry=ev.entry, entry_args=ev.args, chain=ev.chain,
            escaped=ev.escaped, raised_by=ev.raised_by, count=ev.count,
        )
    yield from merged.values()


def _fields(o: Observation) -> dict[str, Any]:
    return {name: getattr(o, name) for name in Observation.__dataclass_fields__}
