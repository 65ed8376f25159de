"""The conversation about one error: ask, send a bad answer back once, verify samples, send back once.

This is where "cannot lie" is enforced, per error:

1. The answer must parse and fit ``SectionsOut`` (citing only given facts);
   otherwise it goes back once with the validation error, and a second bad
   answer rejects the whole page (the static page stands).
2. Every code sample goes through the sample verifier (``analyze.verify``):
   it parses, and every name exists in the library, the builtins or the
   standard library.  The failing samples go back once, together, with the
   verifier's findings; a sample that fails again is dropped in favour of
   the static section.

The outcome lists, per section, what the model wrote and was kept; the
caller merges that over the static Analysis.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from errdex.analyze.facts import Facts
from errdex.analyze.llm.client import ChatClient, LLMError
from errdex.analyze.llm.prompt import Prompt, fix_answer_messages, fix_samples_messages
from errdex.analyze.llm.schema import (
    SAMPLE_SECTIONS,
    SECTIONS,
    AnswerError,
    SectionsOut,
    parse_answer,
    response_format,
)
from errdex.analyze.verify import check_sample


@dataclass(frozen=True, slots=True)
class Reject:
    """A section (or ``*``: the whole answer) the model wrote that was not published, and why."""

    error_id: str
    section: str
    reason: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the model contributed for one error."""

    error_id: str
    sections: dict[str, Any] = field(default_factory=dict)  # section -> SectionsOut field as JSON
    rejects: tuple[Reject, ...] = ()
    requests: int = 0  # HTTP requests, retries included
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    answered: bool = False  # a valid answer arrived (worth caching)
    failure: str = ""  # LLMError.kind when the request itself failed ("connection", "client", ...)


def sample_code(section: str, value: Mapping[str, Any]) -> list[str]:
    """The code strings of a sample section (example_fix has two)."""
    if section == "example_fix":
        return [str(value.get("before", "")), str(value.get("after", ""))]
    return [str(value.get("code", ""))]


def catchable(facts: Facts) -> frozenset[str]:
    """Class names an ``except`` may use for this error: the class itself, its bases, ``Exception``.

    ``Exception`` always catches a library's error (its bases are often not
    resolvable: a class from another package, a factory function); only the
    builtins outside it (``SystemExit``, ``KeyboardInterrupt``) need their own.
    """
    names = {facts.exception.name, *(b.rsplit(".", 1)[-1] for b in facts.exception.bases), "BaseException"}
    outside_exception = False
    for n in list(names):
        cls = getattr(builtins, n, None)
        if isinstance(cls, type) and issubclass(cls, BaseException):
            names.update(c.__name__ for c in cls.__mro__ if c is not object)
            if n == facts.exception.name and not issubclass(cls, Exception):
                outside_exception = True
    if not outside_exception:
        names.add("Exception")
    return frozenset(names)


def sample_problem(section: str, value: Mapping[str, Any], symbols: Mapping[str, tuple[str, ...]],
                   catches: frozenset[str] = frozenset()) -> str:
    """"" when the sample may be published, else the verifier's findings in one line.

    ``catches``: the try / except sample must catch one of these class names
    (the raised class or a base), so that it catches this error.
    """
    codes = sample_code(section, value)
    if not any(c.strip() for c in codes):
        return "the sample is empty"
    found: list[str] = []
    for label, code in zip(("before", "after") if section == "example_fix" else ("code",), codes, strict=True):
        for p in check_sample(code, symbols):
            found.append(f"{label} line {p.line}: {p.message}")
    if not found and section == "try_sample":
        caught = _caught(codes[0])
        if caught is None:
            found.append("code: it has no try / except statement")
        elif catches and not caught & catches:
            found.append(f"code: it catches {', '.join(sorted(caught)) or 'nothing named'}, which does not catch "
                         f"this error (raised: {', '.join(sorted(catches))})")
    return "; ".join(found[:6])


