"""Catalog sites written by hand for match tests that build an index without extracting a package:
one site of one template, a literal segment, a placeholder segment."""

from __future__ import annotations

from errdex.model import ErrorSite, Segment, Template


def site(path: str, line: int, exc: str, *segs: Segment, end: int | None = None, eid: str = "") -> ErrorSite:
    """A site raising ``exc`` with one template; ``eid`` defaults to one derived from the place."""
    return ErrorSite(kind="error", exception=exc, exception_resolved=exc, templates=(Template.of(segs),), path=path,
                     line=line, end_line=end or line, qualname="f", error_id=eid or f"{abs(hash((path, line))):016x}"[:16])


def lit(t: str) -> Segment:
    return Segment(text=t)


def ph(e: str, conversion: str | None = None) -> Segment:
    return Segment(expr=e, conversion=conversion)
