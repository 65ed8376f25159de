"""The shape a model's answer must have: a pydantic model of the page's sections.

Why a schema at all: the answer is published only section by section after
checks, so it has to be data we can take apart, not prose.  The same model
gives the JSON Schema sent as ``response_format`` (structured output, on
servers that honour it) and validates the answer (on every server: one that
ignores ``response_format`` still has to reply with this JSON as plain
content).

Every section cites the facts it rests on by their ids (``E1``, ``E2`` ...,
numbered in the prompt); a citation of a fact that was not given is a
validation error, sent back to the model like any other.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

Strategy = Literal["validation", "type-guard", "configuration", "dependency", "state", "unsupported"]

# The Analysis fields a model may write, in page order.  ``model_sections`` holds these names.
SECTIONS: tuple[str, ...] = (
    "meaning", "solutions", "example_fix", "strategy", "validate_sample", "try_sample",
    "prevention", "trigger", "situations",
)
# The sections that are Python code and must pass the sample verifier.
SAMPLE_SECTIONS: tuple[str, ...] = ("example_fix", "validate_sample", "try_sample")

_MAX_TEXT = 4000
_EVIDENCE_ID = re.compile(r"^E[0-9]{1,3}$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CitedText(_Strict):
    """A claim and the facts it rests on: at least one, or it is not a grounded claim."""

    text: str = Field(min_length=1, max_length=_MAX_TEXT)
    evidence: list[str] = Field(min_length=1, description="ids of the facts (E1, E2, ...) this rests on")


class CodeOut(_Strict):
    code: str = Field(description="Python source, no markdown fences", max_length=_MAX_TEXT)
    evidence: list[str]


class ExampleFixOut(_Strict):
    before: str = Field(description="Python code that raises the error", max_length=_MAX_TEXT)
    after: str = Field(description="the same code, fixed", max_length=_MAX_TEXT)
    evidence: list[str]


class SectionsOut(_Strict):
    """One answer: every section of the page, each with the evidence it uses."""

    meaning: CitedText
    solutions: list[CitedText] = Field(max_length=8)
    example_fix: ExampleFixOut
    strategy: Strategy
    validate_sample: CodeOut
    try_sample: CodeOut
    prevention: list[CitedText] = Field(max_length=8)
    trigger: CitedText
    situations: list[CitedText] = Field(max_length=8)


class AnswerError(ValueError):
    """The content is not JSON, or not JSON of ``SectionsOut``'s shape; the message says where."""


def response_format() -> dict[str, Any]:
    """``response_format`` for chat completions: strict JSON Schema of ``SectionsOut``."""
    return {
        "type": "json_schema",
        "json_schema": {"name": "errdex_sections", "strict": True, "schema": json_schema()},
    }


def json_schema() -> dict[str, Any]:
    schema = SectionsOut.model_json_schema()
    _require_all(schema)
    return schema


# String length limits are checked here, by pydantic, but strict structured output on OpenAI
# refuses them in a schema (only pattern / format are allowed on strings), so they are not sent.
_UNSENT = ("title", "minLength", "maxLength")


def _require_all(node: Any) -> None:
    """Strict structured output wants every property required, and no keyword it refuses."""
    if isinstance(node, dict):
        for key in _UNSENT:
            node.pop(key, None)
        if node.get("type") == "object" and "properties" in node:
            node["required"] = list(node["properties"])
            node["additionalProperties"] = False
        for v in node.values():
            _require_all(v)
    elif isinstance(node, list):
        for v in node:
            _require_all(v)


_FENCE = re.compile(r"^\s*```(?:json)?\s*\n(.*)\n\s*```\s*$", re.DOTALL)


def parse_answer(content: str | None, evidence_ids: Collection[str]) -> SectionsOut:
    """The answer as ``SectionsOut``, or ``AnswerError`` saying what is wrong.

    Plain JSON and JSON in one markdown fence are accepted (servers without
    structured output often fence it); anything else -- prose, JSON with
    ``//`` comments, a missing or extra field, a citation of an unknown
    fact -- is an error whose message is fit to send back to the model.
    """
    if content is None or not content.strip():
        raise AnswerError("the reply was empty; reply with one JSON object")
    text = content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AnswerError(f"the reply is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno});"
                          " reply with one JSON object, no comments, no prose") from exc
    if not isinstance(data, dict):
        raise AnswerError(f"the reply is JSON {type(data).__name__}, expected an object")
    try:
        out = SectionsOut.model_validate(data)
    except ValidationError as exc:
        raise AnswerError("the reply does not fit the schema: " + _describe(exc)) from exc
    unknown = sorted({e for e in _cited(out) if e not in evidence_ids})
    if unknown:
        bad = ", ".join(unknown[:10])
        raise AnswerError(f"the reply cites facts that were not given: {bad} (cite only the ids in `facts.evidence`)")
    return out


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:8]:
        loc = ".".join(str(p) for p in err["loc"]) or "(top level)"
        parts.append(f"{loc}: {err['msg']}")
    more = exc.error_count() - len(parts)
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def _cited(out: SectionsOut) -> list[str]:
    ids = list(out.meaning.evidence) + list(out.example_fix.evidence) + list(out.trigger.evidence)
    ids += out.validate_sample.evidence + out.try_sample.evidence
    for items in (out.solutions, out.prevention, out.situations):
        for item in items:
            ids.extend(item.evidence)
    return ids


def is_evidence_id(value: str) -> bool:
    return bool(_EVIDENCE_ID.match(value))
