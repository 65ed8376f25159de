"""A chat-completions client for any OpenAI-compatible server, with our own retry policy.

Why not the SDK's retries: we need to count every attempt (the report and
``--dry-run`` speak of requests), cap the waits, and honour ``Retry-After``
the same way on every server; so the ``openai`` client is built with
``max_retries=0`` and ``complete`` retries 429, 5xx, timeouts and dropped
connections itself, with exponential backoff.  Errors that retrying cannot
fix (401, 404, a bad request) raise ``LLMError`` at once.

Structured output: the request carries ``response_format`` (JSON Schema).
A server that answers 400 to it (older llama.cpp, some proxies) is asked
again without it, and the client remembers; the answer must then be the same
JSON as plain content, which validation checks anyway.  The same goes for
``max_tokens`` and ``temperature``, which OpenAI's reasoning models refuse.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import openai

DEFAULT_BASE_URL = "http://127.0.0.1:8080/v1"


class LLMError(RuntimeError):
    """A request failed for good (after retries, or at once when retrying cannot help)."""

    def __init__(self, message: str, *, kind: str = "error", attempts: int = 1) -> None:
        super().__init__(message)
        self.kind = kind  # "timeout", "rate-limit", "server", "connection", "client"
        self.attempts = attempts


@dataclass(frozen=True, slots=True)
class ClientConfig:
    """Where the server is and how hard to try.  ``from_env`` reads ``ERRDEX_LLM_*``."""

    base_url: str = DEFAULT_BASE_URL
    api_key: str = "not-needed"
    timeout: float = 120.0  # seconds per request
    concurrency: int = 4  # requests in flight at once
    retries: int = 4  # further attempts after the first, on 429 / 5xx / timeout / connection errors
    backoff: float = 1.0  # first wait, doubled each retry (with jitter)
    max_wait: float = 60.0  # cap on any wait, Retry-After included
    max_tokens: int = 2048
    temperature: float = 0.0

    @classmethod
    def from_env(cls, **overrides: Any) -> ClientConfig:
        env = os.environ
        values: dict[str, Any] = {
            "base_url": env.get("ERRDEX_LLM_BASE_URL") or DEFAULT_BASE_URL,
            "api_key": env.get("ERRDEX_LLM_API_KEY") or "not-needed",
        }
        for name, conv in (("timeout", float), ("concurrency", int), ("retries", int), ("backoff", float),
                           ("max_wait", float), ("max_tokens", int)):
            raw = env.get(f"ERRDEX_LLM_{name.upper()}")
            if raw:
                try:
                    values[name] = conv(raw)
                except ValueError as exc:
                    raise LLMError(f"ERRDEX_LLM_{name.upper()}={raw!r}: not a number", kind="client") from exc
        values.update({k: v for k, v in overrides.items() if v is not None})
        cfg = cls(**values)
        if cfg.concurrency < 1 or cfg.retries < 0 or cfg.timeout <= 0:
            raise LLMError("ERRDEX_LLM_CONCURRENCY must be >= 1, RETRIES >= 0, TIMEOUT > 0", kind="client")
        return cfg


@dataclass(frozen=True, slots=True)
class Completion:
    """One answer, what it cost, and how many HTTP requests it took."""

    content: str
    prompt_tokens: int
    completion_tokens: int
    attempts: int
    structured: bool  # response_format was sent (and accepted)
    truncated: bool = False  # finish_reason "length": the answer hit max_tokens


class ChatClient:
    """Thread-safe: one ``openai.OpenAI`` (one httpx pool) shared by the worker threads."""

    def __init__(self, config: ClientConfig, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self.config = config
        self._sleep = sleep
        self._sdk = openai.OpenAI(base_url=config.base_url, api_key=config.api_key, timeout=config.timeout,
                                  max_retries=0)
        self._structured = True
        self._temperature = True
        self._max_tokens_param = "max_tokens"
        self._lock = threading.Lock()
        self.waits: list[float] = []  # every backoff we slept, for the report and tests

    def close(self) -> None:
        self._sdk.close()

    def complete(self, model: str, messages: Sequence[dict[str, str]],
                 response_format: dict[str, Any] | None) -> Completion:
        attempts = 0
        use_format = response_format is not None and self._structured
        while True:
            attempts += 1
            kwargs: dict[str, Any] = {}
            if use_format:
                kwargs["response_format"] = response_format
            if self._temperature:
                kwargs["temperature"] = self.config.temperature
            kwargs[self._max_tokens_param] = self.config.max_tokens
            try:
                resp = self._sdk.chat.completions.create(
                    model=model, messages=list(messages), **kwargs)  # type: ignore[arg-type]
            except openai.BadRequestError as exc:
                adapted = self._adapt(exc, use_format)
                if adapted == "response_format":
                    use_format = False
                if adapted and attempts <= self.config.retries + 3:
                    continue
                raise LLMError(f"the server refused the request: {_short(exc)}", kind="client",
                               attempts=attempts) from exc
            except (openai.RateLimitError, openai.InternalServerError, openai.APITimeoutError,
                    openai.APIConnectionError) as exc:
                kind = _kind(exc)
                if attempts > self.config.retries:
                    raise LLMError(f"{kind} after {attempts} attempts: {_short(exc)}", kind=kind,
                                   attempts=attempts) from exc
                self._wait(attempts, exc)
                continue
            except openai.APIStatusError as exc:
                if exc.status_code >= 500 and attempts <= self.config.retries:
                    self._wait(attempts, exc)
                    continue
                raise LLMError(f"HTTP {exc.status_code}: {_short(exc)}", kind="client", attempts=attempts) from exc
            choice = resp.choices[0] if resp.choices else None
            content = choice.message.content if choice is not None else None
            usage = resp.usage
            return Completion(
                content=content or "",
                prompt_tokens=usage.prompt_tokens if usage else 0,
                completion_tokens=usage.completion_tokens if usage else 0,
                attempts=attempts,
                structured=use_format,
                truncated=choice is not None and choice.finish_reason == "length",
            )

    def _adapt(self, exc: openai.BadRequestError, use_format: bool) -> str:
        """Drop what a server refuses, once, and remember it: "" when nothing can be adapted.

        Servers without structured output refuse ``response_format``; OpenAI's
        reasoning models refuse ``max_tokens`` (they want
        ``max_completion_tokens``) and a ``temperature`` other than the default.
        """
        text = str(exc).lower()
        with self._lock:
            if use_format and ("response_format" in text or "json_schema" in text or "structured" in text):
                self._structured = False
                return "response_format"
            if "max_tokens" in text and self._max_tokens_param == "max_tokens":
                self._max_tokens_param = "max_completion_tokens"
                return "max_tokens"
            if "temperature" in text and self._temperature:
                self._temperature = False
                return "temperature"
        return ""

    def _wait(self, attempt: int, exc: Exception) -> None:
        delay = _retry_after(exc)
        if delay is None:
            delay = self.config.backoff * (2 ** (attempt - 1)) * (1 + random.random() * 0.25)
        delay = max(0.0, min(delay, self.config.max_wait))
        with self._lock:
            self.waits.append(delay)
        self._sleep(delay)


def _kind(exc: Exception) -> str:
    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.RateLimitError):
        return "rate-limit"
    if isinstance(exc, openai.APIConnectionError):
        return "connection"
    return "server"


def _retry_after(exc: Exception) -> float | None:
    """Seconds from ``Retry-After`` (or ``retry-after-ms``), when the server sent one."""
    response = getattr(exc, "response", None)
    if response is None:
        return None
    headers = response.headers
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return float(ms) / 1000
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return float(raw)
    except ValueError:
        pass
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _short(exc: Exception) -> str:
    text = str(exc).replace("\n", " ")
    return text if len(text) < 300 else text[:300] + "..."
