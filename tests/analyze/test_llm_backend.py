"""``analyze_with_llm`` end to end: an indexed fixture repo, a real local server, the real verifier.

Each scripted misbehaviour of the model must end the same way: what passes
validation and verification is published and marked as the model's; what
does not falls back to the static section, and the run goes on.
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from errdex.analyze.llm import PROMPT_VERSION, LLMReport, analyze_with_llm
from errdex.analyze.llm.cache import AnswerCache
from errdex.analyze.llm.runreport import ProgressStep
from errdex.analyze.llm.schema import SECTIONS
from errdex.model import Analysis

from .fake_llm_server import FakeLLMServer, Reply, default_responder, fake_llm_server, good_answer, user_facts
from .llm_helpers import Indexed, config, index_fixture, open_cache

MODEL = "fake-model"


@pytest.fixture
def idx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Indexed]:
    monkeypatch.setenv("ERRDEX_HOME", str(tmp_path / "home"))
    i = index_fixture(tmp_path)
    yield i
    i.catalog.close()


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with fake_llm_server() as s:
        yield s


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[AnswerCache]:
    c = open_cache(tmp_path)
    yield c
    c.close()


def run(idx: Indexed, server: FakeLLMServer, cache: AnswerCache, *, dry_run: bool = False, **kw: float) -> LLMReport:
    return analyze_with_llm(idx.catalog, idx.snapshot_key, model=MODEL, dry_run=dry_run,
                            config=config(server.base_url, **kw), cache=cache)


def pages(idx: Indexed) -> dict[str, Analysis]:
    out = {}
    for site in idx.catalog.sites(idx.snapshot_key):
        a = idx.catalog.get_analysis(site.error_id, idx.snapshot_key)
        assert a is not None, site
        out[site.template.render()] = a
    return out


def page_for(idx: Indexed, needle: str) -> Analysis:
    (a,) = [a for t, a in pages(idx).items() if needle in t]
    return a


def is_for(request: dict[str, Any], needle: str) -> bool:
    """The request is about the error whose template contains ``needle`` (snippets show neighbours too)."""
    return needle in user_facts(request)["untrusted_source_text"]["message_template"]


def test_good_model_writes_every_section(idx: Indexed, server: FakeLLMServer, cache: AnswerCache) -> None:
    report = run(idx, server, cache)
    assert report.errors == 4 and report.asked == 4 and report.requests == 4 and report.cache_hits == 0
    assert report.rejects == () and report.pages_model == 4
    assert report.sections_model == 4 * len(SECTIONS) and report.sections_static == 0
    assert report.prompt_tokens > 0 and report.completion_tokens > 0
    a = page_for(idx, "cannot reshape")
    assert a.backend == f"openai:{MODEL}" and a.rules_version == PROMPT_VERSION
    assert a.model_sections == SECTIONS
    assert a.date and a.meaning.startswith("It is raised when")
    assert "except injlib.ShapeError as exc" in a.try_sample
    assert a.solutions[0].evidence and a.solutions[0].evidence[0].kind == "guard"
    assert a.related is not None  # Related errors stay the catalog's


def test_schema_violation_twice_falls_back_to_static(idx: Indexed, server: FakeLLMServer,
                                                     cache: AnswerCache) -> None:
    def responder(req: dict[str, Any]) -> Reply:
        if is_for(req, "already registered"):
            answer = good_answer(req)
            del answer["trigger"]
            answer["mood"] = "confident"
            return Reply(content=json.dumps(answer))
        return default_responder(req)

    server.responder = responder
    report = run(idx, server, cache)
    a = page_for(idx, "already registered")
    assert a.backend == "static" and a.model_sections == ()
    (reject,) = report.rejects
    assert reject.section == "*" and "trigger" in reject.reason and "mood" in reject.reason
    retry = [r for r in server.requests if is_for(r, "already registered")]
    assert len(retry) == 2
    assert "Your reply was rejected" in retry[1]["messages"][-1]["content"]
    assert "trigger" in retry[1]["messages"][-1]["content"]
    assert report.pages_model == 3 and report.pages_static == 1
    assert report.requests == 5


def test_schema_violation_once_then_fixed(idx: Indexed, server: FakeLLMServer, cache: AnswerCache) -> None:
    seen: list[int] = []

    def responder(req: dict[str, Any]) -> Reply:
        if is_for(req, "already registered") and not seen:
            seen.append(1)
            return Reply(content='{"meaning": "just a string"}')
        return default_responder(req)

    server.responder = responder
    report = run(idx, server, cache)
    assert report.rejects == () and report.requests == 5
    assert page_for(idx, "already registered").model_sections == SECTIONS


def _hallucinating(fix: bool) -> Any:
    """try_sample uses ``jax.config.jax_eager``; corrected on the second round when ``fix``."""
    def responder(req: dict[str, Any]) -> Reply:
        answer = good_answer(req)
        last = req["messages"][-1]["content"]
        if is_for(req, "cannot reshape") and not (fix and "failed verification" in last):
            answer["try_sample"]["code"] = ("import jax\njax.config.jax_eager = True\n"
                                            "try:\n    pass\nexcept ValueError:\n    pass\n")
        return Reply(content=json.dumps(answer))
    return responder


def test_hallucinated_api_is_sent_back_then_dropped(idx: Indexed, server: FakeLLMServer,
                                                    cache: AnswerCache) -> None:
    server.responder = _hallucinating(fix=False)
    report = run(idx, server, cache)
    a = page_for(idx, "cannot reshape")
    assert "try_sample" not in a.model_sections and "meaning" in a.model_sections
    assert a.backend == f"openai:{MODEL}"
    assert "jax" not in a.try_sample  # the static page: no try sample that only re-raises
    (reject,) = report.rejects
    assert reject.section == "try_sample" and "jax" in reject.reason
    asks = [r for r in server.requests if is_for(r, "cannot reshape")]
    assert len(asks) == 2
    assert "try_sample" in asks[1]["messages"][-1]["content"] and "jax" in asks[1]["messages"][-1]["content"]
    assert any("try_sample" in w for w in a.withheld)


def test_hallucinated_api_corrected_on_second_round(idx: Indexed, server: FakeLLMServer,
                                                    cache: AnswerCache) -> None:
    server.responder = _hallucinating(fix=True)
    report = run(idx, server, cache)
    assert report.rejects == ()
    assert page_for(idx, "cannot reshape").model_sections == SECTIONS


def test_slash_comments_in_samples_are_rejected(idx: Indexed, server: FakeLLMServer, cache: AnswerCache) -> None:
    def responder(req: dict[str, Any]) -> Reply:
        answer = good_answer(req)
        answer["example_fix"]["before"] = "// env: INJLIB_STRICT=2\nx = 1\n"
        answer["validate_sample"]["code"] = "values = [1]\nn = len(values)  // count\n"
        return Reply(content=json.dumps(answer))

    server.responder = responder
    report = run(idx, server, cache)
    for a in pages(idx).values():
        assert "example_fix" not in a.model_sections and "validate_sample" not in a.model_sections
        assert "//" not in a.validate_sample and "// env" not in a.example_fix.before
        assert "meaning" in a.model_sections
    assert {r.section for r in report.rejects} == {"example_fix", "validate_sample"}
    assert any("does not parse" in r.reason for r in report.rejects if r.section == "example_fix")
    assert any("count" in r.reason for r in report.rejects if r.section == "validate_sample")
    assert report.requests == 8  # each error: the answer, and one round for its samples


def test_json_with_slash_comments_is_sent_back(idx: Indexed, server: FakeLLMServer, cache: AnswerCache) -> None:
    def responder(req: dict[str, Any]) -> Reply:
        text = json.dumps(good_answer(req), indent=1)
        if len(req["messages"]) == 2:
            text = text.replace('"strategy"', '// the strategy\n "strategy"', 1)
        return Reply(content=text)

    server.responder = responder
    report = run(idx, server, cache)
    assert report.rejects == () and report.requests == 8
    assert all("not valid JSON" in r["messages"][-1]["content"] for r in server.requests if len(r["messages"]) > 2)


def test_429_then_success(idx: Indexed, server: FakeLLMServer, cache: AnswerCache) -> None:
    server.queue = [Reply(status=429, headers={"retry-after": "0.2"})]
    report = run(idx, server, cache, concurrency=1)
    assert report.requests == 5 and report.rejects == () and report.pages_model == 4
    assert report.retries_waited == pytest.approx(0.2)


def test_timeout_falls_back_to_static_and_the_run_goes_on(idx: Indexed, server: FakeLLMServer,
                                                          cache: AnswerCache) -> None:
    def responder(req: dict[str, Any]) -> Reply:
        if is_for(req, "INJLIB_STRICT"):
            return Reply(content="{}", delay=1.0)
        return default_responder(req)

    server.responder = responder
    report = run(idx, server, cache, timeout=0.3, retries=1)
    a = page_for(idx, "INJLIB_STRICT")
    assert a.backend == "static" and a.model_sections == ()
    (reject,) = report.rejects
    assert reject.section == "*" and "timeout" in reject.reason
    assert report.pages_model == 3
    assert len(cache) == 3  # the failure is not cached: the next run asks again


def test_dry_run_counts_and_sends_nothing(idx: Indexed, server: FakeLLMServer, cache: AnswerCache) -> None:
    report = run(idx, server, cache, dry_run=True)
    assert server.requests == []
    assert report.dry_run and report.requests == 4 and report.asked == 4
    assert report.prompt_tokens > 4 * 200  # the system message alone is ~400 tokens
    assert report.max_completion_tokens == 4 * 2048
    assert all(idx.catalog.get_analysis(s.error_id, idx.snapshot_key) is None
               for s in idx.catalog.sites(idx.snapshot_key))


def test_cache_second_run_and_after_touching_a_file(idx: Indexed, server: FakeLLMServer,
                                                    cache: AnswerCache) -> None:
    run(idx, server, cache)
    assert len(server.requests) == 4
    again = run(idx, server, cache)
    assert again.cache_hits == 4 and again.requests == 0 and len(server.requests) == 4
    assert page_for(idx, "cannot reshape").model_sections == SECTIONS
    dry = run(idx, server, cache, dry_run=True)
    assert dry.requests == 0 and dry.cache_hits == 4
    errors = idx.root / "injlib" / "errors.py"
    errors.write_text(errors.read_text().replace("do not fit the requested shape", "do not fit the shape asked for"))
    idx.reindex()
    third = run(idx, server, cache)
    # Only the error whose facts changed (ShapeError's class docstring) is asked again.
    assert third.cache_hits == 3 and third.asked == 1 and third.requests == 1
    assert is_for(server.requests[-1], "cannot reshape")


def test_concurrency_limit(idx: Indexed, server: FakeLLMServer, cache: AnswerCache) -> None:
    lock = threading.Lock()
    state = {"now": 0, "max": 0}

    def responder(req: dict[str, Any]) -> Reply:
        with lock:
            state["now"] += 1
            state["max"] = max(state["max"], state["now"])
        time.sleep(0.15)
        with lock:
            state["now"] -= 1
        return default_responder(req)

    server.responder = responder
    run(idx, server, cache, concurrency=2)
    assert state["max"] == 2


def test_unknown_snapshot_is_a_clear_error(idx: Indexed, server: FakeLLMServer, cache: AnswerCache) -> None:
    from errdex.analyze.llm import LLMError

    with pytest.raises(LLMError, match="no snapshot 'acme/nope@1'"):
        analyze_with_llm(idx.catalog, "acme/nope@1", model=MODEL, dry_run=False,
                         config=config(server.base_url), cache=cache)


def test_progress_reports_tokens(idx: Indexed, server: FakeLLMServer, cache: AnswerCache) -> None:
    calls: list[tuple[int, int, int, int]] = []
    advanced: list[int] = []

    def progress(step: ProgressStep) -> None:
        calls.append((step.done, step.total, step.tokens, step.cache_hits))
        advanced.append(step + 0)  # it is an int too: the errors just finished

    analyze_with_llm(idx.catalog, idx.snapshot_key, model=MODEL, dry_run=False, config=config(server.base_url),
                     cache=cache, progress=progress)
    assert [c[0] for c in calls] == [1, 2, 3, 4] and all(c[1] == 4 for c in calls)
    assert calls[-1][2] > calls[0][2] > 0 and advanced == [1, 1, 1, 1]
    again = []
    analyze_with_llm(idx.catalog, idx.snapshot_key, model=MODEL, dry_run=False, config=config(server.base_url),
                     cache=cache, progress=lambda s: again.append(s.cache_hits))
    assert again == [1, 2, 3, 4]


def test_hallucinated_jax_api_on_a_jax_shaped_repo(jaxlike_db: Path, tmp_path: Path, server: FakeLLMServer,
                                                   cache: AnswerCache) -> None:
    """The seeds' ``jax.config.jax_eager``: ``jax`` is the indexed library here, ``jax.config`` exists
    and has ``update`` -- but no ``jax_eager``, so the sample goes back and is then dropped."""
    from errdex.catalog import SqliteCatalog

    db = tmp_path / "jaxlike.sqlite"
    shutil.copy(jaxlike_db, db)  # the session's catalog is shared with other tests: write to a copy
    cat = SqliteCatalog(db)
    try:
        snap = cat.snapshots()[0]

        def responder(req: dict[str, Any]) -> Reply:
            answer = good_answer(req)
            answer["validate_sample"]["code"] = "import jax\nif jax.config.jax_eager:\n    jax.config.update('x', 1)\n"
            return Reply(content=json.dumps(answer))

        server.responder = responder
        report = analyze_with_llm(cat, snap.key, model=MODEL, dry_run=False, config=config(server.base_url),
                                  cache=cache)
        assert report.errors > 0 and report.pages_model == report.errors
        assert {r.section for r in report.rejects} == {"validate_sample"}
        assert all("`jax.config` has no attribute `jax_eager`" in r.reason for r in report.rejects)
        for site in cat.sites(snap.key):
            a = cat.get_analysis(site.error_id, snap.key)
            assert a is not None and "jax_eager" not in a.validate_sample
            assert "validate_sample" not in a.model_sections
    finally:
        cat.close()


def test_try_sample_must_catch_this_error(idx: Indexed, server: FakeLLMServer, cache: AnswerCache) -> None:
    def responder(req: dict[str, Any]) -> Reply:
        answer = good_answer(req)
        if is_for(req, "cannot reshape"):
            answer["try_sample"]["code"] = "try:\n    int('x')\nexcept KeyError:\n    pass\n"
        return Reply(content=json.dumps(answer))

    server.responder = responder
    report = run(idx, server, cache)
    (reject,) = report.rejects
    assert reject.section == "try_sample" and "catches KeyError, which does not catch this error" in reject.reason
    assert "ShapeError" in reject.reason and "ValueError" in reject.reason  # the class and its bases
    assert "try_sample" not in page_for(idx, "cannot reshape").model_sections


def test_catchable_names_follow_the_bases() -> None:
    from errdex.analyze.llm.rounds import sample_problem

    catches = frozenset({"LookupError", "Exception", "BaseException"})
    ok = {"code": "try:\n    {}['k']\nexcept (TypeError, LookupError) as e:\n    print(e)\n"}
    assert sample_problem("try_sample", ok, {}, catches) == ""
    bare = {"code": "try:\n    pass\nexcept:\n    pass\n"}
    assert sample_problem("try_sample", bare, {}, catches) == ""
    none = {"code": "print(1)\n"}
    assert "no try / except" in sample_problem("try_sample", none, {}, catches)


def test_a_dead_server_stops_the_run_early(idx: Indexed, cache: AnswerCache) -> None:
    """Nothing listens on the port: after a few failures in a row the rest are not sent, all pages are static."""
    report = analyze_with_llm(idx.catalog, idx.snapshot_key, model=MODEL, dry_run=False,
                              config=config("http://127.0.0.1:9/v1", retries=0, concurrency=1), cache=cache)
    assert report.aborted.startswith("stopped after 3 requests in a row failed")
    # The worker may already have started the fourth when the third failure arrives.
    sent = report.requests
    assert sent in (3, 4) and report.pages_static == 4 and report.pages_model == 0
    assert sum("not sent" in r.reason for r in report.rejects) == 4 - sent
    assert "ABORTED" in str(report)
    assert all(a.backend == "static" for a in pages(idx).values())


def test_a_wrong_model_name_stops_the_run_early(idx: Indexed, server: FakeLLMServer, cache: AnswerCache) -> None:
    server.responder = lambda req: Reply(status=404, body={"error": {"message": f"model {req['model']!r} not found"}})
    report = run(idx, server, cache, concurrency=1)
    assert "not found" in report.aborted and len(server.requests) in (3, 4)


def test_server_without_structured_output(idx: Indexed, server: FakeLLMServer, cache: AnswerCache) -> None:
    """A server that refuses response_format: asked once more without it, then plain JSON all the way."""
    server.reject_response_format = True
    report = run(idx, server, cache, concurrency=1)
    assert report.pages_model == 4 and report.rejects == ()
    assert report.requests == len(server.requests) == 5
    assert ["response_format" in r for r in server.requests] == [True, False, False, False, False]
