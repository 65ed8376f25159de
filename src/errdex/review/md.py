"""Markdown building blocks that keep indexed text inert.

Templates, paths and qualnames come from the indexed (untrusted) code.  In
Markdown they are only ever put inside code spans, which every renderer
(Python-Markdown for MkDocs, MyST for Sphinx, GitHub) prints literally —
HTML tags, links and emphasis included.  ``code`` picks a backtick fence
longer than any run inside the text, and newlines become spaces because a
code span cannot hold a blank line.
"""

from __future__ import annotations

import re

_TICKS = re.compile(r"`+")


def code(text: str) -> str:
    """``text`` as one inline code span, whatever it contains."""
    flat = re.sub(r"\s*\n\s*", " ", text)
    if not flat:
        return "` `"
    longest = max((len(m) for m in _TICKS.findall(flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") or (flat[0] == " " and flat[-1] == " ") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|~-])")


def text(value: str) -> str:
    """Plain words on one line with every Markdown and HTML special character made literal.

    ``<``, ``>`` and ``&`` become entities (Python-Markdown, which MkDocs
    uses, does not honour a backslash before ``<`` and would pass a tag
    through); the other punctuation that Markdown reads gets a backslash.
    """
    flat = re.sub(r"\s+", " ", value).strip()
    flat = flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _SPECIAL.sub(r"\\\1", flat)


def prose(value: str) -> str:
    """Analysis prose: literal text, with its `backticked` spans kept as code (as on the web page)."""
    parts = value.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: all of it is text
        return text(value)
    return "".join((code(p) if p else "") if i % 2 else _spaced(p) for i, p in enumerate(parts))


def _spaced(value: str) -> str:
    """``text`` keeping one space where the words met a code span ("Calling `f` raises", not "Calling`f`raises")."""
    if not value.strip():
        return " " if value else ""
    return (" " if value[0].isspace() else "") + text(value) + (" " if value[-1].isspace() else "")


def fence(body: str, lang: str = "") -> str:
    """A fenced code block holding ``body`` as it is (the fence outgrows any backtick run inside)."""
    longest = max((len(m) for m in _TICKS.findall(body)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{lang}\n{body.rstrip()}\n{ticks}"


def link(label: str, url: str) -> str:
    """A link whose URL is http(s) or a relative path, else just the label; the label is escaped."""
    if not url or not (url.startswith(("https://", "http://")) or re.fullmatch(r"[A-Za-z0-9_./#-]+", url)):
        return label
    return f"[{label}](<{url.replace('>', '%3E').replace('<', '%3C').replace(' ', '%20')}>)"
