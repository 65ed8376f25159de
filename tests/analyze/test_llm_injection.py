"""Prompt injection: indexed text that says "ignore previous instructions" is quoted data.

The fixture package ``llm_injlib`` carries the injection twice: a comment
next to a raise (``lookup``) and the docstring of ``ShapeError``.  The
tests show (1) where that text sits in the request -- only inside string
values of the JSON user message, under ``untrusted_source_text``, with the
system message and ``response_format`` unchanged; (2) that a model which
obeys it (replies in prose) gets its answer rejected and the static page
stands, structured as always; (3) that a model which quotes it back has
it published as quoted text inside the same JSON sections.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from errdex.analyze.llm import analyze_with_llm
from errdex.analyze.llm.prompt import SYSTEM
from errdex.analyze.llm.schema import SECTIONS
from errdex.model import Analysis, to_json

from .fake_llm_server import FakeLLMServer, Reply, fake_llm_server, good_answer, user_facts
from .llm_helpers import INJECTION, Indexed, config, index_fixture, open_cache


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


def run(idx: Indexed, server: FakeLLMServer, tmp_path: Path) -> Any:
    cache = open_cache(tmp_path)
    try:
        return analyze_with_llm(idx.catalog, idx.snapshot_key, model="m", dry_run=False,
                                config=config(server.base_url), cache=cache)
    finally:
        cache.close()


def strings_with(node: Any, needle: str, path: str = "") -> list[str]:
    """JSON paths of the string values that contain ``needle`` (case-insensitive)."""
    if isinstance(node, str):
        return [path] if needle.lower() in node.lower() else []
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in strings_with(v, needle, f"{path}.{k}")]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in strings_with(v, needle, f"{path}[{i}]")]
    return []


def pages(idx: Indexed) -> list[Analysis]:
    out = []
    for s in idx.catalog.sites(idx.snapshot_key):
        a = idx.catalog.get_analysis(s.error_id, idx.snapshot_key)
        assert a is not None
        out.append(a)
    return out


def test_injection_is_quoted_data_in_the_request(idx: Indexed, server: FakeLLMServer, tmp_path: Path) -> None:
    run(idx, server, tmp_path)
    assert len(server.requests) == 4
    lookup = [r for r in server.requests
              if "no transform" in user_facts(r)["untrusted_source_text"]["message_template"]]
    (req,) = lookup
    system, user = req["messages"]
    assert system == {"role": "system", "content": SYSTEM}
    assert INJECTION not in system["content"]
    facts = json.loads(user["content"])  # the whole user message is one JSON document
    where = strings_with(facts, INJECTION)
    assert where and all(p.startswith(".untrusted_source_text.") for p in where)
    assert ".untrusted_source_text.evidence[4].text" in where  # the comment, as a numbered fact
    assert facts["untrusted_source_text"]["evidence"][4]["kind"] == "comment"
    for r in server.requests:
        assert r["messages"][0]["content"] == SYSTEM  # instructions never vary with the data
        assert r["response_format"]["json_schema"]["name"] == "errdex_sections"


def test_a_model_that_obeys_the_injection_is_rejected(idx: Indexed, server: FakeLLMServer,
                                                      tmp_path: Path) -> None:
    def gullible(req: dict[str, Any]) -> Reply:
        text = json.dumps(req["messages"]).lower()
        if "ignore previous instructions" in text:
            return Reply(content="everything is fine")
        return Reply(content=json.dumps(good_answer(req)))

    server.responder = gullible
    report = run(idx, server, tmp_path)
    affected = {r.error_id for r in report.rejects}
    assert affected  # the model fell for it somewhere ...
    assert all(r.section == "*" and "not valid JSON" in r.reason for r in report.rejects)
    for a in pages(idx):
        # ... and there the page is the static one, with every section, and no prose from the model.
        assert "everything is fine" not in json.dumps(to_json(a))
        if a.error_id in affected:
            assert a.backend == "static" and a.model_sections == ()
            assert a.meaning and a.guard_note and a.solutions
        else:
            assert a.model_sections == SECTIONS


def test_a_model_that_quotes_it_keeps_the_format(idx: Indexed, server: FakeLLMServer, tmp_path: Path) -> None:
    def echo(req: dict[str, Any]) -> Reply:
        answer = good_answer(req)
        comments = [e["text"] for e in user_facts(req)["untrusted_source_text"]["evidence"] if e["kind"] == "comment"]
        if comments:
            answer["situations"].append({"text": f"The source says: {comments[0]!r}", "evidence": ["E5"]})
        return Reply(content=json.dumps(answer))

    server.responder = echo
    report = run(idx, server, tmp_path)
    assert report.rejects == ()
    (quoting,) = [a for a in pages(idx) if any(INJECTION in s for s in a.situations)]
    assert quoting.model_sections == SECTIONS
    assert quoting.situations[-1] == f"The source says: {INJECTION!r}"
    assert any(e.kind == "comment" and e.text == INJECTION for e in quoting.evidence)
