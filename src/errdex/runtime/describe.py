"""Turn an exception (or its printed traceback) into errdex's short note."""

from __future__ import annotations

import os
import traceback
from typing import Any

MIN_SCORE = 0.5  # below this the match stage itself says "no confident match"


def describe_exception(exc: BaseException, *, db: str | None = None) -> str | None:
    """The note for ``exc``, or None when errdex knows nothing useful about it."""
    text = "".join(traceback.format_exception(exc))
    return describe_text(text, db=db)


def describe_text(text: str, *, db: str | None = None, top: int = 1) -> str | None:
    """The note for a traceback or message; errors inside errdex become a one-line note."""
    try:
        from errdex.catalog import open_catalog
        from errdex.match import explain
        from errdex.model import to_json

        catalog = open_catalog(db)
        try:
            data: dict[str, Any] = to_json(explain(catalog, text, top=top))
        finally:
            catalog.close()
    except Exception as exc:  # errdex must never mask the user's error
        return f"errdex: could not explain this error ({type(exc).__name__}: {exc})"
    return format_note(data)


def format_note(data: dict[str, Any]) -> str | None:
    """Render the ``explain`` JSON (docs/matching.md) as a few plain lines."""
    matches = [m for m in data.get("matches", []) if float(m.get("score", 0.0)) >= MIN_SCORE]
    if not matches:
        return None
    base = os.environ.get("ERRDEX_URL", "").rstrip("/")
    lines = []
    for m in matches:
        lines.append(f"errdex: {m['exception']}: {m['template']}  (score {float(m['score']):.2f})")
        where = f"{m.get('repo', '')} {m.get('path', '')}:{m.get('line', '')}".strip()
        lines.append(f"  raised at {where}" + (f"  {m['url']}" if m.get("url") else ""))
        page = f"{base}/errors/{m['id']}" if base else f"errdex show {m['id']}"
        lines.append(f"  explained: {page}")
    return "\n".join(lines)
