"""A platform-only raw reader under the layers its package hands out (``analyze/static/handedread.py`` with
``extract.handedstream`` and ``rawlayers``): rating 15 on eb3a.  The fixture ``an_ttystream`` is click's shape: a
module that asserts Windows, a raw reader that refuses sizes that are not a multiple of 4, a builder wrapping it in
``io.BufferedReader`` and ``io.TextIOWrapper`` inside a ``TermStream`` whose ``.buffer`` is the original stream's,
and a factory that returns it only under its guards."""

from __future__ import annotations

import ast
from collections.abc import Iterator

import pytest

from errdex.analyze.context import SnapshotContext
from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_static
from errdex.model import Analysis

from .pagekit import load_fixture


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SnapshotContext]:
    cat, c = load_fixture(tmp_path_factory.mktemp("tty"), "an_ttystream", "example/ttystream")
    yield c
    cat.close()


def _analysis(ctx: SnapshotContext) -> Analysis:
    (site,) = [s for s in ctx.sites if "partial UTF-32" in s.template.render()]
    return analyze_static(gather_facts(None, ctx.snapshot, site, context=ctx), ctx.all_symbols)  # type: ignore[arg-type]


def test_the_reader_is_reached_through_the_public_call(ctx: SnapshotContext) -> None:
    (site,) = [s for s in ctx.sites if "partial UTF-32" in s.template.render()]
    assert site.handed is not None and site.handed.handed_class == "TermStream"
    assert ctx.public_path(site).entries[:1] == ("ttystream.open_input",)


def test_the_not_run_example_is_a_before_that_reaches_the_check_and_an_after_that_cannot(
        ctx: SnapshotContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("errdex.analyze.static.handedread.sys.platform", "linux")
    a = _analysis(ctx)
    ast.parse(a.example_not_run)
    before, after = a.example_not_run.split("# After:", 1)
    assert before.startswith("# Before: a read on the raw reader below what `ttystream.open_input` returns"), before
    assert "raw = stream._text.buffer.raw  # the `_TermReader`" in before, before
    assert "return raw.read(1)  # asks its `readinto` for 1 byte, a byte count that is not a multiple of 4: " \
           "ValueError" in before, before
    assert "return stream.read(1)" in after and "whole 8192-byte buffers" in after, after
    # `.buffer` is what the builder was given, not a layer above the reader: a binary read there cannot raise it
    assert "`TermStream.__init__` keeps `_term_stdin`'s `buffer_stream` there" in after, after
    assert "return stream.buffer.read(1)" in after
    assert a.example_not_run_why.startswith("`ttystream/_winterm.py` checks `sys.platform == \"win32\"`")
    assert a.example_not_run_why.endswith("; neither the Before nor the After has been run"), a.example_not_run_why


def test_prevention_names_the_reads_that_reach_the_check_and_the_buffer_that_cannot(ctx: SnapshotContext) -> None:
    p = _analysis(ctx).prevention[0]
    assert p.startswith("Where your code reads from the object `ttystream.open_input` returns, read through that "
                        "object: its text reads"), p
    assert "its `.buffer` is not the buffered layer above this reader but what `_term_stdin` was given " \
           "(`buffer_stream`: `f.buffer` in `console_stream`, the `.buffer` of the `f` it was given, which " \
           "`TermStream.__init__` keeps as `.buffer`)" in p, p
    assert "a `read` or `readinto` on the raw reader below that object (its `._text.buffer.raw`)" in p, p
    assert "on the buffered layer above it (its `._text.buffer`, which `.detach()` also returns" in p, p
    assert "binary reads of an even byte count" not in p and "multiple of 4" in p, p


def test_the_trigger_says_when_the_factory_hands_the_reader_out(ctx: SnapshotContext) -> None:
    t = _analysis(ctx).trigger
    assert ("holds and when `console_stream` (`ttystream/_winterm.py:53`) hands that object out, which it does only "
            "if all of these hold (otherwise it returns `None` and no `_TermReader` is built): `encoding` is "
            "`\"utf-32-le\"` or `None`; `_is_terminal(f)` (`f` is a terminal); "
            "`_makers.get(f.fileno()) is not None`.") in t, t


def test_a_quoted_message_followed_by_a_sentence_ends_with_a_full_stop(ctx: SnapshotContext) -> None:
    m = _analysis(ctx).meaning
    assert "from the terminal\". `_TermReader` exists only where" in m, m


def test_solution_one_says_which_layer_the_read_goes_through(ctx: SnapshotContext) -> None:
    # rating 15 on eb3a: "how your code uses that object (the reads it asks for)" was no help; with the layers known
    s = _analysis(ctx).solutions[0].text
    assert ("what decides it is which layer your reads go through. A read on the raw reader below it (its "
            "`._text.buffer.raw`) passes its size straight to `readinto`; a read through the object itself does "
            "not. The raise comes on that read, not at the call of `ttystream.open_input`, and the message") in s, s


def test_without_the_layers_the_page_keeps_the_plain_read_advice(
        ctx: SnapshotContext, monkeypatch: pytest.MonkeyPatch) -> None:
    # a reader whose layers were not read (a catalog indexed before `handed`, or a layer that is not Python's):
    # no path is claimed, the round-22 sentence and sample stay
    from dataclasses import replace

    monkeypatch.setattr("errdex.analyze.static.handedread.sys.platform", "linux")
    (site,) = [s for s in ctx.sites if "partial UTF-32" in s.template.render()]
    f = gather_facts(None, ctx.snapshot, replace(site, handed=None), context=ctx)  # type: ignore[arg-type]
    a = analyze_static(f, ctx.all_symbols)
    assert "return stream.readline()" in a.example_not_run and "# Before" not in a.example_not_run
    assert "binary reads of a byte count that is a multiple of 4" in a.prevention[0], a.prevention
    assert "how your code uses that object" in a.solutions[0].text
    assert "hands that object out" not in a.trigger
