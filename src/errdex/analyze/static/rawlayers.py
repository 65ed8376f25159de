"""Python's io layers over a handed-out raw reader: which attribute reaches each layer, which reads reach the raw one.

``extract.handedstream`` records how a module wraps a raw reader it defines (``io.BufferedReader`` then a
``TextIOWrapper``) and what object it hands out around them (click's ``ConsoleStream``, keeping the text layer
as ``_text_stream``).  This module holds the standard library's side, which is the same for every package:

- a text layer (``io.TextIOWrapper`` or a class named after it) exposes the layer below as ``.buffer`` and
  returns it from ``.detach()``; its own reads ask that layer for ``read1(_CHUNK_SIZE)`` (8192 bytes);
- a buffered reader (``io.BufferedReader``) exposes the raw reader as ``.raw``; its ``read(n)`` asks the raw
  reader's ``readinto`` only for whole buffers (``io.DEFAULT_BUFFER_SIZE`` bytes), but ``read1(n)`` on an empty
  buffer, and ``readinto(b)`` / ``readinto1(b)`` with ``len(b)`` over its buffer size, pass the user's size on;
- a raw reader's ``read(n)`` (``io.RawIOBase.read``) calls its ``readinto`` with ``n`` bytes.

tests/analyze/static/test_rawlayers.py checks each of these against the running ``io`` module, with a raw
reader that refuses odd sizes, so a Python that changes them fails the test rather than the page.
"""

from __future__ import annotations

import io

from errdex.model import HandedStream

# the reads on a buffered reader that pass the user's size on to the raw reader's ``readinto``
BUFFERED_PASSING = ("read1(n)", f"readinto(b) with more than {io.DEFAULT_BUFFER_SIZE} bytes")


def layer_kind(name: str) -> str:
    """"text", "buffered" or "" for a wrapping call as written (``io.BufferedReader``, ``_NonClosingTextIOWrapper``)."""
    last = name.rsplit(".", 1)[-1]
    if last.endswith("TextIOWrapper"):
        return "text"
    if last in ("BufferedReader", "BufferedRandom"):
        return "buffered"
    return ""


def raw_path(h: HandedStream) -> tuple[str, str]:
    """(the attributes from the handed-out object down to the raw reader, down to the buffered layer above it):
    ``("._text_stream.buffer.raw", "._text_stream.buffer")``; ("", "") when a layer is not one of Python's."""
    kinds = [layer_kind(n) for n in reversed(h.layers)]  # outermost first
    if not kinds or "" in kinds or kinds[-1] != "buffered" or kinds.count("buffered") != 1:
        return "", ""
    path = f".{h.handed_attr}" if h.handed_class else ""
    if h.handed_class and not h.handed_attr:
        return "", ""
    for k in kinds:
        path += ".buffer" if k == "text" else ".raw"
    return path, path.removesuffix(".raw")


def text_outer(h: HandedStream) -> bool:
    return bool(h.layers) and layer_kind(h.layers[-1]) == "text"


def own_buffer(h: HandedStream) -> str:
    """The builder's parameter the handed-out class keeps as ``.buffer`` in place of the text layer's own, or ""."""
    return next((p for a, p in h.other_attrs if a == "buffer"), "") if h.handed_class else ""
