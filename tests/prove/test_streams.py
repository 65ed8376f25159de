"""A raise that depends on a replaced standard stream, proven with the stream replaced (``prove/streams.py``;
rating 10, ad70: the search found ``click.get_binary_stream('stderr')`` under its own redirected streams, and as a
plain script the call ran clean, so no example was proven)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

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


def test_a_raise_on_the_stream_binary_layer_gets_the_stream_checked_before_the_call(tmp_path: Path) -> None:
    # rating 12 (ad70): Defensive was prose ("raises when the writer is None"); the sample checks the stream's binary
    # ``.buffer`` before the call, and says why it does not make it
    from errdex.prove.checks import NOT_CALLING, validate_clean, validate_stopped
    from errdex.prove.streams import binary_stream, stream_checked

    assert binary_stream(_site(11)) == "sys.stderr"
    text_only = replace(_site(11), snippet="def get_text():\n    if sys.stderr.isatty():\n        raise X\n",
                        line=3, qualname="get_text")
    assert stream_read(text_only) == "sys.stderr" and binary_stream(text_only) == ""  # not its binary layer
    (tmp_path / "binlib.py").write_text(
        "import io, sys\n\n\ndef get_binary_stderr():\n    writer = sys.stderr if isinstance(sys.stderr, io.BytesIO) "
        "else getattr(sys.stderr, 'buffer', None)\n"
        "    if writer is None:\n        raise RuntimeError('no binary stream for sys.stderr')\n    return writer\n")
    before, after = stand_in("import binlib\nbinlib.get_binary_stderr()\n", "sys.stderr")
    bad, good = stream_checked(before, "sys.stderr", NOT_CALLING), stream_checked(after, "sys.stderr", NOT_CALLING)
    assert bad.startswith("import sys\n") and "    if binary is None:\n" in bad
    # rating 13 (ad70): the stream itself may be the binary layer (an ``io.BytesIO`` in its place), as the library
    # finds it, not only its ``.buffer``; and where there is none the text still goes out, written as text
    assert ("binary = next((s for s in (sys.stderr, getattr(sys.stderr, 'buffer', None)) if isinstance(s, "
            "(io.RawIOBase, io.BufferedIOBase))), None)") in bad
    assert "        print('the text this program would write as bytes', file=sys.stderr)\n" in bad
    assert "    else:\n        binlib.get_binary_stderr()\n" in bad  # inside the capture, where the stream is replaced
    own = stream_checked(before, "sys.stderr", NOT_CALLING, "click")
    assert "click.echo('the text this program would write as bytes', err=True)" in own  # the library's own writer

    def run(code: str) -> tuple[int, str, str]:
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=60,
                           check=False)
        return p.returncode, p.stdout, p.stderr

    rc, out, err = run(bad)
    assert validate_stopped(rc, out, err) and "not calling binlib.get_binary_stderr: sys.stderr has no binary" in out
    rc, out, err = run(good)
    assert validate_clean(rc, out) and "Traceback" not in err
    # the stream replaced by a binary one: the library takes it, so the check lets the call run
    itself = stream_checked("import binlib\nimport io, sys\nsys.stderr = io.BytesIO()\nbinlib.get_binary_stderr()\n",
                            "sys.stderr", NOT_CALLING)
    rc, out, err = run(itself)
    assert rc == 0 and NOT_CALLING not in out, (itself, out, err)
    assert stream_checked("def (:\n", "sys.stderr", NOT_CALLING) == ""
