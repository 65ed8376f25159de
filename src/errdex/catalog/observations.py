"""Observations in the catalog: what ``errdex observe`` saw, per snapshot, both SQL backends.

Rows are keyed by the snapshot's key (like analyses), not its row id, so
re-indexing the same snapshot keeps them: the key pins the code, and the
code decides which site a frame falls in.  Observing again replaces the
snapshot's observations and run record in one transaction.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from errdex.catalog.decode import decode
from errdex.catalog.rows import dumps
from errdex.model import Observation, ObserveRun

if TYPE_CHECKING:
    from errdex.catalog.db import Db


class ObservationStore:
    """Mixin of ``SqlCatalog``: the observation tables (``_write``/``_db`` come from it)."""

    def _write(self) -> contextlib.AbstractContextManager[Db]:
        raise NotImplementedError

    def _db(self) -> Db:
        raise NotImplementedError

    def replace_observations(self, run: ObserveRun, observations: Sequence[Observation]) -> None:
        """Install the observations of ``run.snapshot``, replacing earlier ones, atomically."""
        with self._write() as db:
            db.execute("DELETE FROM observations WHERE snapshot = ?", (run.snapshot,))
            db.execute("DELETE FROM observe_runs WHERE snapshot = ?", (run.snapshot,))
            db.executemany(
                "INSERT INTO observations (snapshot, error_id, kind, path, line, count, json)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(o.snapshot, o.error_id, o.kind, o.path, o.line, o.count, dumps(o)) for o in observations],
            )
            db.execute("INSERT INTO observe_runs (snapshot, json) VALUES (?, ?)", (run.snapshot, dumps(run)))

    def observations(self, *, error_id: str | None = None, snapshot_key: str | None = None,
                     kind: str | None = None) -> list[Observation]:
        """Observations of one error and/or one snapshot, most frequent first."""
        rows = self._db().fetchall(
            "SELECT json FROM observations WHERE (CAST(? AS TEXT) IS NULL OR error_id = ?)"
            " AND (CAST(? AS TEXT) IS NULL OR snapshot = ?) AND (CAST(? AS TEXT) IS NULL OR kind = ?)"
            " ORDER BY count DESC, id",
            (error_id, error_id, snapshot_key, snapshot_key, kind, kind),
        )
        return [decode(Observation, json.loads(r[0])) for r in rows]

    def observed_site_ids(self, snapshot_key: str) -> frozenset[str]:
        """The error ids of the snapshot's sites that its tests reached (for lint and reports)."""
        rows = self._db().fetchall(
            "SELECT DISTINCT error_id FROM observations WHERE snapshot = ? AND kind = 'site'", (snapshot_key,)
        )
        return frozenset(str(r[0]) for r in rows)

    def observe_run(self, snapshot_key: str) -> ObserveRun | None:
        """The record of the last ``errdex observe`` of the snapshot, or None if it was never observed."""
        row = self._db().fetchone("SELECT json FROM observe_runs WHERE snapshot = ?", (snapshot_key,))
        return decode(ObserveRun, json.loads(row[0])) if row else None

    def observe_runs(self) -> dict[str, ObserveRun]:
        rows: list[tuple[Any, ...]] = self._db().fetchall("SELECT snapshot, json FROM observe_runs")
        return {str(k): decode(ObserveRun, json.loads(j)) for k, j in rows}
