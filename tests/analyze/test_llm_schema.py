"""The answer's schema: what parses, what is sent back, and the JSON Schema sent as response_format."""

from __future__ import annotations

import json
from typing import Any

import pytest

from errdex.analyze.llm.schema import SECTIONS, AnswerError, json_schema, parse_answer, response_format

IDS = {"E1", "E2", "E3"}


def answer(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "meaning": {"text": "The key is missing.", "evidence": ["E1"]},
        "solutions": [{"text": "Register it first.", "evidence": ["E2"]}],
        "example_fix": {"before": "x = 1\n", "after": "x = 2\n", "evidence": ["E1"]},
        "strategy": "validation",
        "validate_sample": {"code": "x = 1\n", "evidence": []},
        "try_sample": {"code": "try:\n    pass\nexcept KeyError:\n    pass\n", "evidence": ["E3"]},
        "prevention": [{"text": "Check first.", "evidence": ["E1"]}],
        "trigger": {"text": "Looking up an unknown name.", "evidence": ["E2"]},
        "situations": [],
    }
    base.update(changes)
    return base


def test_valid_answer_parses() -> None:
    out = parse_answer(json.dumps(answer()), IDS)
    assert out.meaning.text == "The key is missing."
    assert out.strategy == "validation"


def test_fenced_json_is_accepted() -> None:
    text = "```json\n" + json.dumps(answer()) + "\n```"
    assert parse_answer(text, IDS).trigger.evidence == ["E2"]


@pytest.mark.parametrize(
    ("content", "says"),
    [
        pytest.param("Sure! Here is the page.", "not valid JSON", id="prose"),
        pytest.param('{"meaning": // the meaning\n {"text": "x", "evidence": []}}', "not valid JSON",
                     id="slash-comments"),
        pytest.param("", "empty", id="empty"),
        pytest.param("[1, 2]", "expected an object", id="array"),
        pytest.param(json.dumps({k: v for k, v in answer().items() if k != "trigger"}), "trigger", id="missing"),
        pytest.param(json.dumps(answer(extra="x")), "extra", id="extra-field"),
        pytest.param(json.dumps(answer(strategy="magic")), "strategy", id="bad-strategy"),
        pytest.param(json.dumps(answer(meaning={"text": "x", "evidence": ["E9"]})), "E9", id="unknown-evidence"),
        pytest.param(json.dumps(answer(meaning={"text": "", "evidence": ["E1"]})), "meaning.text", id="empty-text"),
        pytest.param(json.dumps(answer(trigger={"text": "x", "evidence": []})), "trigger.evidence",
                     id="uncited-claim"),
    ],
)
def test_bad_answers_say_what_is_wrong(content: str, says: str) -> None:
    with pytest.raises(AnswerError) as err:
        parse_answer(content, IDS)
    assert says in str(err.value)


def test_schema_is_strict_and_complete() -> None:
    schema = json_schema()
    assert set(schema["properties"]) == set(SECTIONS)
    assert schema["required"] == list(schema["properties"])
    assert schema["additionalProperties"] is False

    def objects(node: Any) -> list[dict[str, Any]]:
        found = []
        if isinstance(node, dict):
            if node.get("type") == "object":
                found.append(node)
            for v in node.values():
                found.extend(objects(v))
        elif isinstance(node, list):
            for v in node:
                found.extend(objects(v))
        return found

    for obj in objects(schema):
        assert obj["additionalProperties"] is False
        assert set(obj["required"]) == set(obj["properties"])
    assert "minLength" not in json.dumps(schema) and "maxLength" not in json.dumps(schema)
    assert "minItems" in json.dumps(schema)  # array limits are allowed in strict schemas
    rf = response_format()
    assert rf["type"] == "json_schema" and rf["json_schema"]["strict"] is True
