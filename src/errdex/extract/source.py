"""Source text helpers: expression source, snippets and comments, done cheaply.

``ast.get_source_segment`` re-splits the whole file on every call; a raise
site needs a handful of segments, so the file's lines are split once here and
columns (UTF-8 byte offsets in the AST) are mapped on the needed lines only.
"""

from __future__ import annotations

import ast
import bisect
import io
import itertools
import tokenize
from dataclasses import dataclass, field

SNIPPET_BEFORE = 15
SNIPPET_AFTER = 20


@dataclass(slots=True)
class SourceText:
    """One file's text, split into lines on first use."""

    text: str
    _lines: list[str] | None = field(default=None, repr=False)
    _scan: str | None = field(default=None, repr=False)
    _offsets: list[int] | None = field(default=None, repr=False)

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
            return line.encode("utf-8")[col:end_col].decode("utf-8", "replace")
        first = lines[lineno - 1].encode("utf-8")[col:].decode("utf-8", "replace")
        last = lines[end - 1].encode("utf-8")[:end_col].decode("utf-8", "replace")
        return "\n".join([first, *lines[lineno : end - 1], last])

    def snippet(self, line: int, end_line: int) -> tuple[str, int]:
        """About 15 lines before to 20 after the statement, and the first line's number."""
        lines = self.lines
        start = max(1, line - SNIPPET_BEFORE)
        stop = min(len(lines), end_line + SNIPPET_AFTER)
        return "\n".join(lines[start - 1 : stop]), start

    def comments(self, line: int, end_line: int) -> tuple[str, ...]:
        """Comment lines just above the statement and comments inside it.

        The block of full-line comments directly above (up to 6 lines) is a
        cheap line scan; comments inside the statement's own lines come from
        ``tokenize`` on those lines only, so a ``#`` inside a string is not one.
        """
        lines = self.lines
        above: list[str] = []
        i = line - 2
        while i >= 0 and len(above) < 6:
            stripped = lines[i].strip()
            if not stripped.startswith("#"):
                break
            above.append(stripped.lstrip("#").strip())
            i -= 1
        above.reverse()
        inside: list[str] = []
        chunk = lines[line - 1 : end_line]
        if any("#" in s for s in chunk):
            text = "\n".join(s.strip() for s in chunk) + "\n"
            try:
                for tok in tokenize.generate_tokens(io.StringIO(text).readline):
                    if tok.type == tokenize.COMMENT:
                        inside.append(tok.string.lstrip("#").strip())
            except (tokenize.TokenError, SyntaxError, IndentationError):
                pass
        return tuple(c for c in (*above, *inside) if c)
