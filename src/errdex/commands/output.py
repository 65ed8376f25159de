"""What every command prints the same way: its errors, its JSON, its Rich console, and the
catalog it could not open.

Rich and the catalog are imported inside the functions: ``--json`` in a pipe renders
nothing, and a command that fails on its arguments opens nothing.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from errdex.catalog.base import Catalog


def error(message: str) -> None:
    """One line on stderr, prefixed so that it stands out from the command's own output."""
    sys.stderr.write(f"errdex: {message}\n")


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def stdout() -> Console:
    from rich.console import Console

    # Piped output (tests, `| less`) gets a fixed width instead of 80 columns.
    return Console() if sys.stdout.isatty() else Console(width=120, no_color=True)


def open_or_report(db: str | None) -> Catalog | None:
    """The catalog, or None after saying why it cannot be opened (the caller exits 1)."""
    from errdex.catalog import CatalogError, open_catalog

    try:
        return open_catalog(db)
    except CatalogError as exc:
        error(str(exc))
        return None


def with_outcome_progress[T](description: str, total: int, quiet: bool,
                          run: Callable[[Callable[[Any], None] | None], T]) -> T:
    """Run ``run(progress)`` under a Rich bar counting proven outcomes (``prove``, ``prove --search``);
    ``run(None)`` when quiet (JSON) or stderr is no terminal."""
    if quiet or not sys.stderr.isatty():
        return run(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[detail]}"), TimeElapsedColumn(), console=Console(stderr=True)) as bar:
        task = bar.add_task(description, total=total, detail="")
        count = {"proven": 0}

        def progress(o: Any) -> None:
            count["proven"] += o.proven is not None
            bar.update(task, advance=1, detail=f"{count['proven']} proven")

        return run(progress)
