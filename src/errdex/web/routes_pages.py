"""The HTML pages: each renders the document its ``/api`` twin returns.

They work without JavaScript: the paste box is a plain form POST, filters
and pages are links.  Routes are plain functions (FastAPI runs them in its
thread pool) because the catalog is synchronous.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from errdex import documents
from errdex.web.http import HTML_MEDIA, cached
from errdex.web.routing import (
    BODY_ERRORS,
    MALFORMED,
    NOT_FOUND,
    NOT_MODIFIED,
    ErrorId,
    Exc,
    Kind,
    ModulePath,
    Name,
    Owner,
    Page,
    RepoFilter,
    Responses,
    SearchQuery,
    site_of,
    too_long,
)

router = APIRouter(tags=["pages"])

PAGE: Responses = {200: {"content": {"text/html": {"schema": {"type": "string"}}},
                                                "description": "The page"}}
PLAIN: Responses = {**PAGE, **NOT_MODIFIED}
QUERIED: Responses = {**PLAIN, **MALFORMED}
ONE: Responses = {**QUERIED, **NOT_FOUND}
FORM_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/x-www-form-urlencoded": {"schema": {
            "type": "object", "required": ["text"],
            "properties": {"text": {"type": "string", "description":
                                    "A message or a whole traceback (at most the paste limit, in characters)."}},
        }}},
    }
}


def _html(request: Request, key: tuple[Any, ...], make: Any, what: str = "this page") -> Response:
    """A cached rendered page: the body is built once per catalog generation and key."""
    site = site_of(request)
    base = str(request.base_url)
    body: bytes | None = site.cached(("page", base, *key), lambda: _encode(make(base)))
    if body is None:
        raise HTTPException(404, f"{what} is not in the catalog")
    return cached(request, body, HTML_MEDIA, max_age=site.settings.cache_seconds)


def _encode(html: str | None) -> bytes | None:
    return None if html is None else html.encode("utf-8")


@router.get("/", responses=PLAIN, summary="Paste box, search and the catalog's repos")
def home(request: Request) -> Response:
    site = site_of(request)
    return _html(request, ("home",), lambda base: site.home_page(site.home(), base))


@router.get("/search", responses=QUERIED, summary="Search results page")
def search(request: Request, q: SearchQuery = "", repo: RepoFilter = None) -> Response:
    site = site_of(request)
    return _html(request, ("search", q, repo), lambda base: site.search_page(site.search(q, repo), base))


@router.post("/explain", responses={**PAGE, **BODY_ERRORS, **MALFORMED},
             summary="Paste result page (form POST)", openapi_extra=FORM_BODY)
async def explain(request: Request) -> Response:
    site = site_of(request)
    raw = await request.body()  # RequestBody has refused a body no paste within the limit can take
    ctype = request.headers.get("content-type", "")
    if "application/x-www-form-urlencoded" not in ctype:
        raise HTTPException(422, "expected a form (application/x-www-form-urlencoded) with a 'text' field")
    try:
        fields = parse_qs(raw.decode("utf-8"), keep_blank_values=True, strict_parsing=False)
    except UnicodeDecodeError as exc:
        raise HTTPException(422, f"the form is not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    texts = fields.get("text")
    if not texts:
        raise HTTPException(422, "the form has no 'text' field: paste a message or a traceback")
    text = texts[0]
    if len(text) > site.settings.max_paste:
        raise too_long("text", len(text), site.settings.max_paste)
    result = await run_in_threadpool(site.explain, text)
    html = site.explain_page(result, text, str(request.base_url))
    return Response(html, media_type=HTML_MEDIA, headers={"Cache-Control": "no-store"})


@router.get("/errors/{error_id}", responses=ONE, summary="One error's page")
def error_page(request: Request, error_id: ErrorId) -> Response:
    site = site_of(request)

    def make(base: str) -> str | None:
        doc = site.error(error_id)
        return None if doc is None else site.error_page(doc, base)

    return _html(request, ("error", error_id), make, f"error {error_id}")


@router.get("/{owner}/{name}", responses=ONE, summary="A repo's errors by module and exception type")
def repo_page(request: Request, owner: Owner, name: Name, kind: Kind = None, exception: Exc = None,
              page: Page = 1) -> Response:
    return _repo(request, f"{owner}/{name}", None, kind, exception, page)


@router.get("/{owner}/{name}/untested", responses=ONE, summary="Raise sites that none of the repo's tests reached")
def untested_page(request: Request, owner: Owner, name: Name) -> Response:
    site = site_of(request)
    repo = f"{owner}/{name}"

    def make(base: str) -> str | None:
        doc = site.untested(repo)
        return None if doc is None else site.untested_page(doc, base)

    return _html(request, ("untested", repo), make, f"repo {repo}")


@router.get("/{owner}/{name}/{path:path}", responses=ONE, summary="One module's errors")
def module_page(request: Request, owner: Owner, name: Name, path: ModulePath, kind: Kind = None,
                exception: Exc = None, page: Page = 1) -> Response:
    return _repo(request, f"{owner}/{name}", path, kind, exception, page)


def _repo(request: Request, repo: str, path: str | None, kind: str | None, exception: str | None,
          page: int) -> Response:
    site = site_of(request)

    def make(base: str) -> str | None:
        doc = site.repo(repo, path, kind=kind, exception=exception, page=page, per_page=documents.PER_PAGE)
        return None if doc is None else site.repo_page(doc, base)

    what = f"module {path} of {repo}" if path else f"repo {repo}"
    return _html(request, ("repo", repo, path, kind, exception, page), make, what)
