"""Source bytes to text, decoded as Python decodes a module: BOM, coding cookie, else UTF-8."""

from __future__ import annotations

import io
import tokenize


def decode(data: bytes, path: str) -> str:
    """Decode as Python does: BOM, coding cookie, else UTF-8.  Raises ``ValueError`` with a reason."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:
        raise ValueError(f"bad coding cookie: {e.msg if hasattr(e, 'msg') else e}") from None
    try:
        text = data.decode(encoding)
    except LookupError:
        raise ValueError(f"unknown encoding {encoding!r} in the coding cookie") from None
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise ValueError(f"not valid {encoding}: byte {data[e.start]:#04x} at line {line}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text
