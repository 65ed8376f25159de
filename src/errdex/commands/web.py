"""``errdex serve`` and ``errdex export``: the web stage from the command line."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any


def _error(message: str) -> None:
    sys.stderr.write(f"errdex: {message}\n")


def app_factory() -> Any:
    """The app of one worker process of ``errdex serve --workers N`` (uvicorn imports this by name
    in each worker; the options travel in the environment: ``ERRDEX_DB``, ``ERRDEX_BASE_URL``,
    ``ERRDEX_REPORT_URL``).  Each worker opens its own catalog connections."""
    from errdex.web.app import create_app
    from errdex.web.settings import WebSettings

    return create_app(None, WebSettings.from_env(db=os.environ.get("ERRDEX_DB") or None))


def _serve_workers(*, host: str, port: int, db: str | None, base_url: str | None, report_url: str | None,
                   workers: int) -> int:
    """Several uvicorn worker processes on one socket, each with the app from ``app_factory``."""
    import uvicorn

    from errdex import paths
    from errdex.catalog import CatalogError, open_catalog

    try:
        catalog = open_catalog(db)  # fail here, once, with the reason, rather than in every worker
    except CatalogError as exc:
        _error(str(exc))
        return 1
    try:
        repos = len(catalog.repos())
    finally:
        catalog.close()
    os.environ["ERRDEX_DB"] = paths.default_db(db)
    for name, value in (("ERRDEX_BASE_URL", base_url), ("ERRDEX_REPORT_URL", report_url)):
        if value is not None:
            os.environ[name] = value
    sys.stderr.write(f"errdex: serving {repos} repo(s) at http://{host}:{port}/ with {workers} worker processes\n")
    uvicorn.run("errdex.commands.web:app_factory", factory=True, host=host, port=port, workers=workers,
                log_level="warning")
    return 0


def run_serve(*, host: str, port: int, db: str | None, base_url: str | None, report_url: str | None,
              workers: int = 1) -> int:
    """Serve the catalog with uvicorn until interrupted (``workers`` > 1: that many processes)."""
    if workers < 1:
        _error(f"--workers {workers}: expected at least one worker process")
        return 2
    if workers > 1:
        return _serve_workers(host=host, port=port, db=db, base_url=base_url, report_url=report_url,
                              workers=workers)
    import uvicorn

    from errdex.catalog import CatalogError, open_catalog
    from errdex.web.app import create_app
    from errdex.web.settings import WebSettings

    try:
        catalog = open_catalog(db)
    except CatalogError as exc:
        _error(str(exc))
        return 1
    settings = WebSettings.from_env(db=db, base_url=base_url, report_url=report_url)
    app = create_app(catalog, settings)
    sys.stderr.write(f"errdex: serving {len(catalog.repos())} repo(s) at http://{host}:{port}/\n")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning")
    finally:
        catalog.close()
    return 0


def run_export(directory: str, *, db: str | None, base_url: str | None, report_url: str | None) -> int:
    """Write the static site to ``directory``."""
    from errdex.catalog import CatalogError, open_catalog
    from errdex.web.app import create_app
    from errdex.web.export import export_site
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
        except OSError as exc:
            _error(f"{directory}: cannot write the site ({exc})")
            return 1
    finally:
        catalog.close()
    sys.stdout.write(f"exported {result.pages} pages and {result.documents} JSON documents "
                     f"({result.files} files) to {result.directory}\n")
    return 0
