"""The line digest format, shared by the extractor (which writes it) and the match stage (which reads it).

A file's digests are the ``array('I')`` bytes of one CRC-32 per line, line 1
first, of the line stripped of ASCII whitespace and encoded as UTF-8; see
``extract/lines.py`` for why and how files are split.  Standard library only:
``errdex explain`` imports this and must stay quick to start.
"""

from __future__ import annotations

import zlib
from array import array


def line_digest(text: str) -> int:
    """The digest of one line as a traceback prints it (surrounding whitespace ignored)."""
    return zlib.crc32(text.encode("utf-8", "surrogatepass").strip())


def utf8_digests(data: bytes) -> bytes:
    """The digests of UTF-8 text split at universal newlines, as ``linecache`` splits a file."""
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the newline that ends the last line opens no line
    return array("I", map(zlib.crc32, map(bytes.strip, lines))).tobytes()


def digests_of(data: bytes) -> array[int]:
    """Stored digests as numbers."""
    out = array("I")
    out.frombytes(data[: len(data) - len(data) % 4])
    return out
