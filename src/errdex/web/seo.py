"""Links of record: ``/sitemap.xml``, ``/robots.txt`` and the API reference at ``/docs``.

The sitemap lists every error page by its stable id, so links that search
engines keep survive re-indexing.  ``/docs`` is rendered on the server from
the OpenAPI schema instead of FastAPI's Swagger UI, which needs inline
scripts (forbidden by our CSP) and a CDN.
"""

from __future__ import annotations

from urllib.parse import quote
from xml.sax.saxutils import escape

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response

from errdex.catalog.base import Catalog
from errdex.sources.names import module_path_problem, repo_problem
from errdex.web.http import HTML_MEDIA, cached
from errdex.web.routing import NOT_MODIFIED, site_of

router = APIRouter(tags=["site"])


def site_paths(catalog: Catalog, skipped: list[str] | None = None) -> list[str]:
    """Every page of the site: home, each repo, each module, each error (URL paths, percent-encoded).

    A repo or module whose name breaks the one rule (``errdex.sources.names``)
    has no page the server would answer, so it is left out and named in
    ``skipped``; indexing refuses such names, but a catalog written by an
    older errdex or by hand may hold them.
    """
    paths = ["/"]
    for repo in catalog.repos():
        problem = repo_problem(repo)
        if problem:
            _skip(skipped, f"repo {repo!r}: {problem}")
            continue
        paths.append(url_path(f"/{repo}"))
        modules: set[str] = set()
        errors: list[str] = []
        seen: set[str] = set()
        for site in catalog.sites(repo=repo):
            problem = module_path_problem(site.path)
            if problem:
                _skip(skipped, f"module {site.path!r} of {repo}: {problem}")
            else:
                modules.add(site.path)
            if site.error_id not in seen:
                seen.add(site.error_id)
                errors.append(f"/errors/{site.error_id}")
        paths.extend(url_path(f"/{repo}/{m}") for m in sorted(modules))
        paths.extend(errors)
    return paths


def _skip(skipped: list[str] | None, what: str) -> None:
    if skipped is not None and what not in skipped:
        skipped.append(what)


def url_path(path: str) -> str:
    """``path`` percent-encoded for a URL (RFC 3986: "/" kept, everything not unreserved escaped)."""
    return quote(path, safe="/")


def sitemap_xml(paths: list[str], base: str) -> str:
    base = base.rstrip("/")
    urls = "".join(f"<url><loc>{escape(base + p)}</loc></url>\n" for p in paths)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{urls}</urlset>\n')


def robots_txt(base: str) -> str:
    return f"User-agent: *\nAllow: /\nDisallow: /api/\nSitemap: {base.rstrip('/')}/sitemap.xml\n"


@router.get("/sitemap.xml", summary="Every page, for search engines",
            responses={200: {"content": {"application/xml": {"schema": {"type": "string"}}},
                              "description": "The sitemap"}, **NOT_MODIFIED})
def sitemap(request: Request) -> Response:
    site = site_of(request)
    base = site.settings.base_url or str(request.base_url)
    body = site.cached(("sitemap", base), lambda: sitemap_xml(site_paths(site.catalog), base).encode())
    return cached(request, body, "application/xml", max_age=site.settings.cache_seconds)


@router.get("/robots.txt", summary="Crawler rules", responses={
    200: {"content": {"text/plain": {"schema": {"type": "string"}}}, "description": "ok"}, **NOT_MODIFIED})
def robots(request: Request) -> Response:
    site = site_of(request)
    base = site.settings.base_url or str(request.base_url)
    return cached(request, robots_txt(base).encode(), "text/plain; charset=utf-8", max_age=3600)


@router.get("/docs", summary="The API reference", responses={
    200: {"content": {"text/html": {"schema": {"type": "string"}}}, "description": "ok"}, **NOT_MODIFIED})
def api_docs(request: Request) -> Response:
    site = site_of(request)
    body = site.api_docs_page(request.app.openapi(), str(request.base_url)).encode()
    return cached(request, body, HTML_MEDIA, max_age=site.settings.cache_seconds)
