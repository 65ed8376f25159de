"""``errdex report untested`` and ``/<owner>/<name>/untested``: raise sites that no test reached.

The maintainer's list: for the newest snapshot of a repo that was observed,
every ``error`` site (raise statements; warnings and asserts are not
"errors a test should reach") whose id no observation carries, grouped by
module.  A repo never observed says so instead of listing every site.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from errdex.catalog.base import Catalog
    from errdex.model import ErrorSite, Snapshot


class UntestedError(TypedDict):
    id: str
    url: str
    exception: str
    title: str
    line: int
    qualname: str
    source_url: str


class UntestedModule(TypedDict):
    path: str
    errors: list[UntestedError]


class UntestedDocument(TypedDict):
    """``/{owner}/{name}/untested``, its JSON twin, and ``errdex report untested --json``."""

    repo: str
    url: str
    json_url: str
    snapshot: str  # Snapshot.key of the newest snapshot
    observed: bool  # False: `errdex observe` never ran on it; the lists are then empty
    total: int  # raise sites of the snapshot
    reached: int  # of those, reached by at least one test
    untested: int
    tests: int  # tests that ran
    failed_files: int
    modules: list[UntestedModule]


def _entry(snap: Snapshot, site: ErrorSite) -> UntestedError:
    from errdex.documents import error_url, site_title

    return UntestedError(id=site.error_id, url=error_url(site.error_id), exception=site.exception_name,
                         title=site_title(site), line=site.line, qualname=site.qualname,
                         source_url=snap.source_url(site.path, site.line, site.end_line))


def untested_document(catalog: Catalog, snap: Snapshot) -> UntestedDocument:
    run = catalog.observe_run(snap.key)
    sites = [s for s in catalog.sites(snap.key) if s.kind == "error" and s.error_id]
    reached = catalog.observed_site_ids(snap.key) if run else frozenset()
    by_module: defaultdict[str, list[UntestedError]] = defaultdict(list)
    if run is not None:
        for s in sites:
            if s.error_id not in reached:
                by_module[s.path].append(_entry(snap, s))
    modules = [UntestedModule(path=p, errors=sorted(v, key=lambda e: e["line"])) for p, v in sorted(by_module.items())]
    untested = sum(len(m["errors"]) for m in modules)
    return UntestedDocument(
        repo=snap.repo, url=f"/{snap.repo}/untested", json_url=f"/api/repos/{snap.repo}/untested",
        snapshot=snap.key, observed=run is not None, total=len(sites),
        reached=len(sites) - untested if run else 0, untested=untested,
        tests=run.tests if run else 0, failed_files=len(run.failed_files) if run else 0, modules=modules,
    )


def untested_documents(catalog: Catalog, repo: str | None = None) -> list[UntestedDocument]:
    """One document per repo (its newest snapshot), or only ``repo``'s."""
    out = []
    for name in [repo] if repo else catalog.repos():
        snaps = catalog.snapshots(name)
        if snaps:
            out.append(untested_document(catalog, snaps[0]))
    return out
