"""Source text helpers: expression source, snippets and comments, done cheaply.

``ast.get_source_segment`` re-splits the whole file on every call; a raise
site needs a handful of segments, so the file's lines are split once here and
columns (UTF-8 byte offsets in the AST) are mapped on the needed lines only.

Everything a site keeps from the text is bounded: a snippet line longer than
``LINE_CHARS`` is cut to a window around the statement, with ``CUT`` where
text was removed, and so is each comment.  Without that, 20,000 raises on
one line would each carry the whole line: memory and catalog size grow with
the square of the line's length.
"""

from __future__ import annotations

import ast
import bisect
import io
import itertools
import re
import tokenize
from dataclasses import dataclass, field
from typing import Any

SNIPPET_BEFORE = 15
SNIPPET_AFTER = 20
LINE_CHARS = 240  # characters a snippet line or a comment keeps; a longer one is cut to a window
CUT = "…"  # marks where a cut line lost text (at either end)
COMMENTS_ABOVE = 6


def window(text: str, lo: int = 0, hi: int | None = None, width: int = LINE_CHARS) -> str:
    """``text`` when it is at most ``width`` characters; else a ``width``-character window that
    covers ``text[lo:hi]`` as far as it fits (centred on it), ``CUT`` marking each cut end."""
    n = len(text)
    if n <= width:
        return text
    hi = n if hi is None else min(max(hi, lo), n)
    lo = min(max(lo, 0), n)
    start = lo if hi - lo >= width else max(0, lo - (width - (hi - lo)) // 2)
    start = min(start, n - width)
    stop = start + width
    return (CUT if start > 0 else "") + text[start:stop] + (CUT if stop < n else "")


@dataclass(slots=True)
class SourceText:
    """One file's text, split into lines on first use."""

    text: str
    _lines: list[str] | None = field(default=None, repr=False)
    _scan: str | None = field(default=None, repr=False)
    _offsets: list[int] | None = field(default=None, repr=False)
    _encoded: tuple[int, bytes] | None = field(default=None, repr=False)  # the last non-ASCII line, as UTF-8
    memo: dict[Any, Any] = field(default_factory=dict, repr=False)  # per-file renders (guards.build)
    _col: tuple[int, int, int] = (0, 0, 0)  # (line, byte column, str index) of the furthest char_col answer
    _cols: dict[int, int] = field(default_factory=dict, repr=False)  # that line's answers: byte column -> index

    @property
    def scan_text(self) -> str:
        """The text with every line end as ``\n``: what line numbers and offsets refer to."""
        if self._scan is None:
            t = self.text
            self._scan = t if "\r" not in t else t.replace("\r\n", "\n").replace("\r", "\n")
        return self._scan

    @property
    def lines(self) -> list[str]:
        # Only \n, \r\n and \r end a line for the parser; str.splitlines would also
        # split on form feeds and other separators and shift every line number after them.
        if self._lines is None:
            self._lines = self.scan_text.split("\n")
        return self._lines

    @property
    def offsets(self) -> list[int]:
        """Offset of each line's start in ``scan_text`` (one C-level pass)."""
        if self._offsets is None:
            self._offsets = [0, *itertools.accumulate(map((1).__add__, map(len, self.lines)))]
        return self._offsets

    def word_lines(self, words: tuple[str, ...]) -> list[int]:
        """Sorted numbers of the lines where any of ``words`` occurs (``str.find`` hops, no regex).

        A plain substring test (``raised`` in a comment counts) only ever makes
        the walker look at a function it could have skipped, never the reverse.
        """
        text = self.scan_text
        offs = self.offsets
        found: set[int] = set()
        for w in words:
            i = text.find(w)
            while i != -1:
                line = bisect.bisect_right(offs, i)
                found.add(line)
                i = text.find(w, offs[line] if line < len(offs) else len(text))  # next line
        return sorted(found)

    def mentions(self, words: tuple[str, ...], first: int, last: int) -> bool:
        """Whether any of ``words`` occurs in lines ``first``..``last``: bounded ``find`` calls."""
        offs = self._offsets or self.offsets
        start = offs[max(first - 1, 0)]
        end = offs[min(last, len(offs) - 1)]
        text = self._scan or self.scan_text
        return any(text.find(w, start, end) != -1 for w in words)

    def search(self, pattern: re.Pattern[str], first: int, last: int) -> bool:
        """Whether ``pattern`` matches somewhere in lines ``first``..``last`` (a bounded search)."""
        offs = self._offsets or self.offsets
        start = offs[max(first - 1, 0)]
        end = offs[min(last, len(offs) - 1)]
        return pattern.search(self._scan or self.scan_text, start, end) is not None

    def segment(self, node: ast.AST) -> str:
        """The source of ``node`` as written, or its unparsed form when positions are missing."""
        lineno: int | None = getattr(node, "lineno", None)
        end: int | None = getattr(node, "end_lineno", None)
        col: int | None = getattr(node, "col_offset", None)
        end_col: int | None = getattr(node, "end_col_offset", None)
        lines = self._lines or self.lines
        if lineno is None or end is None or col is None or end_col is None or end > len(lines):
            return ast.unparse(node)
        if lineno == end:
            line = lines[lineno - 1]
            if line.isascii():  # columns are UTF-8 byte offsets: equal to str indexes only for ASCII
                return line[col:end_col]
            return self._utf8(lineno)[col:end_col].decode("utf-8", "replace")
        first = self._utf8(lineno)[col:].decode("utf-8", "replace")
        last = self._utf8(end)[:end_col].decode("utf-8", "replace")
        return "\n".join([first, *lines[lineno : end - 1], last])

    def _utf8(self, lineno: int) -> bytes:
        """Line ``lineno`` encoded, kept for the next call: the sites of one long line ask for it
        again and again, and encoding it each time is quadratic."""
        held = self._encoded
        if held is None or held[0] != lineno:
            held = self._encoded = (lineno, self.lines[lineno - 1].encode("utf-8"))
        return held[1]

    def char_col(self, lineno: int, col: int) -> int:
        """The ``str`` index of AST column ``col`` (UTF-8 bytes) on line ``lineno``."""
        line = self.lines[lineno - 1]
        if line.isascii():
            return col
        # Sites come in column order: count on from the last answer on this line, so that many
        # sites on one long line cost one pass over it, not one each.
        last_line, last_col, last_index = self._col
        if last_line != lineno:
            self._cols.clear()
            last_col, last_index = 0, 0
        elif col in self._cols:
            return self._cols[col]
        elif col < last_col:
            last_col, last_index = 0, 0
        index = last_index + len(self._utf8(lineno)[last_col:col].decode("utf-8", "replace"))
        self._cols[col] = index
        if col >= self._col[1] or last_line != lineno:
            self._col = (lineno, col, index)
        return index

    def snippet(self, line: int, end_line: int, col: int = 0, end_col: int | None = None) -> tuple[str, int]:
        """About 15 lines before to 20 after the statement, and the first line's number.

        A line longer than ``LINE_CHARS`` is cut (``window``); the statement's
        own first and last lines keep the window around the statement (``col``
        and ``end_col`` are AST columns), so each of many raises on one line
        shows itself.
        """
        lines = self.lines
        start = max(1, line - SNIPPET_BEFORE)
        stop = min(len(lines), end_line + SNIPPET_AFTER)
        part = lines[start - 1 : stop]
        if not part or max(map(len, part)) <= LINE_CHARS:  # no line to cut: the lines as they are
            return "\n".join(part), start
        out: list[str] = []
        for n in range(start, stop + 1):
            text = lines[n - 1]
            if len(text) > LINE_CHARS:
                lo = self.char_col(n, col) if n == line else 0
                hi = self.char_col(n, end_col) if n == end_line and end_col is not None else None
                text = window(text, lo, hi)
            out.append(text)
        return "\n".join(out), start

    def comments(self, line: int, end_line: int, col: int = 0) -> tuple[str, ...]:
        """Comment lines just above the statement and comments inside it.

        The block of full-line comments directly above (up to 6 lines) is a
        cheap line scan; comments inside the statement's own lines come from
        ``tokenize`` on those lines only, so a ``#`` inside a string is not one.
        """
        lines = self.lines
        above: list[str] = []
        i = line - 2
        while i >= 0 and len(above) < COMMENTS_ABOVE:
            stripped = lines[i][: 4 * LINE_CHARS].lstrip()  # bounded: a long line is not copied per site
            if not stripped.startswith("#"):
                break
            above.append(window(stripped[: 4 * LINE_CHARS].lstrip("#").strip()))
            i -= 1
        above.reverse()
        inside: list[str] = []
        chunk = lines[line - 1 : end_line]
        if sum(map(len, chunk)) > 4 * LINE_CHARS:
            # A long line: only the statement and what follows it closely (``raise X  # why``).
            chunk = [window(s, self.char_col(line, col) if k == 0 else 0, None, 4 * LINE_CHARS)
                     .removeprefix(CUT).removesuffix(CUT) for k, s in enumerate(chunk)]
        if any("#" in s for s in chunk):
            text = "\n".join(s.strip() for s in chunk) + "\n"
            try:
                for tok in tokenize.generate_tokens(io.StringIO(text).readline):
                    if tok.type == tokenize.COMMENT:
                        inside.append(window(tok.string.lstrip("#").strip()))
            except (tokenize.TokenError, SyntaxError, IndentationError):
                pass
        return tuple(c for c in (*above, *inside) if c)
