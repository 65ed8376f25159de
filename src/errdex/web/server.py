"""``errdex serve``'s HTTP server: uvicorn's h11 protocol with deadlines on what clients send.

uvicorn bounds only the idle time between requests (keep-alive).  A client
that sends half a request line, or its headers and never the body, would
hold a connection (a file descriptor and a task) for as long as it likes;
a few thousand of them exhaust the server.  ``DeadlineH11Protocol`` adds:

- a header deadline: the request line and headers must be complete within
  ``header_timeout`` seconds of the connection opening or of the first byte
  of a request after an idle keep-alive.  Sending a byte now and then does
  not extend it.  On expiry the client gets ``408`` and the connection is
  closed.
- a body deadline: the body must be complete within ``body_timeout`` seconds
  of the headers (plus a second's grace, so that ``http.RequestBody``, which
  answers ``408`` through the app, goes first when a route is reading).  It
  also closes connections whose body still trickles after the response was
  sent, which keep-alive alone would let live forever.

The protocol class is uvicorn's own, extended by its documented ``http=``
parameter; only ``data_received``, ``connection_made``, ``connection_lost``
and ``on_response_complete`` are wrapped.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from errdex.web.http import SECURITY_HEADERS
from errdex.web.settings import WebSettings

BODY_GRACE = 1.0


def _timeout_response() -> bytes:
    body = b"the request did not arrive in time\n"
    headers = b"".join(k + b": " + v + b"\r\n" for k, v in SECURITY_HEADERS)
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
            + headers + b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


class DeadlineH11Protocol(H11Protocol):
    """h11 with a deadline for the headers and one for the body of every request."""

    header_timeout = 5.0
    body_timeout = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_for: str = ""  # "headers", "body" or "" (nothing owed by the client)

    def _arm(self, what: str, seconds: float) -> None:
        self._disarm()
        self._waiting_for = what
        self._deadline = self.loop.call_later(seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = None
        self._waiting_for = ""

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self._waiting_for == "headers":
            owed = bool(self.conn.trailing_data[0])  # an idle connection that sent nothing is just closed
        else:
            owed = self.cycle is not None and not self.cycle.response_started
        if owed:  # a request has begun and nothing has answered it: say why the connection ends
            self.transport.write(_timeout_response())
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self._waiting_for = ""
        self.transport.close()

    def _follow(self) -> None:
        """Arm or disarm after h11 has consumed what arrived: what does the client owe now?"""
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            if self._waiting_for != "body":
                self._arm("body", self.body_timeout + BODY_GRACE)
        elif state is h11.IDLE and self.conn.our_state is h11.IDLE:
            # between requests: a partial request line or headers may be buffered
            if self._waiting_for != "headers" and self.conn.trailing_data[0]:
                self._arm("headers", self.header_timeout)
        elif self._waiting_for:
            self._disarm()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm("headers", self.header_timeout)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self.transport.is_closing():
            self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def protocol_for(settings: WebSettings) -> type[DeadlineH11Protocol]:
    """A protocol class carrying ``settings``' deadlines (uvicorn instantiates it per connection)."""
    return type("ErrdexH11Protocol", (DeadlineH11Protocol,), {
        "header_timeout": settings.header_timeout, "body_timeout": settings.body_timeout})


def uvicorn_config(app: Any, settings: WebSettings, host: str, port: int) -> uvicorn.Config:
    return uvicorn.Config(app, host=host, port=port, log_level="warning", http=protocol_for(settings),
                          timeout_keep_alive=max(1, round(settings.keep_alive)),
                          limit_concurrency=settings.max_connections)


def serve(app: Any, settings: WebSettings, host: str, port: int) -> None:
    """Run ``app`` until interrupted, with ``settings``' deadlines and connection limit."""
    uvicorn.Server(uvicorn_config(app, settings, host, port)).run()


class EnvDeadlineH11Protocol(DeadlineH11Protocol):
    """The deadlines of ``errdex serve --workers N``: each worker process is spawned by uvicorn and
    imports this class by name, so its deadlines come from the environment the parent set
    (``WebSettings.from_env``), not from a class built at run time (which could not be pickled)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = _env_settings()
        self.header_timeout = settings.header_timeout
        self.body_timeout = settings.body_timeout


def _env_settings() -> WebSettings:
    global _ENV_SETTINGS
    if _ENV_SETTINGS is None:
        _ENV_SETTINGS = WebSettings.from_env()
    return _ENV_SETTINGS


_ENV_SETTINGS: WebSettings | None = None


def serve_workers(settings: WebSettings, host: str, port: int, workers: int, factory: str) -> None:
    """``workers`` uvicorn processes on one socket, each building its app with ``factory`` (an
    import string) and serving it with the same deadlines and connection limit as ``serve``."""
    uvicorn.run(factory, factory=True, host=host, port=port, workers=workers, log_level="warning",
                http=EnvDeadlineH11Protocol, timeout_keep_alive=max(1, round(settings.keep_alive)),
                limit_concurrency=settings.max_connections)
