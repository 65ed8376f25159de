"""Presenting a language-model run: the Rich progress bar with tokens used, the summary, the JSON.

``errdex analyze --backend openai`` (the analyze command) uses these, so
that the figures users see and the ``--json`` document have one source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from errdex.analyze.llm.runreport import LLMReport, ProgressStep, summary_lines
from errdex.model import to_json

__all__ = ["report_json", "summary_lines", "token_progress"]


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
