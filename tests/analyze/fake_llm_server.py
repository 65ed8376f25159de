"""A real OpenAI-compatible chat-completions server on 127.0.0.1, scriptable per test.

It speaks HTTP on a free port (``POST /v1/chat/completions``, ``GET
/v1/models``), so the code under test goes through the official ``openai``
client, httpx, sockets and JSON exactly as against vLLM or llama.cpp.

Scripting: ``server.queue`` holds ``Reply`` values served first, in order;
after that, ``server.responder(request) -> Reply`` answers.  The default
responder is a well-behaved model: it reads the facts from the user message
and answers with every section, citing real fact ids, with samples that the
verifier accepts.  ``server.requests`` records every request body.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    content: str | None = None  # the assistant message (None with ``body``/errors)
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering (a timeout when > the client's)
    body: Any = None  # a raw JSON body instead of a completion


def completion(content: str, model: str, prompt_tokens: int = 0, completion_tokens: int = 0) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()), "model": model,
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


def user_facts(request: dict[str, Any]) -> dict[str, Any]:
    """The first user message parsed as JSON (the facts, as errdex sends them)."""
    for m in request["messages"]:
        if m["role"] == "user":
            data: dict[str, Any] = json.loads(m["content"])
            return data
    raise AssertionError("no user message")


def good_answer(request: dict[str, Any]) -> dict[str, Any]:
    """Every section, grounded in the given facts, with samples that pass the verifier."""
    facts = user_facts(request)
    data = facts["untrusted_source_text"]
    ids = [e["id"] for e in data["evidence"]]
    second = ids[1:2] or ids[:1]  # the first fact after the template (every error has the template)
    guards = [e for e in data["evidence"] if e["kind"] == "guard"]
    public = facts["error"]["public_name"] or "Exception"
    mod = public.rpartition(".")[0]
    head = f"import {mod}\n" if mod else ""
    caught = public
    template = data["message_template"]
    cond = guards[0]["text"] if guards else "the condition holds"
    raising = f"def call():\n    raise {caught}({template!r})\n"
    return {
        "meaning": {"text": f"It is raised when {cond}. The message is: {template}", "evidence": ids[:2]},
        "solutions": [{"text": f"Make sure that {cond} does not hold before the call.", "evidence": second}],
        "example_fix": {"before": head + raising + "call()\n",
                        "after": head + raising + "if False:\n    call()\n", "evidence": ids[:1]},
        "strategy": "validation",
        "validate_sample": {"code": "values = [1, 2]\nif len(values) != 2:\n    raise SystemExit('bad input')\n",
                            "evidence": second},
        "try_sample": {"code": head + raising + f"try:\n    call()\nexcept {caught} as exc:\n    print(exc)\n",
                       "evidence": ids[:1]},
        "prevention": [{"text": "Check the inputs where they enter the program.", "evidence": ids[:1]}],
        "trigger": {"text": f"Calling `{data['raised_at']}` when {cond}.", "evidence": ids[:2]},
        "situations": [{"text": "Passing input that was not validated.", "evidence": ids[:1]}],
    }


def default_responder(request: dict[str, Any]) -> Reply:
    return Reply(content=json.dumps(good_answer(request)))


class FakeLLMServer:
    def __init__(self) -> None:
        self.queue: list[Reply] = []
        self.responder: Callable[[dict[str, Any]], Reply] = default_responder
        self.requests: list[dict[str, Any]] = []
        self.reject_response_format = False  # answer 400 to requests that carry response_format
        self.refuse_params: set[str] = set()  # answer 400 to requests carrying these (as OpenAI's o-series does)
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms delayed-ACK stall

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                raw = self.rfile.read(length)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                request = json.loads(raw)
                reply = server._next(request)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.status != 200:
                    self._send(reply.status, reply.body or {"error": {"message": f"status {reply.status}"}},
                               reply.headers)
                    return
                body = reply.body if reply.body is not None else completion(
                    reply.content or "", request.get("model", ""),
                    prompt_tokens=sum(1 + len(m["content"]) // 4 for m in request["messages"]),
                    completion_tokens=len(reply.content or "") // 4)
                self._send(200, body, reply.headers)

            def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(body).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.block_on_close = False
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    def _next(self, request: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self.reject_response_format and "response_format" in request:
                return Reply(status=400, body={"error": {"message": "response_format json_schema is not supported"}})
            for name in sorted(self.refuse_params):
                if name in request:
                    return Reply(status=400, body={"error": {
                        "message": f"Unsupported parameter: '{name}' is not supported with this model.",
                        "type": "invalid_request_error", "param": name}})
            if self.queue:
                return self.queue.pop(0)
        return self.responder(request)

    def start(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@contextmanager
def fake_llm_server() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer().start()
    try:
        yield server
    finally:
        server.stop()
