"""The catalog stage (see DESIGN.md): storage behind the ``Catalog`` interface.

``open_catalog(url)`` picks the backend from the URL: a path or
``sqlite:///path`` is a SQLite file (the default, from ``paths.default_db``);
``postgresql://user@host/db`` (any libpq URL) is a PostgreSQL server.
"""

from __future__ import annotations

from errdex import paths
from errdex.catalog.base import Catalog, ErrorRecord, SnapshotStats
from errdex.catalog.sqlite import CatalogError, SqliteCatalog

__all__ = ["Catalog", "CatalogError", "ErrorRecord", "SnapshotStats", "SqliteCatalog", "open_catalog"]


def open_catalog(url: str | None = None) -> Catalog:
    """The catalog at ``url`` (``--db``), else ``$ERRDEX_DB``, else the per-user default."""
    target = paths.default_db(url)
    if target.startswith(("postgresql://", "postgres://")):
        from errdex.catalog.postgres import PostgresCatalog

        return PostgresCatalog(target)
    if target.startswith("sqlite:///"):
        target = target.removeprefix("sqlite://")
    elif target.startswith("sqlite://"):
        raise CatalogError(f"{target}: expected sqlite:///PATH (three slashes, then the path)")
    elif "://" in target:
        raise CatalogError(f"{_redact(target)}: unknown catalog URL scheme (use a path, sqlite:///PATH)")
    return SqliteCatalog(target)


def _redact(url: str) -> str:
    """Hide a password in a URL before it goes into an error message."""
    import re

    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)
