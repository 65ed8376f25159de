"""HTTP concerns shared by every route: security headers, body limit, ETags, errors.

Pages show text taken from indexed code, which is untrusted.  Besides the
escaping done by the templates, every response carries a strict
Content-Security-Policy without 'unsafe-inline': even if some text escaped
the escaping, a browser would refuse to run an inline script or handler.

The middlewares are plain ASGI (not ``BaseHTTPMiddleware``), which costs a
fraction of the per-request time of the Starlette helper.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Literal, TypedDict

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
)

JSON_MEDIA = "application/json"
HTML_MEDIA = "text/html; charset=utf-8"


class ErrorDetail(TypedDict):
    status: int
    title: str
    detail: str


class ErrorBody(TypedDict):
    """The one shape of every error the site returns as JSON."""

    error: ErrorDetail


class SecurityHeaders:
    """Adds ``SECURITY_HEADERS`` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class PayloadTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body larger than {limit} bytes (the paste limit); send less text")


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes with 413, declared or streamed.

    A declared Content-Length over the limit is refused before reading; a
    chunked body is counted as it arrives and refused when it crosses the
    limit (the route sees ``PayloadTooLarge``, which the error handler renders).
    """

    def __init__(self, app: ASGIApp, limit: int, on_error: Callable[[Request, Exception], Awaitable[Response]]) -> None:
        self.app = app
        self.limit = limit
        self.on_error = on_error

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.limit:
                    response = await self.on_error(Request(scope), PayloadTooLarge(self.limit))
                    await response(scope, receive, send)
                    return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise PayloadTooLarge(self.limit)
            return message

        await self.app(scope, counted, send)


def etag_of(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


def cached(request: Request, body: bytes, media_type: str, *, max_age: int, etag: str | None = None) -> Response:
    """A response with ETag and Cache-Control; 304 when the client already holds it."""
    tag = etag or etag_of(body)
    headers = {"ETag": tag, "Cache-Control": f"public, max-age={max_age}"}
    inm = request.headers.get("if-none-match")
    if inm and (inm.strip() == "*" or tag in (t.strip() for t in inm.split(","))):
        return Response(status_code=304, headers=headers)
    return Response(content=body, media_type=media_type, headers=headers)


def json_bytes(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def wants_json(request: Request) -> bool:
    """JSON for the API and for clients that ask for it; HTML for browsers."""
    if request.url.path.startswith("/api/") or request.url.path == "/openapi.json":
        return True
    accept = request.headers.get("accept", "")
    return JSON_MEDIA in accept and "text/html" not in accept


def error_body(status: int, title: str, detail: str) -> ErrorBody:
    return ErrorBody(error=ErrorDetail(status=status, title=title, detail=detail))


ErrorKind = Literal["json", "html"]


def plain_headers(headers: MutableMapping[str, str] | None) -> dict[str, str]:
    return dict(headers or {})
