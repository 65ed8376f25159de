"""What every route module shares: the site of a request, parameter types, declared errors.

The route modules (``routes_api``, ``routes_pages``, ``seo``) import this and
``app`` imports them, so no route module imports ``app`` back.

Path parameters that name a repo or a module use the patterns of
``errdex.sources.names``, the one rule indexing applies: a name the catalog
can hold is one the server answers, and a name the server refuses (``..``,
hidden names, characters a URL would have to escape) was never stored.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from fastapi import Path, Query
from fastapi.exceptions import RequestValidationError
from pydantic import AfterValidator
from starlette.requests import Request

from errdex import documents
from errdex.sources.names import (
    MODULE_PATH_MAX,
    MODULE_PATH_ROUTE_PATTERN,
    PART_ROUTE_PATTERN,
    module_path_problem,
)
from errdex.web.site import Site

ErrorId = Annotated[str, Path(pattern=r"^[0-9a-f]{16}$", description="The 16-hex stable error id.")]
Owner = Annotated[str, Path(pattern=PART_ROUTE_PATTERN, description="Repository owner (errdex.sources.names).")]
Name = Annotated[str, Path(pattern=PART_ROUTE_PATTERN, description="Repository name (errdex.sources.names).")]
_MODULE_PATH_RE = re.compile(MODULE_PATH_ROUTE_PATTERN)


def _module_path(value: str) -> str:
    """The module path pattern, checked with Python's ``re``: pydantic's Rust engine has no look-ahead."""
    if len(value) > MODULE_PATH_MAX or not _MODULE_PATH_RE.match(value):
        raise ValueError(f"not a module path: {module_path_problem(value) or 'see errdex.sources.names'}")
    return value


ModulePath = Annotated[str, AfterValidator(_module_path), Path(
    max_length=MODULE_PATH_MAX, json_schema_extra={"pattern": MODULE_PATH_ROUTE_PATTERN},
    description="Package-relative path of a module (errdex.sources.names).")]
Kind = Annotated[Literal["error", "warning", "assertion"] | None, Query(description="Only this kind.")]
Exc = Annotated[str | None, Query(max_length=200, description="Only this exception class name (characters).")]
Page = Annotated[int, Query(ge=1, le=1_000_000)]
PerPage = Annotated[int, Query(ge=1, le=documents.MAX_PER_PAGE)]
SearchQuery = Annotated[str, Query(max_length=1000, description="Words to find (at most 1000 characters).")]
RepoFilter = Annotated[str | None, Query(max_length=200, description="Only this repo, OWNER/NAME.")]


def site_of(request: Request) -> Site:
    """The ``Site`` the app was created with (``create_app`` stores it on ``app.state``)."""
    site: Site = request.app.state.site
    return site


def error_response(description: str) -> dict[str, Any]:
    """A declared error status: the one ``ErrorBody`` shape (JSON) or the status page (HTML)."""
    return {"description": description, "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}},
        "text/html": {"schema": {"type": "string"}},
    }}


Responses = dict[int | str, dict[str, Any]]
NOT_FOUND: Responses = {404: error_response("Not in the catalog: unknown error id, repo or module")}
MALFORMED: Responses = {422: error_response("Malformed request; `detail` names the field")}
NOT_MODIFIED: Responses = {
    304: {"description": "Not modified: the `If-None-Match` ETag is current"}}
BODY_ERRORS: Responses = {
    408: error_response("The request body did not arrive within the body timeout; the connection is closed"),
    413: error_response("Request body larger than any paste within the character limit can take"),
}


def too_long(field: str, length: int, limit: int) -> RequestValidationError:
    """The 422 for a text over the paste limit, counted in characters like the schema's maxLength."""
    return RequestValidationError([{"loc": ("body", field), "type": "string_too_long", "msg":
                                    f"{length} characters, more than the paste limit of {limit} characters"}])
