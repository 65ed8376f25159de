"""The JSON API: the documents of ``errdex.documents``, as they are.

Each route returns the bytes of a document with an ETag; the response
models declared here only describe the shapes in the OpenAPI schema
(``/openapi.json``), they are not re-validated on the way out.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from errdex import documents
from errdex.documents import ErrorDocument, HomeDocument, RepoDocument, SearchDocument
from errdex.match.model import Explanation
from errdex.observe.report import UntestedDocument
from errdex.web.http import JSON_MEDIA, cached, json_bytes
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
    PerPage,
    RepoFilter,
    Responses,
    SearchQuery,
    site_of,
    too_long,
)
from errdex.web.search_index import SearchIndex, build_search_index

router = APIRouter(prefix="/api", tags=["api"])


def _integral(value: Any) -> Any:
    """JSON Schema's integer: 5.0 is one (strict pydantic would refuse it), "5" and true are not."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


class ExplainRequest(BaseModel):
    """``POST /api/explain``: the pasted text (a message or a whole traceback).

    ``text`` is limited in characters (``WebSettings.max_paste``; the OpenAPI
    document states the configured value as ``maxLength``), checked by the
    route after decoding, never in bytes of the encoded body.  Strict: JSON
    types as the schema states them (``"5"`` is not an integer, ``5.0`` is).
    """

    model_config = ConfigDict(strict=True)

    text: str = Field(description="A message or a traceback, as printed (at most the paste limit, in characters).")
    top: Annotated[int, BeforeValidator(_integral)] = Field(5, ge=1, le=50, description="How many matches to return at most.")
    repo: str | None = Field(None, max_length=200, description="Only match errors of this repo (owner/name).")


EXPLAIN_BODY = {"requestBody": {"required": True, "content": {"application/json": {
    "schema": {"$ref": "#/components/schemas/ExplainRequest"}}}}}


def _json(request: Request, data: Any) -> Response:
    return cached(request, json_bytes(data), JSON_MEDIA, max_age=site_of(request).settings.cache_seconds)


def _found(data: Any, what: str) -> Any:
    if data is None:
        raise HTTPException(404, f"{what} is not in the catalog")
    return data


GET_ONE: Responses = {**NOT_MODIFIED, **NOT_FOUND, **MALFORMED}
GET_LIST: Responses = {**NOT_MODIFIED, **MALFORMED}


@router.get("/errors/{error_id}", response_model=ErrorDocument, responses=GET_ONE, summary="One error's document")
def api_error(request: Request, error_id: ErrorId) -> Response:
    """The same object as the page ``/errors/{error_id}`` and ``errdex show --json``."""
    site = site_of(request)
    body = site.cached(("api-error", error_id), lambda: _body_or_none(site.error(error_id)))
    return cached(request, _found(body, f"error {error_id}"), JSON_MEDIA, max_age=site.settings.cache_seconds)


def _body_or_none(doc: Any) -> bytes | None:
    return None if doc is None else json_bytes(doc)


@router.get("/repos", response_model=HomeDocument, responses=NOT_MODIFIED, summary="The repos in the catalog")
def api_repos(request: Request) -> Response:
    return _json(request, site_of(request).home())


@router.get("/repos/{owner}/{name}", response_model=RepoDocument, responses=GET_ONE,
            summary="A repo's errors by module and exception type")
def api_repo(request: Request, owner: Owner, name: Name, kind: Kind = None, exception: Exc = None,
             page: Page = 1, per_page: PerPage = documents.PER_PAGE) -> Response:
    repo = f"{owner}/{name}"
    doc = site_of(request).repo(repo, None, kind=kind, exception=exception, page=page, per_page=per_page)
    return _json(request, _found(doc, f"repo {repo}"))


@router.get("/repos/{owner}/{name}/untested", response_model=UntestedDocument, responses=GET_ONE,
            summary="Raise sites that none of the repo's tests reached (needs errdex observe)")
def api_untested(request: Request, owner: Owner, name: Name) -> Response:
    """The same object as the page ``/{owner}/{name}/untested`` and ``errdex report untested --repo R --json``."""
    repo = f"{owner}/{name}"
    return _json(request, _found(site_of(request).untested(repo), f"repo {repo}"))


@router.get("/repos/{owner}/{name}/{path:path}", response_model=RepoDocument, responses=GET_ONE,
            summary="One module's errors")
def api_module(request: Request, owner: Owner, name: Name, path: ModulePath, kind: Kind = None,
               exception: Exc = None, page: Page = 1, per_page: PerPage = documents.PER_PAGE) -> Response:
    repo = f"{owner}/{name}"
    doc = site_of(request).repo(repo, path, kind=kind, exception=exception, page=page, per_page=per_page)
    return _json(request, _found(doc, f"module {path} of {repo}"))


@router.get("/search", response_model=SearchDocument, responses=GET_LIST, summary="Search errors by words")
def api_search(request: Request, q: SearchQuery = "", repo: RepoFilter = None,
               limit: Annotated[int, Query(ge=1, le=500)] = 50) -> Response:
    return _json(request, site_of(request).search(q, repo, limit))


@router.get("/search-index.json", response_model=SearchIndex, responses=NOT_MODIFIED,
            summary="Compact index for client-side matching")
def api_search_index(request: Request) -> Response:
    """What the static site's paste box matches against in the browser (see docs/web.md)."""
    site = site_of(request)
    body = site.cached(("search-index",), lambda: json_bytes(build_search_index(site.catalog)))
    return cached(request, body, JSON_MEDIA, max_age=site.settings.cache_seconds)


def read_explain_request(raw: bytes, limit: int) -> ExplainRequest:
    """The body as an ``ExplainRequest``: every way it can be wrong is a 422 naming what is wrong.

    FastAPI's own body parsing answers 400 for a body that is not UTF-8,
    a status the schema does not declare; parsing here keeps it to 422.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RequestValidationError([{"loc": ("body",), "type": "utf8", "msg":
                                       f"the body is not UTF-8 text ({exc.reason} at byte {exc.start})"}]) from None
    try:
        body = ExplainRequest.model_validate_json(text)
    except ValidationError as exc:
        raise RequestValidationError(exc.errors(include_url=False, include_context=False,
                                                include_input=False)) from None
    if len(body.text) > limit:
        raise too_long("text", len(body.text), limit)
    return body


@router.post("/explain", response_model=Explanation, responses={**BODY_ERRORS, **MALFORMED},
             summary="Match a pasted message or traceback", openapi_extra=EXPLAIN_BODY)
async def api_explain(request: Request) -> Response:
    """The ranked matches with the values of their placeholders: ``errdex explain --json``'s object."""
    site = site_of(request)
    body = read_explain_request(await request.body(), site.settings.max_paste)
    result = await run_in_threadpool(site.explain, body.text, body.top, body.repo)
    return Response(json_bytes(result), media_type=JSON_MEDIA, headers={"Cache-Control": "no-store"})
