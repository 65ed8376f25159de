"""Line digests: a 32-bit checksum of every line of every indexed file.

A traceback prints, for each frame, the file, the line number and the text
of that line.  With the digests of each snapshot's lines the catalog can
tell which indexed versions hold exactly those lines at those numbers — the
versions whose files fit the traceback (``match/versions.py``) — without
keeping the source itself.  Four bytes a line: JAX's 305,000 lines take
1.2 MB a version.

Lines are split the way ``linecache`` (which prints tracebacks) reads a
file: universal newlines only, not ``str.splitlines``' form feeds and
Unicode separators, and compared stripped, as tracebacks print them.
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Iterable

from errdex.extract.worker import Item, decode, read
from errdex.sources.base import SourceFile


def line_digest(text: str) -> int:
    """The digest of one line as a traceback prints it (surrounding whitespace ignored)."""
    return zlib.crc32(text.strip().encode("utf-8", "surrogatepass"))


def text_digests(text: str) -> bytes:
    """The ``array('I')`` bytes of every line's digest, line 1 first."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line opens no line
    return array("I", (line_digest(s) for s in lines)).tobytes()


def digests_of(data: bytes) -> array[int]:
    """The digests stored by ``text_digests``, as numbers."""
    out = array("I")
    out.frombytes(data[: len(data) - len(data) % 4])
    return out


def tree_digests(files: Iterable[SourceFile], max_bytes: int) -> dict[str, bytes]:
    """Digests of every file that can be read and decoded (a package's test helpers are frames too)."""
    out: dict[str, bytes] = {}
    for f in files:
        data = read(Item.of(f), max_bytes)
        if not isinstance(data, bytes) or b"\x00" in data:
            continue
        try:
            out[f.path] = text_digests(decode(data, f.path))
        except ValueError:
            continue
    return out
