"""The public path through a table of functions, a module ``__getattr__`` alias and an object handed to
the standard library (rating 8 on ad70 and eb3a: ``click.get_binary_stream('stderr')`` reaches its raise
through the ``binary_streams`` dict, a console reader's ``readinto`` through ``io.BufferedReader``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from errdex.analyze.context import SnapshotContext, load_context
from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_static
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.model import Analysis
from errdex.sources import open_source

FILES = {
    "streampkg/__init__.py": (
        "from .utils import echo as echo\n\n\n"
        "def __getattr__(name):\n"
        "    if name == 'get_stream':\n"
        "        from .utils import _get_stream\n\n"
        "        return _get_stream\n"
        "    raise AttributeError(name)\n"),
    "streampkg/_compat.py": (
        "import io\nimport sys\n\nfrom ._console import _console_stream\n\n\n"
        "def get_out():\n"
        "    writer = getattr(sys.stdout, 'buffer', None)\n"
        "    if writer is None:\n"
        "        raise RuntimeError('no binary stream for sys.stdout')\n"
        "    return writer\n\n\n"
        "def get_err():\n"
        "    return sys.stderr.buffer\n\n\n"
        "def get_text_in():\n"
        "    return _console_stream(sys.stdin)\n\n\n"
        "def get_text_err():\n"
        "    return _console_stream(sys.stderr)\n\n\n"
        "streams = {'stdout': get_out, 'stderr': get_err}\n"
        "text_streams = {'stdin': get_text_in, 'stderr': get_text_err}\n"),
    "streampkg/_console.py": (
        "import io\nimport sys\n\nassert sys.platform == 'win32'\n\n\n"
        "class _Reader(io.RawIOBase):\n"
        "    def readinto(self, b):\n"
        "        bytes_to_be_read = len(b)\n"
        "        if bytes_to_be_read % 2:\n"
        "            raise ValueError('cannot read an odd number of bytes from the console')\n"
        "        return 0\n\n\n"
        "def _reader_in(f):\n"
        "    return io.TextIOWrapper(io.BufferedReader(_Reader()))\n\n\n"
        "def _reader_err(f):\n"
        "    return f\n\n\n"
        "_factories = {0: _reader_in, 2: _reader_err}\n\n\n"
        "def _console_stream(f):\n"
        "    make = _factories.get(f.fileno())\n"
        "    return make(f) if make is not None else f\n"),
    "streampkg/utils.py": (
        "from ._compat import get_text_err\n"
        "from ._compat import streams\n"
        "from ._compat import text_streams\n\n\n"
        "def _get_stream(name):\n"
        "    opener = streams.get(name)\n"
        "    if opener is None:\n"
        "        raise TypeError(f'unknown stream {name!r}')\n"
        "    return opener()\n\n\n"
        "def get_text(name):\n"
        "    return text_streams[name]()\n\n\n"
        "def echo(message):\n"
        "    get_text_err().write(message)\n\n\n"
        "class Session:\n"
        "    def stop(self):\n"
        "        session = self._session\n"
        "        if session is None:\n"
        "            raise RuntimeError('no session was started, so there is none to stop')\n"
        "        return session\n"),
}


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SnapshotContext]:
    root = tmp_path_factory.mktemp("tables") / "project"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    cat = SqliteCatalog(root.parent / "c.sqlite")
    with open_source(str(root), repo="example/streampkg", ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    c = load_context(cat, cat.snapshots()[0])
    c.catalog_for_tests = cat  # type: ignore[attr-defined]
    yield c
    cat.close()


def _path(ctx: SnapshotContext, text: str) -> tuple[str, ...]:
    (site,) = [s for s in ctx.sites if text in s.template.render()]
    return ctx.public_path(site).entries


def test_a_function_read_from_a_table_by_get_is_reached_by_the_reader(ctx: SnapshotContext) -> None:
    # `_get_stream` reads `streams.get(name)`: it calls whatever the table holds; the package offers it as
    # `streampkg.get_stream` through its module `__getattr__` (`if name == 'get_stream': return _get_stream`)
    assert _path(ctx, "no binary stream") == ("streampkg.get_stream",)


def test_a_method_the_standard_library_calls_is_reached_by_what_makes_the_object(ctx: SnapshotContext) -> None:
    # `_Reader.readinto` is called by `io.BufferedReader`, not by the package: whoever makes a `_Reader` reaches
    # it; through `text_streams[name]` (a subscript) only the reader of the `stdin` entry does: `echo` goes
    # through `get_text_err`, which picks the table's `stderr` entry (`_reader_err`), so it is no route
    assert _path(ctx, "odd number of bytes") == ("streampkg.utils.get_text",)


def test_table_reads_are_edges_only_to_tables_of_functions(ctx: SnapshotContext) -> None:
    edges = {(e.caller, e.callee) for e in ctx.calls if e.callee.endswith("[]")}
    assert ("streampkg.utils._get_stream", "streampkg._compat.streams[]") in edges
    assert ("streampkg.utils.get_text", "streampkg._compat.text_streams[]") in edges
    assert ("streampkg._console._console_stream", "streampkg._console._factories[]") in edges
    assert all(callee.rsplit(".", 1)[-1] in ("streams[]", "text_streams[]", "_factories[]") for _, callee in edges)


def test_an_import_a_module_makes_for_its_own_use_is_no_public_name(ctx: SnapshotContext) -> None:
    # `streampkg.utils` imports `get_text_err` from the private `_compat` (no `as` form) and calls it itself
    graph = ctx.call_graph
    assert graph.public_name("streampkg._compat.get_text_err") == ""
    assert graph.public_name("streampkg.utils._get_stream") == "streampkg.get_stream"


def _analysis(ctx: SnapshotContext, text: str) -> Analysis:
    (site,) = [s for s in ctx.sites if text in s.template.render()]
    f = gather_facts(ctx.catalog_for_tests, ctx.snapshot, site, context=ctx)  # type: ignore[attr-defined]
    return analyze_static(f, ctx.all_symbols)


def test_a_handed_out_method_is_not_said_to_check_what_the_user_passes(ctx: SnapshotContext) -> None:
    # rating 8 on eb3a: "check the `b` you pass" named an argument Python's io passes, not the user
    a = _analysis(ctx, "odd number of bytes")
    text = " ".join([*(s.text for s in a.solutions), *a.prevention])
    assert "`b` you pass" not in text
    assert "Python's own code" in text and "`streampkg.utils.get_text`" in text
    assert "a test that makes the call" not in text
    # rating 12 on eb3a: a ``readinto`` is reached by reads, not "reads or writes", and it raises at such a read,
    # later, not at the call that returns the object
    assert "reads or writes" not in text and "on that read, not at the call." in text


def test_a_check_on_process_state_says_which_state_and_no_test_template(ctx: SnapshotContext) -> None:
    # rating 8 on ad70: "a test that makes the call ... shows it first" fits any error; the state the check is
    # worked out from (`sys.stdout`) is what the user can look after
    a = _analysis(ctx, "no binary stream")
    assert a.prevention and "check `sys.stdout`" in a.prevention[0] and "`streampkg.get_stream`" in a.prevention[0]
    assert "a test that makes the call" not in " ".join(a.prevention)


def test_no_try_sample_that_only_re_raises(ctx: SnapshotContext) -> None:
    # rating 8 (8ee0, 027b, 9fa3, 7554, ad70, a1ee): a try / except that matches the message, adds a note and
    # re-raises every time defends nothing; none is made, and the Defensive note says why in one line
    from errdex.pagenotes import defensive_note, defensive_sample

    for text in ("unknown stream", "no binary stream", "odd number of bytes"):
        (site,) = [s for s in ctx.sites if text in s.template.render()]
        f = gather_facts(ctx.catalog_for_tests, ctx.snapshot, site, context=ctx)  # type: ignore[attr-defined]
        a = analyze_static(f, ctx.all_symbols)
        assert a.try_sample == "", text
        doc = {"guard_note": a.guard_note, "try_sample": a.try_sample, "check_sample": a.check_sample}
        assert "add_note" not in defensive_sample(doc)[1] and "catch `" not in a.guard_note, text
        if "What you can check" not in a.guard_note:  # no check to make: the one line on why no try either
            assert re.search(r"a try / except (would not help either|is no substitute for it): errdex knows no "
                             "fallback for ", defensive_note(doc), re.I), text


def test_a_check_on_process_state_is_said_by_the_public_call_and_the_state(ctx: SnapshotContext) -> None:
    # rating 10 on ad70: Solution 1 named the internal `get_binary_stderr` ("takes no arguments") and Meaning
    # said "values it works out inside the call"; the state is what the value comes from
    a = _analysis(ctx, "no binary stream")
    assert a.solutions[0].text.startswith("The check that fails reads none of the arguments you pass to "
                                          "`streampkg.get_stream` but the state of your process: the value it "
                                          "checks comes from `sys.stdout`")
    assert "`get_out`" not in a.solutions[0].text
    assert "(values it works out from `sys.stdout`)" in a.meaning and "inside the call" not in a.meaning

    # an object's state (`self._session` in a method) is not the process's: the old wording stands
    b = _analysis(ctx, "no session was started")
    assert "state of your process" not in " ".join(x.text for x in b.solutions)
    assert "works out from `self._session`" not in b.meaning


def test_a_handed_out_reader_is_said_to_raise_on_a_later_read_not_at_the_call(ctx: SnapshotContext) -> None:
    # rating 12 on eb3a: `readinto` runs when the user reads from the object the call returned, so the raise
    # comes on that read, not at the call, and "the reads or writes it asks for" said too much
    a = _analysis(ctx, "odd number of bytes")
    text = " ".join([*(s.text for s in a.solutions), *a.prevention, a.trigger])
    assert "reads or writes" not in text, text
    assert a.trigger.startswith("A later read from the object that `streampkg.utils.get_text` returns"), a.trigger
    assert "the call itself does not raise it" in a.trigger, a.trigger
    # (rating 15: with the layers known, Solution 1 says which read: "The raise comes on that read, not at the call")
    assert "on that read, not at the call of `streampkg.utils.get_text`" in text, text


def test_every_section_of_a_handed_out_reader_puts_the_raise_at_the_later_read(ctx: SnapshotContext) -> None:
    # rating 13 on eb3a: the When trigger said "a later read", but a Common situations bullet still said the call
    # chain of the call "reaches the raise", and Defensive said "guard it before the call"
    a = _analysis(ctx, "odd number of bytes")
    (bullet,) = [s for s in a.situations if "call chain" in s]
    assert bullet.startswith("A read from the object `streampkg.utils.get_text` returns: "), bullet
    assert "reaches the raise" not in bullet and "on a later read" in bullet, bullet
    assert "the call itself does not raise it" in bullet, bullet
    assert "before the call rather" not in a.guard_note, a.guard_note
    assert a.guard_note.startswith("Guard your reads from that object, not the call that returns it, rather than "
                                   "catching it"), a.guard_note

    # a method the package calls itself is still reached at the call
    b = _analysis(ctx, "no binary stream")
    assert not any(s.startswith("A read from") for s in b.situations)


def test_a_handed_out_reader_s_size_check_is_said_as_the_reads_that_pass_it(ctx: SnapshotContext) -> None:
    # rating 13 on eb3a: "keep to what its `readinto` accepts ... values it works out from its `b` argument" was
    # not actionable (D and P weak); the reads that pass `len(b) % 2` are: text reads, which Python's buffered
    # layer turns into whole 8192-byte buffers, or binary reads of an even byte count
    a = _analysis(ctx, "odd number of bytes")
    # rating 15 on eb3a: with the layers known (the call hands out the `TextIOWrapper` itself), which reads reach it
    assert a.prevention[0].startswith("Where your code reads from the object `streampkg.utils.get_text` returns, "
                                      "read through that object: its text reads (`.read()`, `.readline()`, "
                                      "iterating over it) reach `_Reader.readinto` only through Python's buffered "
                                      "layer"), a.prevention
    assert "`io.DEFAULT_BUFFER_SIZE` (8192) bytes" in a.prevention[0], a.prevention
    assert "on the raw reader below that object (its `.buffer.raw`)" in a.prevention[0], a.prevention
    assert "on the buffered layer above it (its `.buffer`)" in a.prevention[0], a.prevention
    assert "keep to what its" not in a.prevention[0]
    assert a.guard_note.startswith("Guard your reads from that object, not the call that returns it, rather than "
                                   "catching it: where your code reads from the object"), a.guard_note


def test_the_platform_a_module_checks_at_import_is_on_the_page(ctx: SnapshotContext) -> None:
    # rating 13 on eb3a: the console reader exists only on Windows (its module asserts `sys.platform == "win32"`
    # at import), and the page never said so
    a = _analysis(ctx, "odd number of bytes")
    assert ("`_Reader` exists only where `sys.platform == 'win32'` holds: `streampkg/_console.py`, the module "
            "that defines it, checks that when it is imported (line 4)") in a.meaning, a.meaning
    assert a.trigger.endswith(", and only on a platform where `sys.platform == 'win32'` holds."), a.trigger
    assert any(e.line == 4 and "sys.platform" in e.text for e in a.evidence), a.evidence
    # a module without such a check: no platform named
    b = _analysis(ctx, "no binary stream")
    assert "exists only where" not in b.meaning and "on a platform where" not in b.trigger



def test_a_reader_of_another_platform_gets_a_not_run_example_that_says_why(
        ctx: SnapshotContext, monkeypatch: pytest.MonkeyPatch) -> None:
    # rating 13 on eb3a: E absent; no proof can run where the reader's module refuses to import (its platform
    # check), so the page shows a read that passes the check, labelled as not run, with that check as the reason
    import ast

    monkeypatch.setattr("errdex.analyze.static.handedread.sys.platform", "linux")
    a = _analysis(ctx, "odd number of bytes")
    ast.parse(a.example_not_run)
    # rating 15 on eb3a: a Before (the read on the raw reader, `.buffer.raw` of the handed-out `TextIOWrapper`) and
    # an After (a text read through the object)
    assert "raw = stream.buffer.raw" in a.example_not_run and "`streampkg.utils.get_text`" in a.example_not_run
    assert "1 byte, an odd byte count: ValueError" in a.example_not_run, a.example_not_run
    assert "return stream.read(1)" in a.example_not_run and "read_byte" not in a.example_not_run
    assert a.example_not_run_why.startswith("`streampkg/_console.py` checks `sys.platform == 'win32'` when it is "
                                            "imported (line 4)"), a.example_not_run_why
    assert "(`sys.platform` is `linux`)" in a.example_not_run_why
    # where the check holds, a proof can run: no not-run sample stands in for it
    monkeypatch.setattr("errdex.analyze.static.handedread.sys.platform", "win32")
    assert _analysis(ctx, "odd number of bytes").example_not_run == ""
    # an error whose module checks no platform: none
    assert _analysis(ctx, "no binary stream").example_not_run == ""