def _caught(code: str) -> set[str] | None:
    """The class names the sample's ``except`` clauses name (last dotted part); None without a try."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    handlers = [h for n in ast.walk(tree) if isinstance(n, ast.Try | ast.TryStar) for h in n.handlers]
    if not handlers:
        return None
    names: set[str] = set()
    for h in handlers:
        types = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type] if h.type is not None else []
        for t in types:
            if isinstance(t, ast.Name):
                names.add(t.id)
            elif isinstance(t, ast.Attribute):
                names.add(t.attr)
        if h.type is None:
            names.add("BaseException")  # a bare except
    return names


class Conversation:
    """One error's requests; run in a worker thread (the client is thread-safe)."""

    def __init__(self, client: ChatClient, model: str, symbols: Mapping[str, tuple[str, ...]]) -> None:
        self.client = client
        self.model = model
        self.symbols = symbols

    def run(self, error_id: str, prompt: Prompt, catches: frozenset[str] = frozenset()) -> Outcome:
        self._requests = self._ptok = self._ctok = 0
        self._truncated = False
        self._catches = catches
        rejects: list[Reject] = []
        try:
            content = self._ask(prompt.messages)
            try:
                answer = parse_answer(content, prompt.evidence)
            except AnswerError as first_error:
                first = str(first_error)
                if self._truncated:
                    first += " (the reply was cut off at the token limit: keep every text short)"
                content = self._ask(fix_answer_messages(prompt, content, first))
                try:
                    answer = parse_answer(content, prompt.evidence)
                except AnswerError as second:
                    rejects.append(Reject(error_id, "*", f"invalid answer twice: {first}; then: {second}"))
                    return self._outcome(error_id, {}, rejects, answered=False)
            sections = _sections(answer)
            failures = {s: why for s in SAMPLE_SECTIONS if (why := sample_problem(s, sections[s], self.symbols, catches))}
            if failures:
                self._retry_samples(error_id, prompt, content, sections, failures, rejects)
        except LLMError as exc:
            rejects.append(Reject(error_id, "*", f"request failed ({exc.kind}): {exc}"))
            return dataclasses.replace(self._outcome(error_id, {}, rejects, answered=False), failure=exc.kind)
        sections = {k: v for k, v in sections.items() if not _empty(v)}
        return self._outcome(error_id, sections, rejects, answered=True)

    def _retry_samples(self, error_id: str, prompt: Prompt, content: str, sections: dict[str, Any],
                       failures: dict[str, str], rejects: list[Reject]) -> None:
        """One more request for the failing samples; what still fails is dropped (static wins)."""
        second: dict[str, Any] | None = None
        try:
            again = self._ask(fix_samples_messages(prompt, content, failures))
            second = _sections(parse_answer(again, prompt.evidence))
        # A failed correction request costs only the samples: the prose that passed stays.
        except (AnswerError, LLMError) as exc:
            for s, why in failures.items():
                rejects.append(Reject(error_id, s, f"{why}; the corrected answer was invalid: {exc}"))
                del sections[s]
            return
        for s, why in failures.items():
            fixed = second[s]
            still = sample_problem(s, fixed, self.symbols, self._catches)
            if still:
                rejects.append(Reject(error_id, s, f"{why}; after correction: {still}"))
                del sections[s]
            else:
                sections[s] = fixed

    def _ask(self, messages: Any) -> str:
        try:
            done = self.client.complete(self.model, messages, response_format())
        except LLMError as exc:
            self._requests += exc.attempts
            raise
        self._truncated = done.truncated
        self._requests += done.attempts
        self._ptok += done.prompt_tokens
        self._ctok += done.completion_tokens
        return done.content

    def _outcome(self, error_id: str, sections: dict[str, Any], rejects: list[Reject], *,
                 answered: bool) -> Outcome:
        return Outcome(error_id=error_id, sections=sections, rejects=tuple(rejects), requests=self._requests,
                       prompt_tokens=self._ptok, completion_tokens=self._ctok, answered=answered)


def _sections(answer: SectionsOut) -> dict[str, Any]:
    data = answer.model_dump(mode="json")
    return {s: data[s] for s in SECTIONS}


def _empty(value: Any) -> bool:
    if isinstance(value, list):
        return not value
    if isinstance(value, dict) and "text" in value:
        return not str(value["text"]).strip()
    return False
