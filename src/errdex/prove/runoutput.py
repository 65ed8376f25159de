"""What a run left behind, read: the excerpt of a traceback a proof keeps, whether the watched site raised
(the worker's raises file), the last line of an output, a file that may be missing. Shared by the engine and the
search (its own module, so the search need not import the engine for them)."""

from __future__ import annotations

import json
from pathlib import Path

from errdex.prove.samples import _tail  # the output tail, one definition for proofs and samples


def excerpt(text: str, exception: str) -> str:
    """The traceback's last frames and the exception line with the start of its message (a long
    message, as jax's with a jaxpr, would push the exception line out of a plain tail)."""
    lines = [ln for ln in text.rstrip().splitlines() if ln.strip()]
    short = exception.rsplit(".", 1)[-1]
    at = [i for i, ln in enumerate(lines) if exception and (ln.startswith((exception + ":", short + ":"))
                                                            or ln in (exception, short))]
    if not at:
        return _tail(text)
    i = at[-1]
    return "\n".join(lines[max(0, i - 3):i + 3])


def site_raised(records: str, path: str, line: int, end_line: int, kind: str = "raised") -> bool:
    """Whether a raises file (``worker_script``: one ``[file, line, class, kind]`` per line) has an
    origin of ``kind`` in the site's span of ``path`` (package-relative): ``raised`` anywhere in the run,
    ``under`` the exception that ended it (raised while handling this one)."""
    for ln in records.splitlines():
        try:
            file, at, _, k = json.loads(ln)
        except (ValueError, TypeError):
            continue
        if k == kind and isinstance(file, str) and isinstance(at, int) \
                and file.replace("\\", "/").endswith("/" + path) and line <= at <= max(line, end_line):
            return True
    return False


def last_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip() and not ln.startswith(" ")]
    return lines[-1] if lines else ""


def read_output(p: Path) -> str:
    return p.read_text(encoding="utf-8", errors="replace") if p.is_file() else ""
