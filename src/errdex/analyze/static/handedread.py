"""What a user reads from a handed-out reader without reaching its size check, and the platform it exists on.

A call that returns a stream (``click.get_text_stream``) may hand out an object whose raw reader checks the
size of each read (click's Windows console reader: ``readinto`` raises when ``len(b) % 2``, UTF-16 code
units being two bytes).  The user never calls ``readinto``: Python's text and buffered layers do, asking for
whole buffers of ``io.DEFAULT_BUFFER_SIZE`` bytes.  So when that size passes the check, text reads
(``.read()``, ``.readline()``, iterating) never raise it, and what does is a binary read of the user's own of
a size the check refuses.  Rating 13 (eb3a) graded "keep to what its `readinto` accepts" not actionable
and asked for exactly this: read text, or binary reads of an even byte count.

The size check is recognised in the raising method's own text: a guard ``<size> % k`` (raising when the size
is not a multiple of ``k``) where ``<size>`` is the method's buffer parameter's ``len``, or its size
parameter itself.  The module's platform check at import (``ErrorSite.requires``, ``extract.platformcheck``)
says where such an object exists at all.
"""

from __future__ import annotations

import io
import os
import re
import sys

from errdex.analyze.facts import Facts
from errdex.analyze.static import roles
from errdex.analyze.static.words import callee, decisive, entry_words, package
from errdex.model import Evidence

_READ_METHODS = frozenset({"readinto", "readinto1", "read", "read1"})


def size_multiple(f: Facts) -> int:
    """k when the raising read method raises because the size asked for is not a multiple of k, else 0."""
    if roles.handed_use(f) != "read" or roles.function_name(f) not in _READ_METHODS:
        return 0
    sizes = set(f.params[:1])  # ``read(size)``: the size itself; ``readinto(b)``: a name bound to ``len(b)``
    for p in f.params[:1]:
        sizes.update(re.findall(rf"^\s*(\w+)\s*=\s*len\(\s*{re.escape(p)}\s*\)\s*$", f.function_text, re.M))
    for g in decisive(f):
        m = re.fullmatch(r"\s*(\w+)\s*%\s*(\d+)\s*", g.guard.normalized or g.guard.source)
        if m and m.group(1) in sizes and not g.guard.negated and int(m.group(2)) > 1:
            return int(m.group(2))
    return 0


def read_advice(f: Facts) -> str:
    """The Prevention sentence for such a reader: text reads, or binary reads of a size that is a multiple."""
    k = size_multiple(f)
    if not k:
        return ""
    count = "an even byte count" if k == 2 else f"a byte count that is a multiple of {k}"
    buffered = io.DEFAULT_BUFFER_SIZE % k == 0
    text = ("read text from it (`.read()`, `.readline()`, or iterating over it) or make binary reads of "
            f"{count}" if buffered else f"make every read from it one of {count}")
    why = (f": Python's own text and buffered layers call its `{roles.function_name(f)}` with whole buffers of "
           f"`io.DEFAULT_BUFFER_SIZE` ({io.DEFAULT_BUFFER_SIZE}) bytes, which pass its check; what raises it is a "
           f"read of another size that reaches `{roles.function_name(f)}` itself" if buffered else "")
    return (f"Where your code reads from the object {callee(f)} returns, {text}{why}, on that read, not at the "
            "call.")


def platform_sentence(f: Facts) -> str:
    """"`_WindowsConsoleReader` exists only where `sys.platform == "win32"` holds: ..." ("" without the fact)."""
    if not f.site.requires:
        return ""
    parts = f.site.qualname.split(".")
    what = (f"`{parts[0]}`" if len(parts) > 1 and parts[0].lstrip("_")[:1].isupper() and "<locals>" not in parts
            else f"`{f.site.qualname}`")
    return (f"{what} exists only where `{f.site.requires}` holds: `{f.site.path}`, the module that defines it, "
            f"checks that when it is imported (line {f.site.requires_line}), so on any other platform "
            f"{package(f)} never makes this check.")


def platform_evidence(f: Facts) -> Evidence:
    return Evidence(kind="guard", text=f"import requires {f.site.requires}", path=f.site.path,
                    line=f.site.requires_line, url=f.snapshot.source_url(f.site.path, f.site.requires_line))


def read_sample(f: Facts) -> tuple[str, str]:
    """(a read that passes the size check, as code; why errdex cannot run it) for a handed-out reader whose module
    requires a platform this machine is not: the proof's sandbox never builds that object, so no example is proven,
    and the page shows this one labelled as not run (rating 13, eb3a: E absent).  ("", "") otherwise."""
    k = size_multiple(f)
    if not k or io.DEFAULT_BUFFER_SIZE % k or not f.site.requires or not f.public_path.entries:
        return "", ""
    if _holds_here(f.site.requires):
        return "", ""  # it could run here: a proof is the way, not a sample errdex has not run
    count = "an odd byte count" if k == 2 else f"a byte count that is not a multiple of {k}"
    code = (f"def read_line(stream):\n"
            f"    # `stream`: what {entry_words(f)} returns\n"
            f"    # a text read: Python's buffered layer asks its `{roles.function_name(f)}` for whole "
            f"{io.DEFAULT_BUFFER_SIZE}-byte buffers,\n"
            f"    # never {count}\n"
            "    return stream.readline()\n")
    why = (f"`{f.site.path}` checks `{f.site.requires}` when it is imported (line {f.site.requires_line}), and errdex "
           f"runs {package(f)}'s code only in its sandbox on this machine (`sys.platform` is `{sys.platform}`), "
           "where that object is never built")
    return code, why


def _holds_here(requires: str) -> bool:
    """Whether this machine meets the module's platform check (an equality or inequality on ``sys.platform``
    or ``os.name``, as ``extract.platformcheck`` records it); unknown forms count as not met."""
    m = re.fullmatch(r"(sys\.platform|os\.name)\s*(==|!=)\s*(['\"])(\w+)\3", requires.strip())
    if m is None:
        return False
    here = sys.platform if m.group(1) == "sys.platform" else os.name
    return (here == m.group(4)) == (m.group(2) == "==")
