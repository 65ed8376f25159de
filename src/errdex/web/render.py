"""HTML rendering: the Jinja environment (autoescape on) and Pygments highlighting.

Everything a template prints is escaped by Jinja unless it is ``Markup``;
the only ``Markup`` made here is Pygments' output, which escapes the code it
highlights itself.  Pygments is told to use CSS classes (the stylesheet is
``static/pygments.css``), never ``style=`` attributes, which the CSP forbids.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Undefined, select_autoescape
from markupsafe import Markup, escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from errdex.documents import repo_url
from errdex.pagenotes import environment_note

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
PYGMENTS_STYLE = "default"


def highlight_snippet(code: str, start: int, hl_first: int, hl_last: int) -> Markup:
    """The snippet with the file's own line numbers and lines hl_first..hl_last marked.

    Pygments' ``hl_lines`` count from the snippet's first line whatever
    ``linenostart`` is, so the file's numbers are converted here.
    """
    if not code.strip():
        return Markup("")
    start = max(1, start)
    rel = [n - start + 1 for n in range(hl_first, hl_last + 1) if n >= start]
    formatter = HtmlFormatter(linenos="inline", linenostart=start, hl_lines=rel, cssclass="snippet", wrapcode=True)
    return Markup(highlight(code.rstrip("\n") + "\n", PythonLexer(), formatter))


@lru_cache(maxsize=4096)
def highlight_code(code: str) -> Markup:
    """A code sample (example fix, patterns) without line numbers."""
    if not code.strip():
        return Markup("")
    return Markup(highlight(code.rstrip("\n") + "\n", PythonLexer(), HtmlFormatter(cssclass="sample", wrapcode=True)))


def prose(text: str | None) -> Markup:
    """Analysis prose: escaped, with `backticked` spans as <code> (the only markup it may carry)."""
    raw = text or ""
    parts = raw.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: show the text as it is
        return escape(raw)
    return Markup("").join(Markup("<code>{}</code>").format(p) if i % 2 else escape(p) for i, p in enumerate(parts))


def pygments_css() -> str:
    return str(HtmlFormatter(style=PYGMENTS_STYLE).get_style_defs([".snippet", ".sample"]))


def short_pin(pin: str | None) -> str:
    """A full sha cut to 10 characters as on the seeds; refs and versions as they are."""
    if pin and len(pin) == 40 and all(c in "0123456789abcdef" for c in pin):
        return pin[:10]
    return pin or "unknown"


def snapshot_pin(key: str | None) -> str:
    """``repo@sha`` → ``repo@shortsha``."""
    if not key or "@" not in key:
        return key or ""
    repo, pin = key.rsplit("@", 1)
    return f"{repo}@{short_pin(pin)}"


def query(base: str, **params: Any) -> str:
    """``base`` with the non-empty ``params`` as a query string (for filter and page links)."""
    clean = {k: v for k, v in params.items() if v not in (None, "") and not (k == "page" and v == 1)}
    return base + ("?" + urlencode(clean) if clean else "")


def safe_url(url: str | None) -> str:
    """``url`` if it is http(s) or a site path, else "" (a ``javascript:`` link from indexed data is dropped)."""
    if not url:
        return ""
    u = url.strip()
    low = u.lower()
    if low.startswith(("https://", "http://")) or (u.startswith("/") and not u.startswith("//")):
        return u
    return ""


def make_env() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(default=True, default_for_string=True),
        # Loud in tests (ERRDEX_STRICT=1), quiet for users (STYLE.md item 5).
        undefined=StrictUndefined if os.environ.get("ERRDEX_STRICT") == "1" else Undefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["code"] = highlight_code
    env.filters["proof_env"] = environment_note
    env.filters["prose"] = prose
    env.filters["short_pin"] = short_pin
    env.filters["safe_url"] = safe_url
    env.filters["snapshot_pin"] = snapshot_pin
    env.filters["repo_url"] = repo_url
    env.globals["query"] = query
    return env
