"""``errdex analyze --cluster/--scheduler``: a snapshot's errors analysed as groups, one task each.

A task opens the catalog itself (the workers must reach it: a SQLite file on a
shared disk, or the PostgreSQL server of a shared catalog), loads the
snapshot's context once, analyses its group of error ids with the static
backend and returns the analyses; the client writes them (one writer, as for
``index``).  Analysis only parses what the catalog holds: no library code runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from errdex.analyze.run import AnalyzeReport, analyze_snapshot
from errdex.catalog import CatalogError, open_catalog
from errdex.catalog.base import Catalog
from errdex.model import Snapshot

GROUP_ERRORS = 250  # errors per task: the snapshot's context is loaded once per task


@dataclass(frozen=True, slots=True)
class AnalyzeGroup:
    """One task: which catalog, which snapshot, which of its errors."""

    db: str
    snapshot_key: str
    error_ids: tuple[str, ...]


def groups(catalog: Catalog, db: str, snapshots: list[Snapshot], size: int = GROUP_ERRORS) -> Iterator[AnalyzeGroup]:
    for snap in snapshots:
        ids = sorted({s.error_id for s in catalog.sites(snap.key) if s.error_id})
        for i in range(0, len(ids), max(1, size)):
            yield AnalyzeGroup(db, snap.key, tuple(ids[i:i + size]))


def analyze_group(group: AnalyzeGroup) -> AnalyzeReport:
    """On a worker: the static analyses of one group (CatalogError when the catalog is out of reach)."""
    catalog = open_catalog(group.db)
    try:
        snap = next((s for s in catalog.snapshots() if s.key == group.snapshot_key), None)
        if snap is None:
            raise CatalogError(f"snapshot {group.snapshot_key} is no longer in the catalog")
        return analyze_snapshot(catalog, snap, only=frozenset(group.error_ids))
    finally:
        catalog.close()
