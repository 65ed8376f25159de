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
from errdex.analyze.static.rawlayers import own_buffer, raw_path, text_outer
from errdex.analyze.static.words import callee, decisive, entry_words, package
from errdex.model import Evidence, HandedStream

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
    if (layered := _layered_advice(f, k)):
        return layered
    count = "an even byte count" if k == 2 else f"a byte count that is a multiple of {k}"
    buffered = io.DEFAULT_BUFFER_SIZE % k == 0
    text = ("read text from it (`.read()`, `.readline()`, or iterating over it) or make binary reads of "
            f"{count}" if buffered else f"make every read from it one of {count}")
    why = (f": Python's own text and buffered layers call its `{roles.function_name(f)}` with whole buffers of "
           f"`io.DEFAULT_BUFFER_SIZE` ({io.DEFAULT_BUFFER_SIZE}) bytes, which pass its check; what raises it is a "
           f"read of another size that reaches `{roles.function_name(f)}` itself" if buffered else "")
    return (f"Where your code reads from the object {callee(f)} returns, {text}{why}, on that read, not at the "
            "call.")


def _layered_advice(f: Facts, k: int) -> str:
    """Rating 15 (eb3a): with the module's layers known (``extract.handedstream``), which reads of the handed-out
    object reach the check and which cannot: its text reads go through the buffered layer's whole buffers, its
    ``.buffer`` may be another stream altogether, and only a read on the layers below it passes a size on."""
    h = f.site.handed
    if h is None or io.DEFAULT_BUFFER_SIZE % k or not text_outer(h):
        return ""
    raw, buffered = raw_path(h)
    if not raw:
        return ""
    method, bad = roles.function_name(f), _bad_count(k)
    own = own_buffer(h)
    binary = (f"; its `.buffer` is not the buffered layer above this reader but what `{h.builder}` was given "
              f"(`{own}`{buffer_origin(h)}, which `{h.handed_class}.__init__` keeps as `.buffer`), so binary reads from "
              "`.buffer` never reach this reader" if own else "")
    detach = (f", which `.detach()` also returns, since `{h.handed_class}.__getattr__` passes `detach` on to the "
              "text layer" if h.delegates else "")
    return (f"Where your code reads from the object {callee(f)} returns, read through that object: its text reads "
            f"(`.read()`, `.readline()`, iterating over it) reach `{h.raw_class}.{method}` only through Python's "
            f"buffered layer, which asks for whole buffers of `io.DEFAULT_BUFFER_SIZE` ({io.DEFAULT_BUFFER_SIZE}) "
            f"bytes{binary}. What raises it is a read of {bad} that reaches `{method}` itself: a `read` or "
            f"`{method}` on the raw reader below that object (its `{raw}`), or a `read1(n)`, or a `readinto(b)` of "
            f"more than {io.DEFAULT_BUFFER_SIZE} bytes, on the buffered layer above it (its `{buffered}`{detach}); "
            "it raises on that read, not at the call.")


def layer_uses(f: Facts) -> str:
    """Solution 1's "what decides it" for a sized reader under known layers (rating 15, eb3a: "how your code uses
    that object (the reads it asks for)" said nothing a reader could act on): which layer the read goes through."""
    h = f.site.handed
    k = size_multiple(f)
    if h is None or not k or io.DEFAULT_BUFFER_SIZE % k or not text_outer(h) or not (raw := raw_path(h)[0]):
        return ""
    return (f"which layer your reads go through. A read on the raw reader below it (its `{raw}`) passes its size "
            f"straight to `{roles.function_name(f)}`; a read through the object itself does not. The raise comes on "
            f"that read, not at the call of {callee(f)}")


def buffer_origin(h: HandedStream) -> str:
    """": `getattr(f, "buffer", None)` in `_get_windows_console_stream`, the `.buffer` of the `f` it was given"" or "":
    what the factory passes the builder for the parameter the handed-out class keeps as ``.buffer``."""
    expr = dict(h.passed).get(own_buffer(h), "")
    if not expr or not h.factory:
        return ""
    m = re.fullmatch(r"getattr\((\w+), ['\"]buffer['\"](?:, None)?\)|(\w+)\.buffer", expr)
    of = f", the `.buffer` of the `{m.group(1) or m.group(2)}` it was given" if m else ""
    return f": `{expr}` in `{h.factory}`{of}"


def _bad_count(k: int) -> str:
    return "an odd byte count" if k == 2 else f"a byte count that is not a multiple of {k}"


