"""The FastAPI application: wiring of the site, the middlewares and the one error handler.

``create_app`` takes an open catalog (tests, export) or opens the one the
settings name (``errdex serve``).  Routes live in ``routes_api`` (JSON) and
``routes_pages`` (HTML); both ask ``Site`` for the same documents, and take
what they share from ``routing`` (never from this module, which imports them).
"""

from __future__ import annotations

import logging
from http import HTTPStatus

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from errdex.catalog.base import Catalog
from errdex.web import routes_api, routes_pages, routes_review, seo
from errdex.web.http import (
    SECURITY_HEADERS,
    HeadAsGet,
    RequestBody,
    SecurityHeaders,
    error_body,
    json_bytes,
    wants_json,
)
from errdex.web.openapi import openapi_document
from errdex.web.render import STATIC
from errdex.web.settings import WebSettings
from errdex.web.site import Site

log = logging.getLogger("errdex.web")

DESCRIPTION = (
    "errdex publishes an encyclopedia of a Python library's errors, read from its source code: "
    "one page per error, a JSON twin for every page, and matching of pasted messages and tracebacks. "
    "Every GET operation also answers HEAD (the same headers, no body). Lengths are in characters of "
    "decoded text."
)


def _describe_validation(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "malformed request"


def create_app(catalog: Catalog | None = None, settings: WebSettings | None = None) -> FastAPI:
    settings = settings or WebSettings.from_env()
    if catalog is None:
        from errdex.catalog import open_catalog

        catalog = open_catalog(settings.db)
    site = Site(catalog, settings)
    app = FastAPI(title="errdex", version="1", description=DESCRIPTION, docs_url=None, redoc_url=None)
    app.state.site = site

    async def handle_error(request: Request, exc: Exception) -> Response:
        """The one handler: every error, HTML for browsers, the ``ErrorBody`` JSON for the API."""
        if isinstance(exc, ClientDisconnect):  # nobody is left to answer
            return Response(status_code=400)
        if isinstance(exc, RequestValidationError):
            status, detail = 422, _describe_validation(exc)
        elif isinstance(exc, HTTPException):
            status, detail = exc.status_code, str(exc.detail)
        else:
            log.exception("error serving %s", request.url.path, exc_info=exc)
            status, detail = 500, "internal error; the server log has the details"
        title = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Error"
        # A 500 is sent by Starlette's outermost middleware, past SecurityHeaders: set them here too.
        headers = {"Cache-Control": "no-store", **{k.decode(): v.decode() for k, v in SECURITY_HEADERS}}
        if isinstance(exc, HTTPException) and exc.headers:
            headers.update(exc.headers)  # Allow on 405, Connection: close on 408
        if wants_json(request):
            return Response(json_bytes(error_body(status, title, detail)), status_code=status,
                            media_type="application/json", headers=headers)
        html = site.status_page(status, title, detail, request.url.path, str(request.base_url))
        return Response(html, status_code=status, media_type="text/html; charset=utf-8", headers=headers)

    app.add_exception_handler(HTTPException, handle_error)
    app.add_exception_handler(RequestValidationError, handle_error)
    app.add_exception_handler(ClientDisconnect, handle_error)
    app.add_exception_handler(Exception, handle_error)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.include_router(routes_api.router)
    app.include_router(seo.router)
    app.include_router(routes_review.router)  # before the pages, whose /{owner}/{name}/{path} takes anything
    app.include_router(routes_pages.router)  # last: /{owner}/{name} matches almost anything
    app.add_middleware(RequestBody, limit=settings.max_body_bytes, timeout=settings.body_timeout,
                       on_error=handle_error)
    app.add_middleware(HeadAsGet)
    app.add_middleware(SecurityHeaders)
    document: dict[str, object] = {}

    def openapi() -> dict[str, object]:
        if not document:
            document.update(openapi_document(app, settings, DESCRIPTION))
        return document

    app.openapi = openapi  # type: ignore[method-assign]
    return app
