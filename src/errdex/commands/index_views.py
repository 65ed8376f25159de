"""Rich renderings of index results: the summary table, per-snapshot stats, one error.

Kept apart from ``commands/index.py`` (which decides what to do and the exit
code) so that the same table serves ``index`` and ``stats``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from errdex.catalog.base import ErrorRecord, SnapshotStats
from errdex.model import Snapshot

TOP_EXCEPTIONS = 10
MAX_FAILURES_SHOWN = 20


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100.0 * part / whole:.1f}%)" if whole else f"{part}/0"


def stats_view(stats: SnapshotStats) -> RenderableType:
    """Files read and failed, sites by kind, top exception types, template coverage."""
    snap = stats.snapshot
    where = [f"{snap.source_kind}: {snap.source}"]
    if snap.ref and snap.commit:
        where.append(f"ref {snap.ref}")
    if snap.date:
        where.append(snap.date)
    table = Table(title=escape(snap.key), caption=escape(" · ".join(where)),
                  show_header=False, title_justify="left", caption_justify="left", expand=False)
    table.add_column("figure", style="bold")
    table.add_column("value")
    total_files = stats.files_read + len(stats.files_failed)
    table.add_row("files read", _pct(stats.files_read, total_files))
    table.add_row("files failed", str(len(stats.files_failed)))
    table.add_row("sites", str(stats.sites))
    for kind, n in stats.sites_by_kind.items():
        table.add_row(f"  {kind}", str(n))
    if stats.raise_sites is not None:
        table.add_row("raise statements with an argument → site", _pct(stats.raise_sites, stats.raise_statements))
    else:
        table.add_row("raise statements with an argument", str(stats.raise_statements))
    table.add_row("templates resolved (no unresolved expression)", _pct(stats.templates_resolved, stats.sites))
    table.add_row("templates with a literal run ≥ 8 chars", _pct(stats.templates_with_literal8, stats.sites))
    table.add_row("templates with no literal text", _pct(stats.templates_without_literal, stats.sites))
    table.add_row("  of those with literal text, a run ≥ 8 chars",
                  _pct(stats.templates_with_literal8, stats.sites - stats.templates_without_literal))
    table.add_row("unresolved expressions", str(stats.unresolved_expressions))
    parts: list[RenderableType] = [table]
    if stats.sites_by_exception:
        exc = Table(title="top exception types", title_justify="left")
        exc.add_column("exception")
        exc.add_column("sites", justify="right")
        for name, n in list(stats.sites_by_exception.items())[:TOP_EXCEPTIONS]:
            exc.add_row(escape(name), str(n))
        parts.append(exc)
    if stats.files_failed:
        fail = Table(title=f"files failed ({len(stats.files_failed)})", title_justify="left")
        fail.add_column("path")
        fail.add_column("reason")
        for f in stats.files_failed[:MAX_FAILURES_SHOWN]:
            fail.add_row(escape(f.path), escape(f.reason))
        if len(stats.files_failed) > MAX_FAILURES_SHOWN:
            fail.add_row("…", f"{len(stats.files_failed) - MAX_FAILURES_SHOWN} more (errdex stats --json)")
        parts.append(fail)
    return Group(*parts)


def versions_view(record: ErrorRecord, not_in: Sequence[Snapshot] = ()) -> list[RenderableType]:
    """Every indexed version that raises the error, with its line and pinned link; then those that do not."""
    if len(record.sites) < 2 and not not_in:
        return []
    out: list[RenderableType] = [Text(""), Text("Versions", style="bold underline")]
    for snap, site in record.sites:
        label = snap.version or snap.ref or snap.short_pin
        out.append(Text(f"  {label}  {snap.key}: {site.path}:{site.line}"))
        url = snap.source_url(site.path, site.line, site.end_line)
        if url:
            out.append(Text(f"    {url}", style=f"link {url}", no_wrap=True, overflow="ignore"))
    if not_in:
        names = ", ".join(s.version or s.ref or s.short_pin for s in not_in)
        out.append(Text(f"  not raised in {names}", style="dim"))
    return out
