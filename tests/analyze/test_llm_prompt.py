"""The prompt and the cache key: facts in as data, the key moves exactly when the question does."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.analyze.facts import Facts, gather_facts
from errdex.analyze.llm.cache import AnswerCache, cache_key, default_cache_path
from errdex.analyze.llm.prompt import PROMPT_VERSION, SYSTEM, approx_tokens, build_prompt
from errdex.analyze.llm.report import report_json, summary_lines

from .llm_helpers import Indexed, index_fixture


@pytest.fixture
def idx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Indexed]:
    monkeypatch.setenv("ERRDEX_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("ERRDEX_LLM_CACHE", raising=False)
    i = index_fixture(tmp_path)
    yield i
    i.catalog.close()


def facts_for(idx: Indexed, needle: str) -> Facts:
    (snap,) = [s for s in idx.catalog.snapshots() if s.key == idx.snapshot_key]
    (site,) = [s for s in idx.catalog.sites(idx.snapshot_key) if needle in s.template.render()]
    return gather_facts(idx.catalog, snap, site)


def test_prompt_numbers_the_facts(idx: Indexed) -> None:
    p = build_prompt(facts_for(idx, "cannot reshape"))
    assert p.messages[0]["content"] == SYSTEM
    data = json.loads(p.messages[1]["content"])
    ev = data["untrusted_source_text"]["evidence"]
    assert [e["id"] for e in ev] == [f"E{i}" for i in range(1, len(ev) + 1)] == list(p.evidence)
    kinds = [e["kind"] for e in ev]
    assert kinds[0] == "template" and "guard" in kinds and "test" in kinds and "class-doc" in kinds
    assert data["error"]["public_name"] == "injlib.ShapeError"
    guard = ev[kinds.index("guard")]
    assert guard["code"] == "len(values) != rows * cols" and guard["where"] == "injlib/core.py:29"
    assert p.evidence[guard["id"]].kind == "guard" and p.evidence[guard["id"]].line == 29


def test_cache_key_follows_the_question(idx: Indexed) -> None:
    f = facts_for(idx, "cannot reshape")
    p = build_prompt(f)
    key = cache_key(p.fingerprint, "m", PROMPT_VERSION)
    assert key == cache_key(build_prompt(facts_for(idx, "cannot reshape")).fingerprint, "m", PROMPT_VERSION)
    assert key != cache_key(p.fingerprint, "other-model", PROMPT_VERSION)
    assert key != cache_key(p.fingerprint, "m", PROMPT_VERSION + "x")
    moved = dataclasses.replace(f, site=dataclasses.replace(f.site, snippet=f.site.snippet + "\n# more"))
    assert cache_key(build_prompt(moved).fingerprint, "m", PROMPT_VERSION) != key


def test_long_texts_are_cut(idx: Indexed) -> None:
    f = facts_for(idx, "cannot reshape")
    big = dataclasses.replace(f, docstring="word " * 5000)
    text = build_prompt(big).messages[1]["content"]
    assert "[... cut]" in text and approx_tokens(text) < 5000


def test_cache_round_trip_and_location(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ERRDEX_LLM_CACHE", raising=False)
    assert default_cache_path(tmp_path / "c" / "catalog.sqlite") == tmp_path / "c" / "llm_cache.sqlite"
    monkeypatch.setenv("ERRDEX_LLM_CACHE", str(tmp_path / "elsewhere.sqlite"))
    assert default_cache_path(tmp_path / "catalog.sqlite") == tmp_path / "elsewhere.sqlite"
    c = AnswerCache(tmp_path / "x" / "llm.sqlite")
    assert c.get("k") is None
    c.put("k", model="m", prompt_version="p", error_id="e", answer={"meaning": {"text": "t", "evidence": []}},
          prompt_tokens=3, completion_tokens=4)
    hit = c.get("k")
    assert hit is not None and hit.answer["meaning"]["text"] == "t" and hit.completion_tokens == 4
    assert len(c) == 1
    c.close()
    again = AnswerCache(tmp_path / "x" / "llm.sqlite")  # it persists
    assert again.get("k") is not None
    again.close()


def test_report_json_and_summary(idx: Indexed) -> None:
    from errdex.analyze.llm.rounds import Reject
    from errdex.analyze.llm.runreport import LLMReport

    r = LLMReport(snapshot="a/b@1", model="m", backend="openai:m", prompt_version=PROMPT_VERSION,
                  base_url="http://x/v1", dry_run=False, errors=4, asked=2, cache_hits=2, requests=3,
                  rejects=(Reject("0123456789abcdef", "try_sample", "unknown name"),))
    data = report_json(r)
    assert data["cache_hit_rate"] == 0.5 and data["rejects"][0]["section"] == "try_sample"
    assert json.loads(json.dumps(data)) == data
    text = "\n".join(summary_lines(r))
    assert "cache hits 2 (50%)" in text and "0123456789abcdef try_sample" in text


def test_token_progress_bar_shows_tokens() -> None:
    import io

    from rich.console import Console

    from errdex.analyze.llm.report import token_progress
    from errdex.analyze.llm.runreport import ProgressStep

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120)
    with token_progress(console, "analysing acme/injlib@0.3.1") as update:
        update(ProgressStep(1, 4, 1234, 0))
        update(ProgressStep(4, 4, 5678, 2))
        console.file.flush()
    text = out.getvalue()
    assert "5,678 tokens" in text and "2 cached" in text
