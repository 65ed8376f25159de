"""HTTP concerns shared by every route: security headers, request body bounds, HEAD, ETags, errors.

Pages show text taken from indexed code, which is untrusted.  Besides the
escaping done by the templates, every response carries a strict
Content-Security-Policy without 'unsafe-inline': even if some text escaped
the escaping, a browser would refuse to run an inline script or handler.

The middlewares are plain ASGI (not ``BaseHTTPMiddleware``), which costs a
fraction of the per-request time of the Starlette helper.
"""

from __future__ import annotations

import asyncio
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
        super().__init__(413, f"request body larger than {limit} bytes, more than any paste within the "
                              "character limit can take; send less text")


class BodyTimeout(HTTPException):
    def __init__(self, seconds: float) -> None:
        super().__init__(408, f"the request body did not arrive within {seconds:g} s", headers={"Connection": "close"})


BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class RequestBody:
    """Bounds what a client may make the server wait for and hold: body bytes and body time.

    Only methods that carry a body the routes read are watched (a GET's body
    is never read).  A declared Content-Length over ``limit`` is refused
    before reading; a chunked body is counted as it arrives and refused when
    it crosses the limit; a body not complete ``timeout`` seconds after the
    route first asks for it is answered 408 and the connection closed.  The
    route sees ``PayloadTooLarge`` or ``BodyTimeout``, which the error
    handler renders.
    """

    def __init__(self, app: ASGIApp, limit: int, timeout: float,
                 on_error: Callable[[Request, Exception], Awaitable[Response]]) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout
        self.on_error = on_error

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in BODY_METHODS:
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
        deadline: float | None = None
        done = False

        async def counted() -> Message:
            nonlocal seen, deadline, done
            if done:  # the body is in: what is left to hear is a disconnect, which may take any time
                return await receive()
            loop = asyncio.get_running_loop()
            if deadline is None:
                deadline = loop.time() + self.timeout
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise BodyTimeout(self.timeout) from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise PayloadTooLarge(self.limit)
                done = not message.get("more_body", False)
            return message

        await self.app(scope, counted, send)


class HeadAsGet:
    """``HEAD`` on every GET route: the GET is run and its body dropped (RFC 9110 §9.3.2).

    FastAPI registers GET routes for GET only; doing it here keeps the
    OpenAPI document to the GET operations and every header (ETag,
    Content-Length, Cache-Control) identical to the GET's.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def bodiless(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, bodiless)


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
