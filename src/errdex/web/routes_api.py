"""The JSON API: the documents of ``errdex.documents``, as they are.

Each route returns the bytes of a document with an ETag; the response
models declared here only describe the shapes in the OpenAPI schema
(``/openapi.json``), they are not re-validated on the way out.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from errdex import documents
from errdex.documents import ErrorDocument, HomeDocument, RepoDocument, SearchDocument
from errdex.match.model import Explanation
from errdex.observe.report import UntestedDocument
from errdex.web.app import site_of
from errdex.web.http import JSON_MEDIA, ErrorBody, cached, json_bytes
from errdex.web.search_index import SearchIndex, build_search_index
from errdex.web.settings import MAX_PASTE_BYTES

router = APIRouter(prefix="/api", tags=["api"])

ErrorId = Annotated[str, Path(pattern=r"^[0-9a-f]{16}$", description="The 16-hex stable error id.")]
Owner = Annotated[str, Path(pattern=r"^[A-Za-z0-9_.-]{1,100}$", description="Repository owner.")]
Name = Annotated[str, Path(pattern=r"^[A-Za-z0-9_.-]{1,100}$", description="Repository name.")]
ModulePath = Annotated[str, Path(pattern=r"^[A-Za-z0-9_./-]{1,500}$", description="Package-relative path of a module.")]
Kind = Annotated[Literal["error", "warning", "assertion"] | None, Query(description="Only this kind.")]
Exc = Annotated[str | None, Query(max_length=200, description="Only this exception class name.")]
Page = Annotated[int, Query(ge=1, le=1_000_000)]
PerPage = Annotated[int, Query(ge=1, le=documents.MAX_PER_PAGE)]

ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "Unknown error id, repo or module"},
    422: {"model": ErrorBody, "description": "Malformed request"},
}


class ExplainRequest(BaseModel):
    """``POST /api/explain``: the pasted text (a message or a whole traceback)."""

    text: str = Field(max_length=MAX_PASTE_BYTES, description="A message or a traceback, as printed.")
    top: int = Field(5, ge=1, le=50, description="How many matches to return at most.")
    repo: str | None = Field(None, max_length=200, description="Only match errors of this repo (owner/name).")


def _json(request: Request, data: Any) -> Response:
    return cached(request, json_bytes(data), JSON_MEDIA, max_age=site_of(request).settings.cache_seconds)


def _found(data: Any, what: str) -> Any:
    if data is None:
        raise HTTPException(404, f"{what} is not in the catalog")
    return data


@router.get("/errors/{error_id}", response_model=ErrorDocument, responses=ERRORS, summary="One error's document")
def api_error(request: Request, error_id: ErrorId) -> Response:
    """The same object as the page ``/errors/{error_id}`` and ``errdex show --json``."""
    site = site_of(request)
    body = site.cached(("api-error", error_id), lambda: _body_or_none(site.error(error_id)))
    return cached(request, _found(body, f"error {error_id}"), JSON_MEDIA, max_age=site.settings.cache_seconds)


def _body_or_none(doc: Any) -> bytes | None:
    return None if doc is None else json_bytes(doc)


@router.get("/repos", response_model=HomeDocument, responses=ERRORS, summary="The repos in the catalog")
def api_repos(request: Request) -> Response:
    return _json(request, site_of(request).home())


@router.get("/repos/{owner}/{name}", response_model=RepoDocument, responses=ERRORS,
            summary="A repo's errors by module and exception type")
def api_repo(request: Request, owner: Owner, name: Name, kind: Kind = None, exception: Exc = None,
             page: Page = 1, per_page: PerPage = documents.PER_PAGE) -> Response:
    repo = f"{owner}/{name}"
    doc = site_of(request).repo(repo, None, kind=kind, exception=exception, page=page, per_page=per_page)
    return _json(request, _found(doc, f"repo {repo}"))


@router.get("/repos/{owner}/{name}/untested", response_model=UntestedDocument, responses=ERRORS,
            summary="Raise sites that none of the repo's tests reached (needs errdex observe)")
def api_untested(request: Request, owner: Owner, name: Name) -> Response:
    """The same object as the page ``/{owner}/{name}/untested`` and ``errdex report untested --repo R --json``."""
    repo = f"{owner}/{name}"
    return _json(request, _found(site_of(request).untested(repo), f"repo {repo}"))


@router.get("/repos/{owner}/{name}/{path:path}", response_model=RepoDocument, responses=ERRORS,
            summary="One module's errors")
def api_module(request: Request, owner: Owner, name: Name, path: ModulePath, kind: Kind = None,
               exception: Exc = None, page: Page = 1, per_page: PerPage = documents.PER_PAGE) -> Response:
    repo = f"{owner}/{name}"
    doc = site_of(request).repo(repo, path, kind=kind, exception=exception, page=page, per_page=per_page)
    return _json(request, _found(doc, f"module {path} of {repo}"))


@router.get("/search", response_model=SearchDocument, responses=ERRORS, summary="Search errors by words")
def api_search(request: Request, q: Annotated[str, Query(max_length=1000)] = "",
               repo: Annotated[str | None, Query(max_length=200)] = None,
               limit: Annotated[int, Query(ge=1, le=500)] = 50) -> Response:
    return _json(request, site_of(request).search(q, repo, limit))


@router.get("/search-index.json", response_model=SearchIndex, summary="Compact index for client-side matching")
def api_search_index(request: Request) -> Response:
    """What the static site's paste box matches against in the browser (see docs/web.md)."""
    site = site_of(request)
    body = site.cached(("search-index",), lambda: json_bytes(build_search_index(site.catalog)))
    return cached(request, body, JSON_MEDIA, max_age=site.settings.cache_seconds)


@router.post("/explain", response_model=Explanation,
             responses={**ERRORS, 413: {"model": ErrorBody, "description": "Paste too large"}},
             summary="Match a pasted message or traceback")
async def api_explain(request: Request, body: ExplainRequest) -> Response:
    """The ranked matches with the values of their placeholders: ``errdex explain --json``'s object."""
    site = site_of(request)
    result = await run_in_threadpool(site.explain, body.text, body.top, body.repo)
    return Response(json_bytes(result), media_type=JSON_MEDIA, headers={"Cache-Control": "no-store"})
