"""Frames of a pasted traceback against an index: the catalog path of a printed file.

Used by ``explain`` (pinning, origins) and ``versions`` (which versions fit the frames).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from errdex.match.indexdata import MatchIndex
    from errdex.match.model import Frame


def library_path(idx: MatchIndex, path: str) -> str | None:
    """The catalog path of a printed frame file (``.../site-packages/jax/_src/pjit.py``), if any."""
    parts = path.replace("\\", "/").split("/")
    fallback: str | None = None
    for i, part in enumerate(parts):
        if part in idx.tops:
            cand = "/".join(parts[i:])
            if cand in idx.locations:
                return cand
            if fallback is None and cand.endswith(_SOURCE_SUFFIXES) and ("site-packages" in parts[:i] or i == 0):
                fallback = cand
    return fallback


_SOURCE_SUFFIXES = (".py", ".pyx", ".pxd", ".pxi")  # a library's Python and Cython files
_RAISES = re.compile(r"\b(?:raise|assert)\b|warn")  # also `if n < 1: raise ValueError(...)` on one line


def may_raise(code: str) -> bool:
    """Whether the printed source of a frame may be where an exception was raised in some version of
    the code: a ``raise``, an ``assert`` or a warning.  Any other line (``return batched(it, n)``, a
    call into compiled code, a call whose frames the library hid) raised nothing itself, in this
    version or another, so the sites of its file are not that line moved.  No printed source: maybe."""
    first = code.strip().split("\n", 1)[0]
    return not first or _RAISES.search(first) is not None


def _pseudo(path: str) -> bool:
    """A frame of code compiled from a string (``<string>``, ``<attrs generated init ...>``), not of a
    file; the interpreter's frozen modules (``<frozen importlib._bootstrap>``) are files of its own."""
    name = path.replace("\\", "/")
    start = name.find("<")
    return name.endswith(">") and start >= 0 and not name.startswith("<frozen", start)


def generated(idx: MatchIndex, frames: list[Frame]) -> bool:
    """Whether the innermost frame is code the library generated at run time and ran: a frame of no file
    (``exec``/``compile`` of a string, ``<cattrs generated structure ...>``) called from a library frame
    (maybe through more such frames).  Such code raises at no indexed site, but it is the library's."""
    i = len(frames) - 1
    while i >= 0 and _pseudo(frames[i].path):
        i -= 1
    return 0 <= i < len(frames) - 1 and library_path(idx, frames[i].path) is not None


def reaches_library(idx: MatchIndex, frames: tuple[Frame, ...]) -> bool:
    """Whether any of the frames is a library file's, or code the library generated."""
    return any(library_path(idx, f.path) is not None for f in frames) or generated(idx, list(frames))
