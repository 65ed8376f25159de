"""The HTTP client against a real local server: retries, Retry-After, timeouts, fallbacks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.analyze.llm.client import ChatClient, ClientConfig, LLMError
from errdex.analyze.llm.schema import response_format

from .fake_llm_server import FakeLLMServer, Reply, fake_llm_server
from .llm_helpers import config

MESSAGES = [{"role": "system", "content": "s"}, {"role": "user", "content": "{}"}]


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with fake_llm_server() as s:
        s.responder = lambda req: Reply(content='{"ok": true}')
        yield s


def client(server: FakeLLMServer, **kw: float) -> ChatClient:
    return ChatClient(config(server.base_url, **kw))


def test_plain_answer_and_usage(server: FakeLLMServer) -> None:
    done = client(server).complete("m", MESSAGES, response_format())
    assert done.content == '{"ok": true}' and done.attempts == 1 and done.structured
    assert done.prompt_tokens > 0
    req = server.requests[0]
    assert req["model"] == "m" and req["response_format"]["type"] == "json_schema"


def test_429_then_success_honours_retry_after(server: FakeLLMServer) -> None:
    server.queue = [Reply(status=429, headers={"retry-after": "0.3"}), Reply(content='{"a": 1}')]
    slept: list[float] = []
    c = ChatClient(config(server.base_url), sleep=slept.append)
    done = c.complete("m", MESSAGES, None)
    assert done.content == '{"a": 1}' and done.attempts == 2
    assert c.waits == slept == [0.3]  # the server's Retry-After, not our own backoff
    assert len(server.requests) == 2


def test_retry_after_as_http_date(server: FakeLLMServer) -> None:
    from datetime import UTC, datetime, timedelta
    from email.utils import format_datetime

    when = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    server.queue = [Reply(status=503, headers={"retry-after": when}), Reply(content="x")]
    slept: list[float] = []
    ChatClient(config(server.base_url, max_wait=60), sleep=slept.append).complete("m", MESSAGES, None)
    assert len(slept) == 1 and 20 < slept[0] <= 30


def test_retry_after_is_capped(server: FakeLLMServer) -> None:
    server.queue = [Reply(status=429, headers={"retry-after": "3600"}), Reply(content="x")]
    c = client(server, max_wait=0.05)
    c.complete("m", MESSAGES, None)
    assert c.waits == [0.05]


def test_5xx_backs_off_exponentially(server: FakeLLMServer) -> None:
    server.queue = [Reply(status=503), Reply(status=500), Reply(content="fine")]
    c = client(server, backoff=0.02)
    assert c.complete("m", MESSAGES, None).attempts == 3
    assert len(c.waits) == 2 and c.waits[1] > c.waits[0] >= 0.02


def test_retries_run_out(server: FakeLLMServer) -> None:
    server.queue = [Reply(status=503)] * 3
    with pytest.raises(LLMError) as err:
        client(server, retries=2).complete("m", MESSAGES, None)
    assert err.value.kind == "server" and err.value.attempts == 3


def test_timeout_then_success(server: FakeLLMServer) -> None:
    server.queue = [Reply(content="late", delay=1.5), Reply(content="on time")]
    done = client(server, timeout=0.4).complete("m", MESSAGES, None)
    assert done.content == "on time" and done.attempts == 2


def test_timeout_every_time(server: FakeLLMServer) -> None:
    server.queue = [Reply(content="late", delay=1.0)] * 2
    with pytest.raises(LLMError) as err:
        client(server, timeout=0.3, retries=1).complete("m", MESSAGES, None)
    assert err.value.kind == "timeout"


def test_client_errors_are_not_retried(server: FakeLLMServer) -> None:
    server.queue = [Reply(status=401, body={"error": {"message": "bad key"}})]
    with pytest.raises(LLMError) as err:
        client(server).complete("m", MESSAGES, None)
    assert err.value.kind == "client" and len(server.requests) == 1


def test_server_without_structured_output(server: FakeLLMServer) -> None:
    server.reject_response_format = True
    c = client(server)
    done = c.complete("m", MESSAGES, response_format())
    assert not done.structured and done.content == '{"ok": true}'
    c.complete("m", MESSAGES, response_format())
    assert ["response_format" in r for r in server.requests] == [True, False, False]


def test_reasoning_model_parameters_are_adapted(server: FakeLLMServer) -> None:
    server.refuse_params = {"max_tokens", "temperature"}
    c = client(server)
    assert c.complete("m", MESSAGES, None).content == '{"ok": true}'
    last = server.requests[-1]
    assert "max_completion_tokens" in last and "max_tokens" not in last and "temperature" not in last
    c.complete("m", MESSAGES, None)
    assert len(server.requests) == 4  # two refusals once, then every request is accepted first time


def test_connection_refused() -> None:
    with pytest.raises(LLMError) as err:
        ChatClient(config("http://127.0.0.1:9/v1", retries=1)).complete("m", MESSAGES, None)
    assert err.value.kind in ("connection", "timeout")


def test_config_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_LLM_BASE_URL", "http://127.0.0.1:1234/v1")
    monkeypatch.setenv("ERRDEX_LLM_API_KEY", "k")
    monkeypatch.setenv("ERRDEX_LLM_CONCURRENCY", "7")
    cfg = ClientConfig.from_env(timeout=3.0)
    assert (cfg.base_url, cfg.api_key, cfg.concurrency, cfg.timeout) == ("http://127.0.0.1:1234/v1", "k", 7, 3.0)
    monkeypatch.setenv("ERRDEX_LLM_TIMEOUT", "soon")
    with pytest.raises(LLMError, match="ERRDEX_LLM_TIMEOUT"):
        ClientConfig.from_env()
