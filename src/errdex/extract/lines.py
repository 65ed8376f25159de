"""Line digests: a 32-bit checksum of every line of every indexed file.

A traceback prints, for each frame, the file, the line number and the text
of that line.  With the digests of each snapshot's lines the catalog can
tell which indexed versions hold exactly those lines at those numbers — the
versions whose files fit the traceback (``match/versions.py``) — without
keeping the source itself.  Four bytes a line: JAX's 305,000 lines take
1.2 MB a version.

Lines are split the way ``linecache`` (which prints tracebacks) reads a
file: universal newlines only, not ``str.splitlines``' form feeds and
Unicode separators, and compared stripped of ASCII whitespace, as
tracebacks print them (a line edged by a non-ASCII space, which no
indentation can be, is the one case where the two strips differ).
"""

from __future__ import annotations

import io
import tokenize

from errdex.digests import digests_of, line_digest, utf8_digests
from errdex.extract.decoding import decode


def text_digests(text: str) -> bytes:
    """The ``array('I')`` bytes of every line's digest, line 1 first."""
    return utf8_digests(text.encode("utf-8", "surrogatepass"))


def data_digests(data: bytes, path: str) -> bytes:
    """``text_digests`` of a file's bytes, decoded as Python does (``ValueError`` when they cannot be).

    UTF-8 files (nearly all) are digested as bytes, a C loop over the lines:
    decoding and re-encoding JAX's 305,000 lines one by one took 1.8 s.
    """
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:
        raise ValueError(f"bad coding cookie: {e}") from None
    if encoding not in ("utf-8", "utf-8-sig"):
        return text_digests(decode(data, path))
    return utf8_digests(data.removeprefix(b"\xef\xbb\xbf"))


__all__ = ["data_digests", "digests_of", "line_digest", "text_digests"]
