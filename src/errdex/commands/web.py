"""``errdex serve`` and ``errdex export``: the web stage from the command line."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from errdex.commands.output import error


def app_factory() -> Any:
    """The app of one worker process of ``errdex serve --workers N`` (uvicorn imports this by name
    in each worker; the options travel in the environment: ``ERRDEX_DB``, ``ERRDEX_BASE_URL``,
    ``ERRDEX_REPORT_URL`` and the limits' variables).  Each worker opens its own catalog connections."""
    from errdex.web.app import create_app
    from errdex.web.settings import WebSettings

    return create_app(None, WebSettings.from_env(db=os.environ.get("ERRDEX_DB") or None))


def run_serve(*, host: str, port: int, db: str | None, base_url: str | None, report_url: str | None,
              limits: dict[str, float | None] | None = None, workers: int = 1) -> int:
    """Serve the catalog until interrupted; ``limits`` are ``WebSettings`` fields (None: env or default);
    ``workers`` > 1: that many processes on one socket."""
    if workers < 1:
        error(f"--workers {workers}: expected at least one worker process")
        return 2
    from errdex.catalog import CatalogError, open_catalog
    from errdex.web.app import create_app
    from errdex.web.server import serve
    from errdex.web.settings import SettingsError, WebSettings

    try:
        settings = WebSettings.from_env(db=db, base_url=base_url, report_url=report_url, **(limits or {}))
    except SettingsError as exc:
        error(str(exc))
        return 2
    try:
        catalog = open_catalog(db)
    except CatalogError as exc:
        error(str(exc))
        return 1
    if workers > 1:
        return _serve_workers(catalog, settings, host=host, port=port, db=db, limits=limits or {},
                              workers=workers)
    app = create_app(catalog, settings)
    sys.stderr.write(f"errdex: serving {len(catalog.repos())} repo(s) at http://{host}:{port}/\n")
    try:
        serve(app, settings, host, port)
    finally:
        catalog.close()
    return 0


def _serve_workers(catalog: Any, settings: Any, *, host: str, port: int, db: str | None,
                   limits: dict[str, float | None], workers: int) -> int:
    """Several uvicorn worker processes, each with the app from ``app_factory``: the parent checked
    the catalog and the settings once, and hands them on through the environment."""
    from errdex import paths
    from errdex.web.server import serve_workers
    from errdex.web.settings import BASE_URL_ENV, ENV

    try:
        repos = len(catalog.repos())
    finally:
        catalog.close()
    os.environ["ERRDEX_DB"] = paths.default_db(db)
    if settings.base_url:
        os.environ[BASE_URL_ENV] = settings.base_url
    if settings.report_url:
        os.environ["ERRDEX_REPORT_URL"] = settings.report_url
    for name, value in limits.items():
        if value is not None:
            os.environ[ENV[name]] = str(value)
    sys.stderr.write(f"errdex: serving {repos} repo(s) at http://{host}:{port}/ with {workers} worker processes\n")
    serve_workers(settings, host, port, workers, "errdex.commands.web:app_factory")
    return 0


def run_export(directory: str, *, db: str | None, base_url: str | None, report_url: str | None) -> int:
    """Write the static site to ``directory``."""
    from errdex.catalog import CatalogError, open_catalog
    from errdex.web.app import create_app
    from errdex.web.export import ExportError, export_site
    from errdex.web.settings import WebSettings

    target = Path(directory)
    if target.exists() and not target.is_dir():
        error(f"{directory}: exists and is not a directory")
        return 2
    try:
        catalog = open_catalog(db)
    except CatalogError as exc:
        error(str(exc))
        return 1
    try:
        if not catalog.repos():
            error("the catalog is empty: index something with `errdex index SOURCE` first")
            return 1
        settings = WebSettings.from_env(db=db, base_url=base_url, report_url=report_url)
        openapi = create_app(catalog, settings).openapi()
        try:
            result = export_site(catalog, target, settings, openapi)
        except ExportError as exc:
            error(f"export refused: {exc}")
            return 1
        except OSError as exc:
            error(f"{directory}: cannot write the site ({exc})")
            return 1
    finally:
        catalog.close()
    for what in result.skipped:
        error(f"warning: not exported, {what}")
    sys.stdout.write(f"exported {result.pages} pages and {result.documents} JSON documents "
                     f"({result.files} files) to {result.directory}\n")
    return 0
