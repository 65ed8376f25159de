"""Catalogs holding names that indexing refuses, written straight through the catalog API.

Indexing checks repo and module names (``errdex.sources.names``); a catalog
written by an older errdex, by hand or by another tool may still hold them,
and export and the server must stay contained when it does.
"""

from __future__ import annotations

from errdex.catalog.sqlite import SqliteCatalog
from errdex.model import ErrorSite, ExtractResult, Segment, Snapshot, Template, error_id

GOOD_REPO = "good/lib"


def _site(repo: str, path: str, message: str, line: int) -> ErrorSite:
    template = Template.of([Segment(text=message)])
    return ErrorSite(kind="error", exception="ValueError", exception_resolved="ValueError", templates=(template,),
                     path=path, line=line, end_line=line, qualname="f", module="m",
                     snippet=f"raise ValueError({message!r})\n", snippet_start=line,
                     error_id=error_id(repo, "error", "ValueError", template.normalized(), f"f{line}"))


def write_catalog(db: str, repos: dict[str, list[str]]) -> list[str]:
    """One snapshot per repo with one error per module path; the error ids."""
    catalog = SqliteCatalog(db)
    ids: list[str] = []
    try:
        for n, (repo, paths) in enumerate(repos.items()):
            sites = tuple(_site(repo, p, f"bad value {n}.{i}", 10 + i) for i, p in enumerate(paths))
            ids.extend(s.error_id for s in sites)
            snap = Snapshot(repo=repo, commit=str(n % 10) * 40, date=f"2026-01-0{n % 9 + 1}T00:00:00+00:00")
            catalog.replace_snapshot(snap, ExtractResult(sites=sites, files_read=len(paths)))
    finally:
        catalog.close()
    return ids


HOSTILE = {
    GOOD_REPO: ["lib/core.py", "lib/../../../../outside-module.py", "../lib/up.py"],
    "../../../escape": ["evil/__init__.py"],
    "owner/..": ["x.py"],
    "../..": ["y.py"],
    "a/b/c": ["z.py"],
    "sp ace/na?me": ["q.py"],
}
