"""A raise that depends on a replaced standard stream, proven with the stream replaced (``prove/streams.py``;
rating 10, ad70: the search found ``click.get_binary_stream('stderr')`` under its own redirected streams, and as a
plain script the call ran clean, so no example was proven)."""

from __future__ import annotations

from dataclasses import replace

from errdex.model import ErrorSite, Template
from errdex.pagenotes import arguments_note
from errdex.prove.mistake import only_drops, taken_away
from errdex.prove.streams import stand_in, stream_read

SNIPPET = '''def get_binary_stdout():
    writer = _find_binary_writer(sys.stdout)
    if writer is None:
        raise RuntimeError("no binary stream for sys.stdout")
    return writer


def get_binary_stderr():
    writer = _find_binary_writer(sys.stderr)
    if writer is None:
        raise RuntimeError("no binary stream for sys.stderr")
    return writer
'''


def _site(line: int) -> ErrorSite:
    return ErrorSite(kind="error", exception="RuntimeError", exception_resolved="RuntimeError",
                     templates=(Template.literal("no binary stream"),), path="p/_compat.py", line=line, end_line=line,
                     qualname="get_binary_stderr", snippet=SNIPPET, snippet_start=1)


def test_the_stream_the_raising_function_reads() -> None:
    assert stream_read(_site(11)) == "sys.stderr"  # its own lines only, not the function above
    assert stream_read(_site(4)) == "sys.stdout"
    both = replace(_site(4), snippet="def f():\n    w = pick(sys.stdout, sys.stderr)\n    if w is None:\n"
                                     "        raise X\n")
    assert stream_read(both) == ""  # two streams: which one is unclear


def test_the_call_runs_with_the_stream_replaced_and_the_after_with_the_process_own() -> None:
    before, after = stand_in("import click\n\nclick.get_binary_stream(name='stderr')\n", "sys.stderr")
    assert before == ("import click\nimport contextlib, io\nwith contextlib.redirect_stderr(io.StringIO()):\n"
                      "    click.get_binary_stream(name='stderr')\n")
    assert after == "import click\nimport contextlib, io\nclick.get_binary_stream(name='stderr')\n"
    # leaving the stand-in out is the fix, not a drop; the page says what the after does
    assert not only_drops(before, after) and taken_away(before, after) == ""
    note = arguments_note({"arguments": "kept, own stream: sys.stderr"})
    assert note.startswith("The after makes the same call with the process's own `sys.stderr`")
    assert "`sys.stderr = sys.__stderr__`" in note
    # standard input: assigned (no traceback is written to it)
    before, after = stand_in("import p\np.read_bytes()\n", "sys.stdin")
    assert before == "import p\nimport io, sys\nsys.stdin = io.StringIO()\np.read_bytes()\n"
    assert not only_drops(before, after)
    # a stream fed with data (a test's ``input=``) left out is still a drop
    assert only_drops("import io, sys\nsys.stdin = io.StringIO('y')\np.ask()\n", "import io, sys\np.ask()\n")
    assert stand_in("def (:\n", "sys.stderr") == ("", "")
