"""Presenting a language-model run: the Rich progress bar with tokens used, the summary, the JSON.

``errdex analyze --backend openai`` (the analyze command) uses these, so
that the figures users see and the ``--json`` document have one source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from errdex.model import to_json

if TYPE_CHECKING:
    from errdex.analyze.llm.backend import LLMReport, ProgressStep


@contextmanager
def token_progress(console: Console, label: str) -> Iterator[Callable[[ProgressStep], None]]:
    """A bar of errors done with the tokens used so far; hidden when ``console`` is not a terminal."""
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[tokens]:,} tokens · {task.fields[hits]} cached"), TimeElapsedColumn(),
        console=console, transient=True, disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task(label, total=None, tokens=0, hits=0)

        def update(step: ProgressStep) -> None:
            bar.update(task, completed=step.done, total=step.total, tokens=step.tokens, hits=step.cache_hits)

        yield update


def report_json(report: LLMReport) -> dict[str, Any]:
    """The report as the ``--json`` document (docs/llm.md)."""
    data: dict[str, Any] = to_json(report)
    data["cache_hit_rate"] = round(report.cache_hit_rate, 4)
    return data


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
