"""``errdex serve`` and ``errdex export``: the web stage from the command line."""

from __future__ import annotations

import sys
from pathlib import Path


def _error(message: str) -> None:
    sys.stderr.write(f"errdex: {message}\n")


def run_serve(*, host: str, port: int, db: str | None, base_url: str | None, report_url: str | None,
              limits: dict[str, float | None] | None = None) -> int:
    """Serve the catalog until interrupted; ``limits`` are ``WebSettings`` fields (None: env or default)."""
    from errdex.catalog import CatalogError, open_catalog
    from errdex.web.app import create_app
    from errdex.web.server import serve
    from errdex.web.settings import SettingsError, WebSettings

    try:
        settings = WebSettings.from_env(db=db, base_url=base_url, report_url=report_url, **(limits or {}))
    except SettingsError as exc:
        _error(str(exc))
        return 2
    try:
        catalog = open_catalog(db)
    except CatalogError as exc:
        _error(str(exc))
        return 1
    app = create_app(catalog, settings)
    sys.stderr.write(f"errdex: serving {len(catalog.repos())} repo(s) at http://{host}:{port}/\n")
    try:
        serve(app, settings, host, port)
    finally:
        catalog.close()
    return 0


def run_export(directory: str, *, db: str | None, base_url: str | None, report_url: str | None) -> int:
    """Write the static site to ``directory``."""
    from errdex.catalog import CatalogError, open_catalog
    from errdex.web.app import create_app
    from errdex.web.export import ExportError, export_site
    from errdex.web.settings import WebSettings

    target = Path(directory)
    if target.exists() and not target.is_dir():
        _error(f"{directory}: exists and is not a directory")
        return 2
    try:
        catalog = open_catalog(db)
    except CatalogError as exc:
        _error(str(exc))
        return 1
    try:
        if not catalog.repos():
            _error("the catalog is empty: index something with `errdex index SOURCE` first")
            return 1
        settings = WebSettings.from_env(db=db, base_url=base_url, report_url=report_url)
        openapi = create_app(catalog, settings).openapi()
        try:
            result = export_site(catalog, target, settings, openapi)
        except ExportError as exc:
            _error(f"export refused: {exc}")
            return 1
        except OSError as exc:
            _error(f"{directory}: cannot write the site ({exc})")
            return 1
    finally:
        catalog.close()
    for what in result.skipped:
        _error(f"warning: not exported, {what}")
    sys.stdout.write(f"exported {result.pages} pages and {result.documents} JSON documents "
                     f"({result.files} files) to {result.directory}\n")
    return 0
