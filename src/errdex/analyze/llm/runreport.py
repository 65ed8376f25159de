"""What a language-model run reports: ``ProgressStep`` per error, ``LLMReport`` at the end, its summary.

Plain data and text, apart from the backend that fills it and from ``report``'s
Rich presentation, so that neither of those two has to import the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from errdex.analyze.llm.rounds import Reject


class ProgressStep(int):
    """What ``progress`` is called with after each error: an int, the errors just finished (1).

    Being an int, it suits a plain ``bar.advance(task, step)``; it also carries
    the run's totals so far for a bar that shows tokens (``report.token_progress``).
    """

    done: int
    total: int
    tokens: int
    cache_hits: int

    def __new__(cls, done: int, total: int, tokens: int, cache_hits: int) -> ProgressStep:
        step = super().__new__(cls, 1)
        step.done, step.total, step.tokens, step.cache_hits = done, total, tokens, cache_hits
        return step


@dataclass(frozen=True, slots=True)
class LLMReport:
    """What a run did (or, with ``dry_run``, would do).  Its JSON is documented in docs/llm.md."""

    snapshot: str
    model: str
    backend: str  # Analysis.backend of the model-written pages: "openai:<model>"
    prompt_version: str
    base_url: str
    dry_run: bool
    errors: int  # errors in the snapshot
    asked: int = 0  # errors sent to the model (cache misses)
    cache_hits: int = 0
    requests: int = 0  # HTTP requests sent, retries and correction rounds included (dry run: would send)
    prompt_tokens: int = 0  # as the server counted them (dry run: estimated, ~4 characters a token)
    completion_tokens: int = 0
    max_completion_tokens: int = 0  # dry run: the ceiling max_tokens puts on the answers
    pages_model: int = 0  # stored pages with at least one model-written section
    pages_static: int = 0  # stored pages that are wholly static
    sections_model: int = 0  # sections published from the model
    sections_static: int = 0  # sections that fell back to the static page
    rejects: tuple[Reject, ...] = ()
    failed: tuple[Reject, ...] = ()  # errors that got no page at all (facts or static analysis failed)
    cache_path: str = ""
    retries_waited: float = 0.0  # seconds slept in backoff
    aborted: str = ""  # why the run stopped sending (a dead server, a bad key), or ""

    @property
    def cache_hit_rate(self) -> float:
        return self.cache_hits / self.errors if self.errors else 0.0

    def __str__(self) -> str:
        return "\n".join(summary_lines(self))


def summary_lines(report: LLMReport) -> list[str]:
    r = report
    if r.dry_run:
        lines = [
            f"dry run: {r.snapshot} with {r.model} at {r.base_url} (prompt {r.prompt_version})",
            f"would send {r.requests} requests ({r.cache_hits} of {r.errors} errors answered from the cache)",
            f"prompt tokens ~{r.prompt_tokens:,} (estimated, ~4 characters a token);"
            f" answers at most {r.max_completion_tokens:,} tokens",
        ]
    else:
        lines = [
            f"{r.snapshot}: {r.errors} errors with {r.model} (prompt {r.prompt_version})",
            f"requests {r.requests} for {r.asked} errors; cache hits {r.cache_hits}"
            f" ({r.cache_hit_rate:.0%}); tokens {r.prompt_tokens:,} in, {r.completion_tokens:,} out",
            f"pages: {r.pages_model} model-written, {r.pages_static} static;"
            f" sections: {r.sections_model} from the model, {r.sections_static} static",
        ]
        if r.rejects:
            lines.append(f"rejected {len(r.rejects)} (section or whole answer); first ones:")
            lines.extend(f"  {x.error_id} {x.section}: {x.reason[:160]}" for x in r.rejects[:5])
    if r.aborted:
        lines.append(f"ABORTED: {r.aborted[:400]}")
    if r.failed:
        lines.append(f"{len(r.failed)} errors could not be analysed:")
        lines.extend(f"  {x.error_id}: {x.reason[:160]}" for x in r.failed[:5])
    return lines
