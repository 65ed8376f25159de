"""Error ids: stable across moves and reformatting, unique within a snapshot.

The id hashes (repo, kind, exception name, normalized template, qualname)
(``model.error_id``), none of which changes when a raise moves to another
line or is re-wrapped.  Two sites that would still share an id (the same
raise written twice in one function) are told apart by a salt: the
occurrence index among the colliding sites, in source order (path, line).
So the first keeps the unsalted id and the second gets salt "1", which is
deterministic and survives moves that keep the order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from errdex.model import ErrorSite, error_id


def site_id(repo: str, site: ErrorSite, salt: str = "") -> str:
    return error_id(repo, site.kind, site.exception_resolved, site.template.normalized(), site.qualname, salt)


def assign_ids(repo: str, sites: Iterable[ErrorSite]) -> list[ErrorSite]:
    """Sites with ``error_id`` filled, sorted by (path, line, end_line).

    A site that arrives with its unsalted id already set (the resolver builds
    each site with it, so that a site is not built twice) is kept as it is
    unless it collides.
    """
    ordered = sorted(sites, key=lambda s: (s.path, s.line, s.end_line))
    seen: set[str] = set()
    occurrences: dict[str, int] = {}
    out: list[ErrorSite] = []
    for s in ordered:
        base = s.error_id or site_id(repo, s)
        eid = base
        n = occurrences.get(base, 0)
        while eid in seen:
            n += 1
            eid = site_id(repo, s, str(n))
        occurrences[base] = n
        seen.add(eid)
        out.append(s if eid == s.error_id else dataclasses.replace(s, error_id=eid))
    return out
