"""The size bounds every site obeys, so that memory and catalog grow linearly with the input.

A hostile file can make each site large (a 1 MB condition guarding 20,000
raises, a 1 MB message constant reused by every raise) or make sites many
(50,000 raises on one line).  The snippet and guards are bounded where they
are built (``source.py``, ``guards.py``); here the rest of a site is cut to
size (docstring, written exception, ``from`` cause, unresolved expressions,
templates) and the number of sites per file and per snapshot is capped
(``errdex.limits``), each cap hit reported as a warning naming the file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator

from errdex.extract.source import CUT
from errdex.extract.summary import PendingSite
from errdex.limits import hint
from errdex.model import ErrorSite, FileFailure, Segment, Template

DOCSTRING_CHARS = 8_000  # of the enclosing function's docstring, kept per site
EXPRESSION_CHARS = 1_000  # of the exception as written, the cause, and each unresolved expression


def cut(text: str, limit: int) -> str:
    """``text``, or its first ``limit - 1`` characters and ``CUT``."""
    return text if len(text) <= limit else text[: limit - 1] + CUT


def bounded_pending(site: PendingSite) -> PendingSite:
    """``site`` with its free-text fields cut to their bounds (unchanged, the same object, when within)."""
    if (len(site.docstring) <= DOCSTRING_CHARS and len(site.written) <= EXPRESSION_CHARS
            and (site.cause is None or len(site.cause) <= EXPRESSION_CHARS)):
        return site
    return dataclasses.replace(
        site, docstring=cut(site.docstring, DOCSTRING_CHARS), written=cut(site.written, EXPRESSION_CHARS),
        cause=None if site.cause is None else cut(site.cause, EXPRESSION_CHARS),
    )


def capped_sites(sites: Iterable[PendingSite], path: str, limit: int) -> tuple[tuple[PendingSite, ...], FileFailure | None]:
    """The first ``limit`` sites of a file (each bounded) and, when more were found, the warning.

    The sites are consumed one at a time, so the ones past the cap are never all held at once.
    """
    kept: list[PendingSite] = []
    dropped = 0
    for site in sites:
        if len(kept) < limit:
            kept.append(bounded_pending(site))
        else:
            dropped += 1
    if not dropped:
        return tuple(kept), None
    return tuple(kept), FileFailure(
        path, f"{limit + dropped} error sites, kept the first {limit} ({hint('sites_per_file', limit)})")


def template_chars(t: Template) -> int:
    return sum(len(s.text) if s.expr is None else len(s.expr) + 2 for s in t.segments)


def cut_template(t: Template, limit: int) -> Template:
    """The template's first ``limit`` characters (as rendered), ending in a literal ``CUT``; a
    placeholder that does not fit whole is dropped."""
    out: list[Segment] = []
    left = limit - 1
    for seg in t.segments:
        size = len(seg.text) if seg.expr is None else len(seg.expr) + 2
        if size <= left:
            out.append(seg)
            left -= size
            continue
        if seg.expr is None and left > 0:
            out.append(Segment(text=seg.text[:left]))
        break
    out.append(Segment(text=CUT))
    return Template.of(out)


def bounded_templates(templates: tuple[Template, ...], limit: int) -> tuple[tuple[Template, ...], bool]:
    """``templates`` with each one over ``limit`` characters cut; True when one was."""
    if all(template_chars(t) <= limit for t in templates):
        return templates, False
    return tuple(cut_template(t, limit) if template_chars(t) > limit else t for t in templates), True


def bounded_site(site: ErrorSite) -> ErrorSite:
    """``site`` with its exception names and unresolved expressions bounded (its templates were,
    by the resolver)."""
    if (len(site.exception) <= EXPRESSION_CHARS and len(site.exception_resolved) <= EXPRESSION_CHARS
            and all(len(u) <= EXPRESSION_CHARS for u in site.unresolved)):
        return site
    return dataclasses.replace(
        site, exception=cut(site.exception, EXPRESSION_CHARS),
        exception_resolved=cut(site.exception_resolved, EXPRESSION_CHARS),
        unresolved=tuple(cut(u, EXPRESSION_CHARS) for u in site.unresolved))


def snapshot_cap(sites: Iterator[tuple[str, ErrorSite]], limit: int, warnings: list[FileFailure]) -> Iterator[ErrorSite]:
    """The sites (each with the path it came from) up to ``limit`` in all; appends a warning
    naming the file where the cap was hit."""
    for count, (path, site) in enumerate(sites):
        if count >= limit:
            rest = 1 + sum(1 for _ in sites)
            warnings.append(FileFailure(path, f"the snapshot reached {limit} error sites at this file; "
                                              f"{rest} more dropped ({hint('sites_per_snapshot', limit)})"))
            return
        yield bounded_site(site)


def cut_warnings(cut: dict[str, int], limit: int) -> list[FileFailure]:
    """One warning per file whose templates the resolver cut."""
    return [FileFailure(path, f"{n} message template(s) longer than {limit} characters, cut "
                              f"({hint('template_chars', limit)})") for path, n in sorted(cut.items())]
