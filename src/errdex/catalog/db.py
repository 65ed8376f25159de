"""What the SQL catalog logic asks of a backend's connection, and its one error.

Kept apart from ``sql.py`` so that the stores it is built from
(``observations.py``) can name a connection without importing the catalog
that inherits from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class CatalogError(Exception):
    """The catalog cannot be opened or used: the message names the file or server."""


class Db(Protocol):
    """The four things the shared logic asks of a connection (``?`` placeholders)."""

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    def fetchone(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None: ...

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...
