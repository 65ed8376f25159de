"""A raise that depends on a standard stream the process has replaced (parsing only).

Some checks read no argument but a standard stream: click's ``get_binary_stream('stderr')`` looks for the binary
stream behind ``sys.stderr`` and raises "Was not able to determine binary stream for sys.stderr." when code has
replaced it with a text-only object (a capture, ``io.StringIO()``).  The search finds the call, because it runs
calls with the standard streams redirected to ``io.StringIO()``; run as a script with the process's own streams,
the same call is clean, so no example was proven (rating 10, ad70).  The state is part of the example:

- ``stream_read``: the standard stream (``sys.stdin``, ``sys.stdout``, ``sys.stderr``) the raising function reads
  in its own lines up to the raise (from the site's snippet), when it reads exactly one;
- ``stand_in``: the script with its last statement run while that stream is a text-only ``io.StringIO()`` (in
  ``contextlib.redirect_stdout`` / ``redirect_stderr``, so the traceback still reaches the real stderr when it
  leaves the block; ``sys.stdin`` assigned, since no traceback is written to it);
- the after is the same script with the process's own stream: the same call, the stand-in left out.

A stand-in replaced this way is state the call reads, not what it was asked to do: leaving it out is the fix, not
a drop (``mistake._drops``, ``stand_in_text``).
"""

from __future__ import annotations

import ast
import re

from errdex.model import ErrorSite
from errdex.prove.search_adapters import text_writer

_STREAM = re.compile(r"\bsys\.(stdin|stdout|stderr)\b")
_DEF = re.compile(r"\s*(?:async\s+)?def\s")
# what ``stand_in`` writes, as ``mistake.changes`` says it: a ``with`` item or the assignment, text-only and empty
STAND_IN = re.compile(r"^(?:with contextlib\.redirect_std(?:out|err)\(io\.StringIO\(\)\):|sys\.stdin = io\.StringIO\(\))$")


def stream_read(site: ErrorSite) -> str:
    """``sys.stderr``: the one standard stream the raising function reads before its raise, or ""."""
    lines = site.snippet.splitlines()[: max(0, site.line - site.snippet_start) + 1]
    starts = [i for i, ln in enumerate(lines) if _DEF.match(ln)]
    if not starts:
        return ""
    found = {m.group(1) for ln in lines[starts[-1]:] for m in _STREAM.finditer(ln.split("#", 1)[0])}
    return f"sys.{found.pop()}" if len(found) == 1 else ""


def stand_in(script: str, stream: str) -> tuple[str, str]:
    """(before, after): ``script`` with its last statement run while ``stream`` is an empty ``io.StringIO()``, and
    the same script with the process's own stream (the imports kept); ("", "") when it does not parse."""
    try:
        body = ast.parse(script).body
    except SyntaxError:
        return "", ""
    if not body or stream not in ("sys.stdin", "sys.stdout", "sys.stderr"):
        return "", ""
    last = ast.unparse(body[-1])
    head = "".join(ast.unparse(s) + "\n" for s in body[:-1])
    if stream == "sys.stdin":
        head += "import io, sys\n"
        return f"{head}sys.stdin = io.StringIO()\n{last}\n", f"{head}{last}\n"
    head += "import contextlib, io\n"
    inner = "".join(f"    {ln}\n" for ln in last.splitlines())
    return f"{head}with contextlib.redirect_{stream[4:]}(io.StringIO()):\n{inner}", f"{head}{last}\n"


def stand_in_text(text: str) -> bool:
    """Whether a changed piece (``mistake.Change.old``) is a stand-in ``stand_in`` writes."""
    return bool(STAND_IN.match(text.strip()))


_BINARY = re.compile(r"binary", re.IGNORECASE)


def binary_stream(site: ErrorSite) -> str:
    """``sys.stderr`` when the raising function reads that one standard stream and looks for its binary layer (its
    lines up to the raise say "binary": ``_find_binary_writer(sys.stderr)``), else ""."""
    stream = stream_read(site)
    if not stream:
        return ""
    lines = site.snippet.splitlines()[: max(0, site.line - site.snippet_start) + 1]
    starts = [i for i, ln in enumerate(lines) if _DEF.match(ln)]
    return stream if starts and any(_BINARY.search(ln) for ln in lines[starts[-1]:]) else ""


def stream_checked(script: str, stream: str, not_calling: str, package: str = "") -> str:
    """The validate sample of a raise on a standard stream's binary layer (rating 12, ad70): the script with its
    raising statement made only when ``stream`` has a binary layer, else a line that says why it is not made
    (``not_calling``: the words a validate run is read by) and the text written to the stream instead, by the
    library's own writer (``search_adapters.text_writer``; rating 13, ad70: "it only prints").  "" when it does
    not parse.

    The binary layer is found as a library finds it (click's ``_find_binary_writer``): the stream itself when it
    is a binary stream (an ``io.BytesIO`` put in its place), else its ``.buffer`` when that is one (Python's own
    standard streams); ``None`` under pythonw, a capture's ``io.StringIO()`` and other text-only stand-ins have
    none (rating 13, ad70: checking ``.buffer`` alone refused a stream that is itself binary)."""
    try:
        m = ast.parse(script)
    except SyntaxError:
        return ""
    if not m.body or stream not in ("sys.stdin", "sys.stdout", "sys.stderr"):
        return ""
    holder: list[ast.stmt] = m.body
    while isinstance(holder[-1], (ast.With, ast.AsyncWith)) and holder[-1].body:  # what runs under the stand-in
        holder = holder[-1].body
    stmt = holder[-1]
    calls = [n for n in ast.walk(stmt) if isinstance(n, ast.Call)]
    if not calls:
        return ""
    func = calls[0].func
    while isinstance(func, ast.Call):
        func = func.func
    said = (f"{not_calling} {ast.unparse(func)}: {stream} has no binary layer (it is None, as under pythonw, or a "
            "text-only stand-in such as a capture's io.StringIO())")
    fallback = ("" if stream == "sys.stdin" else
                "\n    " + text_writer(package, stream, repr("the text this program would write as bytes")))
    found, check = ast.parse(
        f"binary = next((s for s in ({stream}, getattr({stream}, 'buffer', None)) if isinstance(s, (io.RawIOBase, "
        f"io.BufferedIOBase))), None)\nif binary is None:\n    print({said!r}){fallback}\nelse:\n    pass\n").body
    assert isinstance(check, ast.If)
    check.orelse = [stmt]
    holder[-1:] = [found, check]
    imported = {a.name for s in m.body if isinstance(s, ast.Import) for a in s.names if not a.asname}
    head = "".join(f"import {name}\n" for name in ("io", "sys") if name not in imported)
    return head + ast.unparse(ast.fix_missing_locations(m)) + "\n"
