"""Python's io layers over a raw reader (``analyze/static/rawlayers.py``), checked against the running ``io``
module: which reads of a text layer and a buffered layer pass the user's size on to the raw reader's
``readinto`` (rating 15 on eb3a; the page's advice rests on these)."""

from __future__ import annotations

import io

import pytest

from errdex.analyze.static.rawlayers import layer_kind, own_buffer, raw_path, text_outer
from errdex.model import HandedStream


class _OddRefusing(io.RawIOBase):
    """A raw reader that refuses odd sizes, as click's Windows console reader does."""

    def __init__(self) -> None:
        self.left = 4 * io.DEFAULT_BUFFER_SIZE  # then end of file

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray) -> int:  # type: ignore[override]
        n = len(b)
        if n % 2:
            raise ValueError(f"odd {n}")
        n = min(n, self.left)
        b[:n] = b"a\x00" * (n // 2)
        self.left -= n
        return n


def _buffered() -> io.BufferedReader:
    return io.BufferedReader(_OddRefusing())


def test_text_reads_and_buffered_read_never_pass_an_odd_size_on() -> None:
    text = io.TextIOWrapper(_buffered(), "utf-16-le")
    assert text.read(3) == "aaa" and text.readline() and list(text) == []
    assert len(_buffered().read(1)) == 1 and len(_buffered().read(io.DEFAULT_BUFFER_SIZE + 1)) > 0
    assert _buffered().readinto(bytearray(3)) == 3  # small: filled from the buffer


@pytest.mark.parametrize("read", [
    lambda: _OddRefusing().read(1),  # the raw reader itself
    lambda: _buffered().read1(3),  # read1 on an empty buffer passes n on
    lambda: _buffered().readinto(bytearray(io.DEFAULT_BUFFER_SIZE + 1)),  # more than a buffer: straight through
])
def test_reads_the_page_names_as_reaching_the_check_do(read) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="odd"):
        read()


def test_the_path_from_the_handed_out_object_down_to_the_raw_reader() -> None:
    wrapped = HandedStream(raw_class="R", layers=("io.BufferedReader", "_NonClosingTextIOWrapper"),
                           handed_class="ConsoleStream", handed_attr="_text_stream",
                           other_attrs=(("buffer", "buffer_stream"),))
    assert raw_path(wrapped) == ("._text_stream.buffer.raw", "._text_stream.buffer")
    assert text_outer(wrapped) and own_buffer(wrapped) == "buffer_stream"
    bare = HandedStream(raw_class="R", layers=("io.BufferedReader", "io.TextIOWrapper"))
    assert raw_path(bare) == (".buffer.raw", ".buffer") and own_buffer(bare) == ""
    # a layer that is not Python's: no path is claimed
    assert raw_path(HandedStream(raw_class="R", layers=("Framer", "io.TextIOWrapper"))) == ("", "")
    assert layer_kind("io.BufferedWriter") == "" and layer_kind("_NonClosingTextIOWrapper") == "text"
