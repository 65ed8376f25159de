"""Where a page's source snippet starts: at a statement, never inside a docstring or a bracket.

The stored snippet is a fixed window of lines around the raise (``extract/source.py``);
cutting it there can start the page inside a docstring, which breaks the highlighting
of every line after it.  ``snippet_window`` moves the start down to a statement at
the outermost indentation seen, or up to the ``def`` (and its decorators) that holds
the raise when that is in the window.  Used by the web page and ``errdex show``.
"""

from __future__ import annotations

import re

from errdex.model import ErrorSite


def snippet_window(site: ErrorSite) -> tuple[str, int]:
    """``window_of`` for a stored site: (text, number of its first line)."""
    return window_of(site.snippet, site.snippet_start or site.line, site.line, site.qualname)


def window_of(snippet: str, start: int, line: int, qualname: str = "") -> tuple[str, int]:
    """The snippet from the ``def`` holding the raise (decorators included) when it is in the window,
    else from the first statement at the outermost indentation; never inside a string or a bracket."""
    lines = snippet.splitlines()
    rel = line - start
    if not lines or not 0 <= rel < len(lines):
        return snippet, start
    in_code = _code_lines(lines, rel)
    indent = [len(ln) - len(ln.lstrip()) for ln in lines]
    name = qualname.split(".<locals>.")[-1].rsplit(".", 1)[-1]
    first = None
    if name:
        pat = re.compile(rf"(?:async\s+)?def\s+{re.escape(name)}\b")
        for i in range(rel, -1, -1):
            if in_code[i] and pat.match(lines[i].lstrip()) and indent[i] < indent[rel]:
                first = i
                break
    if first is None:
        cands = [i for i in range(rel + 1) if in_code[i] and lines[i].strip()
                 and not lines[i].lstrip().startswith((")", "]", "}", "#", "else", "elif", "except", "finally"))]
        if not cands:
            return snippet, start
        base = min(indent[i] for i in cands)
        first = next(i for i in cands if indent[i] == base)
    while first > 0 and in_code[first - 1] and lines[first - 1].lstrip().startswith("@"):
        first -= 1
    return "\n".join(lines[first:]), start + first


def _code_lines(lines: list[str], rel: int) -> list[bool]:
    """Per line: whether it begins as code (not inside a string or an open bracket).  The window may
    start inside a docstring, so the scan tries each opening state and keeps the one under which the
    raise line is code."""
    for state in (None, '"""', "'''"):
        out = _scan(lines, state)
        if out[rel]:
            return out
    return [True] * len(lines)


def _scan(lines: list[str], quote: str | None) -> list[bool]:
    out: list[bool] = []
    depth = 0
    for ln in lines:
        out.append(quote is None and depth == 0)
        i = 0
        while i < len(ln):
            if quote is not None:
                if ln.startswith(quote, i):
                    quote = None
                    i += 3
                    continue
                i += 1
                continue
            ch = ln[i]
            if ch == "#":
                break
            if ln.startswith('"""', i) or ln.startswith("'''", i):
                quote = ln[i:i + 3]
                i += 3
                continue
            if ch in "\"'":
                j = ln.find(ch, i + 1)
                i = len(ln) if j < 0 else j + 1
                continue
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth = max(0, depth - 1)
            i += 1
    return out
