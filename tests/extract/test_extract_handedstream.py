"""How a module hands out a raw reader it defines (``extract/handedstream.py``): rating 15 on eb3a, click's console
reader sits below ``ConsoleStream._text_stream`` (a ``TextIOWrapper`` around a ``BufferedReader``), the object's
``.buffer`` is another stream, and ``_get_windows_console_stream`` builds it only under its guards."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.extract.handedstream import handed_streams
from errdex.extract.source import SourceText
from errdex.model import HandedStream

FIXTURE = Path(__file__).parent.parent / "fixtures" / "an_ttystream" / "ttystream" / "_winterm.py"


def _handed(code: str) -> dict[str, HandedStream]:
    return handed_streams(ast.parse(code), SourceText(code))


def test_the_layers_the_handed_out_class_and_the_factory_s_guards_are_read() -> None:
    h = _handed(FIXTURE.read_text())["_TermReader"]
    assert h.builder == "_term_stdin" and h.builder_line == 41
    assert h.layers == ("io.BufferedReader", "io.TextIOWrapper")  # innermost first
    assert (h.handed_class, h.handed_attr, h.delegates) == ("TermStream", "_text", True)
    assert h.other_attrs == (("buffer", "buffer_stream"),)  # `.buffer` is the builder's argument, not a layer
    assert (h.factory, h.factory_line) == ("console_stream", 53)
    # each `or` part negated; `make` read as what it was bound to
    assert h.handed_when == ('encoding in {"utf-32-le", None}', "_is_terminal(f)",
                             "_makers.get(f.fileno()) is not None")
    assert h.passed == (("buffer_stream", "f.buffer"),)  # what the factory gives the builder


def test_a_builder_returning_the_layer_itself_and_a_direct_factory_call() -> None:
    code = ("import io\n\n\nclass R(io.RawIOBase):\n    def readinto(self, b):\n        return 0\n\n\n"
            "def build():\n    return io.TextIOWrapper(io.BufferedReader(R()))\n\n\n"
            "def get(f):\n    if f is None:\n        return None\n    return build()\n")
    h = _handed(code)["R"]
    assert (h.builder, h.handed_class, h.handed_attr) == ("build", "", "")
    assert h.layers == ("io.BufferedReader", "io.TextIOWrapper")
    assert (h.factory, h.handed_when) == ("get", ("f is not None",))


def test_no_facts_for_a_class_that_is_not_raw_or_is_never_wrapped() -> None:
    assert _handed("import io\n\n\nclass R(io.StringIO):\n    pass\n\n\ndef f():\n    return io.BufferedReader(R())\n") == {}
    assert _handed("import io\n\n\nclass R(io.RawIOBase):\n    pass\n\n\ndef f():\n    return R()\n") == {}
    assert _handed("class R:\n    pass\n") == {}
