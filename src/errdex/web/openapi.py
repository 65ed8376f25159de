"""The OpenAPI document, completed so that it states every status every route returns.

FastAPI's generated document leaves out what the middlewares and the one
error handler add, and describes 422 with its own ``HTTPValidationError``
shape, which errdex never sends.  ``openapi_document`` fixes both: every
error status of every operation refers to ``ErrorBody`` (the one shape), 500
is declared everywhere, and the paste limit appears as the configured
``maxLength`` in characters.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import TypeAdapter

from errdex.web.http import ErrorBody
from errdex.web.routes_api import ExplainRequest
from errdex.web.routing import error_response
from errdex.web.settings import WebSettings

REF = "#/components/schemas/{model}"
METHODS = ("get", "post", "put", "patch", "delete")
INTERNAL = error_response("Internal error; the server log has the details")


def _component(schema: dict[str, Any], into: dict[str, Any], name: str) -> None:
    """``schema`` under ``name`` in the components, with its ``$defs`` beside it."""
    for key, value in schema.pop("$defs", {}).items():
        into[key] = value
    into[name] = schema


def openapi_document(app: FastAPI, settings: WebSettings, description: str) -> dict[str, Any]:
    doc = get_openapi(title=app.title, version=app.version, description=description, routes=app.routes)
    schemas: dict[str, Any] = doc.setdefault("components", {}).setdefault("schemas", {})
    _component(TypeAdapter(ErrorBody).json_schema(ref_template=REF), schemas, "ErrorBody")
    explain = ExplainRequest.model_json_schema(ref_template=REF)
    explain["properties"]["text"]["maxLength"] = settings.max_paste
    _component(explain, schemas, "ExplainRequest")
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    for item in doc.get("paths", {}).values():
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            responses = op.setdefault("responses", {})
            if "422" in responses and "HTTPValidationError" in str(responses["422"]):
                responses["422"] = error_response("Malformed request; `detail` names the field")
            responses.setdefault("500", INTERNAL)
    return doc
