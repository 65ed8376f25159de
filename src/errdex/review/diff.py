"""``errdex diff``: what changed in a library's errors between two snapshots.

Errors are compared by their stable id (DESIGN.md), which hashes the kind,
the exception's name, the normalized template and the enclosing qualname.
An id present on both sides is the same error: it is "moved" when its file
changed (line shifts alone are not news).  The ids only on one side are
then paired, most certain first, so that an edit reads as one change rather
than a removal plus an addition:

1. same kind, function and message, another exception: **exception changed**;
2. same kind, exception and message (with 8+ literal characters), another
   function: **moved**;
3. same kind, exception and function, a message at least half alike
   (``difflib`` ratio of the normalized templates): **message changed**.

What is left is **added** or **removed**.  A message change is what breaks
users' ``pytest.raises(match=...)`` and log alerts, which is why a changelog
wants it (``--format markdown``).
"""

from __future__ import annotations

import difflib
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from errdex.catalog.base import Catalog
from errdex.model import ErrorSite, Snapshot
from errdex.review.snapshots import label

ChangeKind = Literal["added", "removed", "message", "exception", "moved"]
KINDS: tuple[ChangeKind, ...] = ("added", "removed", "message", "exception", "moved")
SIMILAR = 0.5  # the least difflib ratio of two templates that makes an edit of one message


@dataclass(frozen=True, slots=True)
class ErrorRef:
    """One error as one snapshot raises it."""

    id: str
    kind: str
    exception: str  # the class name
    template: str  # rendered, with {expr} placeholders
    path: str
    line: int
    qualname: str
    module: str
    url: str  # pinned source link, "" when unknown


@dataclass(frozen=True, slots=True)
class Change:
    """One change: ``old`` is None for an added error, ``new`` None for a removed one."""

    change: ChangeKind
    old: ErrorRef | None = None
    new: ErrorRef | None = None


@dataclass(frozen=True, slots=True)
class Diff:
    """``errdex diff --json``, ``/api/diff/<owner>/<name>/<old>..<new>`` and the diff page."""

    repo: str
    old: str  # Snapshot.key
    new: str
    old_version: str
    new_version: str
    url: str
    json_url: str
    counts: dict[str, int] = field(default_factory=dict)  # added, removed, message, exception, moved, unchanged
    changes: tuple[Change, ...] = ()

    def of(self, kind: ChangeKind) -> list[Change]:
        return [c for c in self.changes if c.change == kind]


def diff_url(repo: str, old: str, new: str) -> str:
    return f"/{repo}/diff/{old}..{new}"


def diff_json_url(repo: str, old: str, new: str) -> str:
    return f"/api/diff/{repo}/{old}..{new}"


def ref_of(snap: Snapshot, site: ErrorSite) -> ErrorRef:
    return ErrorRef(
        id=site.error_id, kind=site.kind, exception=site.exception_name, template=site.template.render(),
        path=site.path, line=site.line, qualname=site.qualname, module=site.module,
        url=snap.source_url(site.path, site.line, site.end_line),
    )


def _first_by_id(sites: Iterable[ErrorSite]) -> dict[str, ErrorSite]:
    out: dict[str, ErrorSite] = {}
    for s in sites:
        out.setdefault(s.error_id, s)
    return out


def diff_snapshots(catalog: Catalog, old: Snapshot, new: Snapshot) -> Diff:
    """The changes from ``old`` to ``new`` (both of one repo), in a stable order."""
    before = _first_by_id(catalog.sites(snapshot_key=old.key))
    after = _first_by_id(catalog.sites(snapshot_key=new.key))
    changes: list[Change] = []
    unchanged = 0
    for eid in sorted(before.keys() & after.keys(), key=lambda i: (after[i].path, after[i].line)):
        a, b = before[eid], after[eid]
        if a.path != b.path:
            changes.append(Change("moved", ref_of(old, a), ref_of(new, b)))
        else:
            unchanged += 1
    gone = [before[i] for i in sorted(before.keys() - after.keys(), key=lambda i: (before[i].path, before[i].line))]
    came = [after[i] for i in sorted(after.keys() - before.keys(), key=lambda i: (after[i].path, after[i].line))]

    def pair(kind: ChangeKind, key: Callable[[ErrorSite], Hashable], similar: bool = False,
             when: Callable[[ErrorSite], bool] = lambda s: True) -> None:
        nonlocal gone, came
        waiting: dict[Hashable, list[ErrorSite]] = defaultdict(list)
        for s in came:
            if when(s):
                waiting[key(s)].append(s)
        used: set[int] = set()
        kept: list[ErrorSite] = []
        for s in gone:
            cands = [c for c in waiting.get(key(s), []) if id(c) not in used] if when(s) else []
            if similar:
                text = s.template.normalized()
                scored = [(difflib.SequenceMatcher(None, text, c.template.normalized()).ratio(), c) for c in cands]
                cands = [c for r, c in sorted(scored, key=lambda rc: -rc[0]) if r >= SIMILAR]
            if not cands:
                kept.append(s)
                continue
            used.add(id(cands[0]))
            changes.append(Change(kind, ref_of(old, s), ref_of(new, cands[0])))
        gone = kept
        came = [c for c in came if id(c) not in used]

    pair("exception", lambda s: (s.kind, s.qualname, s.template.normalized()))
    # a message one can recognise (8+ literal characters), or two unrelated bare raises would "move"
    pair("moved", lambda s: (s.kind, s.exception_name, s.template.normalized()),
         when=lambda s: s.template.longest_literal >= 8)
    pair("message", lambda s: (s.kind, s.exception_name, s.qualname), similar=True)
    changes.extend(Change("removed", old=ref_of(old, s)) for s in gone)
    changes.extend(Change("added", new=ref_of(new, s)) for s in came)
    order = {k: i for i, k in enumerate(KINDS)}

    def where(c: Change) -> tuple[int, str, int]:
        side = c.new or c.old
        assert side is not None
        return order[c.change], side.path, side.line

    changes.sort(key=where)
    counts = Counter(c.change for c in changes)
    ov, nv = label(old), label(new)
    return Diff(
        repo=new.repo, old=old.key, new=new.key, old_version=ov, new_version=nv,
        url=diff_url(new.repo, ov, nv), json_url=diff_json_url(new.repo, ov, nv),
        counts={**{k: counts.get(k, 0) for k in KINDS}, "unchanged": unchanged},
        changes=tuple(changes),
    )