def handed_when(f: Facts) -> str:
    """", and only when `_get_windows_console_stream` (`click/_winconsole.py:272`) hands that object out: ..."
    from the factory's early ``return None`` checks (``extract.handedstream``); "" without them."""
    h = f.site.handed
    if h is None or not h.factory or not h.handed_when or not roles.handed_use(f):
        return ""
    return (f"only when `{h.factory}` (`{f.site.path}:{h.factory_line}`) hands that object out, which it does only "
            f"if all of these hold (otherwise it returns `None` and no `{h.raw_class}` is built): "
            + "; ".join(_condition_words(c) for c in h.handed_when))


def _condition_words(cond: str) -> str:
    """The condition as code, with plain words for the two forms that have them: ``x in {a, b}`` and ``is_x(y)``."""
    if (m := re.fullmatch(r"(\w+) in \{(.+)\}", cond)):
        return f"`{m.group(1)}` is " + " or ".join(f"`{v.strip()}`" for v in m.group(2).split(","))
    if (m := re.fullmatch(r"_?is_(\w+)\((\w+)\)", cond)):
        return f"`{cond}` (`{m.group(2)}` is a {m.group(1).replace('_', ' ')})"
    return f"`{cond}`"


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
    and the page shows this one labelled as not run (rating 13, eb3a: E absent).  With the module's layers known
    (rating 15), a Before (the read on the raw reader that raises) and an After (the read through the object).
    ("", "") otherwise."""
    k = size_multiple(f)
    if not k or io.DEFAULT_BUFFER_SIZE % k or not f.site.requires or not f.public_path.entries:
        return "", ""
    if _holds_here(f.site.requires):
        return "", ""  # it could run here: a proof is the way, not a sample errdex has not run
    why = (f"`{f.site.path}` checks `{f.site.requires}` when it is imported (line {f.site.requires_line}), and errdex "
           f"runs {package(f)}'s code only in its sandbox on this machine (`sys.platform` is `{sys.platform}`), "
           "where that object is never built")
    if (pair := _before_after(f, k)):
        return pair, why + "; neither the Before nor the After has been run"
    code = (f"def read_line(stream):\n"
            f"    # `stream`: what {entry_words(f)} returns\n"
            f"    # a text read: Python's buffered layer asks its `{roles.function_name(f)}` for whole "
            f"{io.DEFAULT_BUFFER_SIZE}-byte buffers,\n"
            f"    # never {_bad_count(k)}\n"
            "    return stream.readline()\n")
    return code, why


def _before_after(f: Facts, k: int) -> str:
    h = f.site.handed
    if h is None or not text_outer(h):
        return ""
    raw, _buffered = raw_path(h)
    if not raw:
        return ""
    method = roles.function_name(f)
    layers = [f"`{n}`" for n in reversed(h.layers)]
    held = (f"`{h.handed_class}.{h.handed_attr}` is a {layers[0]}, its `.buffer` an {layers[1]}" if h.handed_class
            else f"the object is a {layers[0]}, its `.buffer` an {layers[1]}")
    own = own_buffer(h)
    after_bytes = ("\n\n"
                   "def read_byte(stream):\n"
                   f"    # `stream.buffer` is not that reader: `{h.handed_class}.__init__` keeps `{h.builder}`'s "
                   f"`{own}` there\n"
                   "    return stream.buffer.read(1)\n") if own else ""
    return (f"# Before: a read on the raw reader below what {entry_words(f)} returns\n"
            "def read_char(stream):\n"
            f"    raw = stream{raw}  # the `{h.raw_class}` ({held})\n"
            f"    return raw.read(1)  # asks its `{method}` for 1 byte, {_bad_count(k)}: {f.exception.name}\n"
            "\n\n"
            "# After: read through the object itself\n"
            "def read_char(stream):\n"
            f"    # a text read: Python's buffered layer asks its `{method}` for whole {io.DEFAULT_BUFFER_SIZE}-byte "
            "buffers\n"
            "    return stream.read(1)\n" + after_bytes)


def _holds_here(requires: str) -> bool:
    """Whether this machine meets the module's platform check (an equality or inequality on ``sys.platform``
    or ``os.name``, as ``extract.platformcheck`` records it); unknown forms count as not met."""
    m = re.fullmatch(r"(sys\.platform|os\.name)\s*(==|!=)\s*(['\"])(\w+)\3", requires.strip())
    if m is None:
        return False
    here = sys.platform if m.group(1) == "sys.platform" else os.name
    return (here == m.group(4)) == (m.group(2) == "==")
