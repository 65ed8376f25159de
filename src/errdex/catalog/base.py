"""The catalog interface: what every storage backend (SQLite, PostgreSQL) offers.

Stages after ``extract`` talk to storage only through this Protocol, so the
backend can change without touching them.  Writes of one snapshot are atomic:
``replace_snapshot`` either installs the whole new snapshot or leaves the
catalog as it was.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from errdex.model import (
    Analysis,
    CallEdge,
    ClassInfo,
    ConfigOption,
    ErrorSite,
    ExtractResult,
    FileFailure,
    Observation,
    ObserveRun,
    Snapshot,
    TestExpectation,
)


@dataclass(frozen=True, slots=True)
class SnapshotStats:
    """The figures that ``errdex stats`` prints for one snapshot."""

    snapshot: Snapshot
    files_read: int
    files_failed: tuple[FileFailure, ...]
    sites: int
    sites_by_kind: dict[str, int] = field(default_factory=dict)
    sites_by_exception: dict[str, int] = field(default_factory=dict)
    raise_statements: int = 0  # raise statements with an argument
    raise_sites: int | None = None  # of those, how many produced a site (None: extractor did not count)
    templates_resolved: int = 0  # sites whose template has no unresolved expression
    templates_without_literal: int = 0
    templates_with_literal8: int = 0  # a literal run of 8 or more characters
    unresolved_expressions: int = 0
    warnings: tuple[FileFailure, ...] = ()  # limits hit while indexing (errdex.limits), by file


@dataclass(frozen=True, slots=True)
class ErrorRecord:
    """One Error: its id and its site in every snapshot that has it, newest first."""

    error_id: str
    sites: tuple[tuple[Snapshot, ErrorSite], ...]

    @property
    def latest(self) -> tuple[Snapshot, ErrorSite]:
        return self.sites[0]


class Catalog(Protocol):
    """Storage of snapshots, their sites and facts, and analyses."""

    def replace_snapshot(self, snapshot: Snapshot, result: ExtractResult) -> SnapshotStats:
        """Install ``snapshot`` with ``result``, replacing an earlier index of it, atomically."""

    def snapshots(self, repo: str | None = None) -> list[Snapshot]:
        """Snapshots, newest first (by date, then insertion)."""

    def repos(self) -> list[str]: ...

    def sites(self, snapshot_key: str | None = None, repo: str | None = None) -> Iterator[ErrorSite]:
        """Sites of one snapshot, or of the latest snapshot of each repo (or of ``repo``)."""

    def site_count(self) -> int: ...

    def get_error(self, error_id: str) -> ErrorRecord | None: ...

    def search(self, query: str, limit: int = 50, repo: str | None = None) -> list[tuple[Snapshot, ErrorSite]]:
        """Errors whose template, exception or path contains the words of ``query``."""

    def stats(self, snapshot_key: str | None = None) -> list[SnapshotStats]: ...

    def classes(self, snapshot_key: str) -> list[ClassInfo]: ...

    def config_options(self, snapshot_key: str) -> list[ConfigOption]: ...

    def tests(self, snapshot_key: str) -> list[TestExpectation]: ...

    def symbols(self, snapshot_key: str) -> dict[str, tuple[str, ...]]: ...

    def calls(self, snapshot_key: str) -> list[CallEdge]:
        """The package's call graph (``extract/calls.py``); empty for snapshots indexed before it."""
        ...

    def line_digests(self, repo: str, paths: Sequence[str]) -> dict[str, dict[str, bytes]]:
        """Snapshot key -> {path: line digests} of ``paths``, for the snapshots of ``repo`` that have them.

        A snapshot indexed with digests is a key even when it has none of
        ``paths``; one indexed without them (an older catalog) is absent.
        """

    def put_analyses(self, analyses: Sequence[Analysis]) -> None:
        """Store analyses (one per error id and snapshot), replacing earlier ones, atomically."""

    def get_analysis(self, error_id: str, snapshot_key: str | None = None) -> Analysis | None: ...

    def replace_observations(self, run: ObserveRun, observations: Sequence[Observation]) -> None:
        """Install what ``errdex observe`` saw of ``run.snapshot``, replacing earlier observations, atomically."""

    def observations(self, *, error_id: str | None = None, snapshot_key: str | None = None,
                     kind: str | None = None) -> list[Observation]: ...

    def observed_site_ids(self, snapshot_key: str) -> frozenset[str]:
        """Error ids of the snapshot's sites that at least one test reached."""

    def observe_run(self, snapshot_key: str) -> ObserveRun | None: ...

    def generation(self) -> str:
        """Changes whenever the catalog's content changes (cache key for the match index)."""

    def close(self) -> None: ...
