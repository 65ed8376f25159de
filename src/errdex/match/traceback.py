"""Parse what a user pasted (a traceback in any common dialect, or a message) into ``Parsed``.

Dialects: CPython (chains, ``ExceptionGroup`` trees, SyntaxError carets,
3.11+ ``~~~^^^`` markers, notes), pytest (``E   `` lines, ``--tb=long/short/
line/native``, the ``FAILED … - …`` summary), IPython/Jupyter (ANSI colours,
``Cell In[3], line 5``, ``--> 261`` arrows) and JAX (its filtered-traceback
note and the ``JaxStackTraceBeforeTransformation``/``UnfilteredStackTrace``
wrapper sections).  Anything else degrades to "a message": the parser never
raises on arbitrary text (a hypothesis test holds it to that).
"""

from __future__ import annotations

import re

from errdex.match import lines as L
from errdex.match.formats import ipython_frames, pytest_parse
from errdex.match.model import Frame, Parsed, ParsedException, Role

_MAX_LINES = 5000
_HEAD_LINES = 1000
_BANNERS = ("=====", "_____", "----- Captured", "FAILED ", "ERROR ")
_LOG_LEVEL = re.compile(r"\b(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\b")
_JAX_NOTE = "For simplicity, JAX has removed its internal frames"
_WRAPPERS = ("JaxStackTraceBeforeTransformation", "UnfilteredStackTrace")
_WRAPPER_TAILS = (
    "The preceding stack trace is the source of the JAX operation",
    "The stack trace below excludes JAX-internal frames.",
)


def parse(text: str) -> Parsed:
    """Understand ``text``: the reported exception, its frames, and the chain around it."""
    text = L.strip_ansi(text.replace("\r\n", "\n").replace("\r", "\n")).replace("\x00", "")
    lines = text.split("\n")
    if len(lines) > _MAX_LINES:
        # the exception line is at the end, the first frames at the start; a pasted log of
        # half a million lines must not cost a pass of every recogniser over each of them
        lines = lines[:_HEAD_LINES] + lines[-(_MAX_LINES - _HEAD_LINES) :]
    if not text.strip():
        return Parsed(format="empty")
    if any(L.IPY_HEADER.match(ln[:L.MAXLEN]) or L.IPY_CELL.match(ln[:L.MAXLEN]) for ln in lines):
        return _finish("ipython", _parse_blocks(lines, ipython=True))
    if any(L.is_e_line(ln) for ln in lines) and not any(ln.strip() == L.TB_HEAD for ln in lines):
        chain = pytest_parse(lines)
        if chain:
            return _finish("pytest", chain)
    if any(ln.lstrip(" |+").startswith((L.TB_HEAD, L.GROUP_HEAD)) or L.CPY_FRAME.match(ln[:L.MAXLEN]) for ln in lines):
        if any(ln.lstrip().startswith("+ " + L.GROUP_HEAD) for ln in lines):
            return _finish("cpython", _parse_group(lines))
        return _finish("cpython", _parse_blocks(lines, ipython=False))
    if any(L.PYTEST_LOC.match(ln[:L.MAXLEN]) for ln in lines):
        chain = pytest_parse(lines)
        if chain:
            return _finish("pytest", chain)
    return _finish("message", [_message_only(lines)])


# --------------------------------------------------------------------------- blocks


def _split_chain(lines: list[str]) -> list[tuple[list[str], Role]]:
    """Split at "The above exception…"/"During handling…": (block, how it links to the next)."""
    blocks: list[tuple[list[str], Role]] = []
    cur: list[str] = []
    for ln in lines:
        s = ln.strip()
        if s == L.CHAIN_CAUSE or s == L.CHAIN_CONTEXT:
            blocks.append((cur, "cause" if s == L.CHAIN_CAUSE else "context"))
            cur = []
        else:
            cur.append(ln)
    blocks.append((cur, "primary"))
    return blocks


def _parse_blocks(lines: list[str], *, ipython: bool) -> list[ParsedException]:
    out: list[ParsedException] = []
    for block, role in _split_chain(lines):
        exc = _parse_block(block, role, ipython=ipython)
        if exc is not None:
            out.append(exc)
    return out


def _parse_block(block: list[str], role: Role, *, ipython: bool) -> ParsedException | None:
    frames: list[Frame] = []
    last_frame = -1
    if ipython:
        frames, last_frame = ipython_frames(block)
    quoted = None if ipython else _quotes_traceback(block)
    if quoted is not None:
        # `OSError: Read crontab error: Traceback (most recent call last):` then another program's
        # frames: the message holds that traceback (a child process's stderr); its frames and last line
        # are text of the message, the frames above it the exception's own
        for i, ln in enumerate(block[:quoted]):
            fr = L.frame_of(ln)
            if fr is not None:
                frames.append(Frame(fr.path, fr.line, fr.function, _code_after(block, i)))
        return _exception_at(block, quoted, tuple(frames), role)
    for i, ln in enumerate(block):
        fr = L.frame_of(ln)
        if fr is not None:
            code = _code_after(block, i)
            frames.append(Frame(fr.path, fr.line, fr.function, code))
            last_frame = max(last_frame, i)
    start = _exception_start(block, last_frame)
    if start is None:
        return None
    return _exception_at(block, start, tuple(frames), role)


def _quotes_traceback(block: list[str]) -> int | None:
    """The line at the margin that ends in a traceback's header after a message's text (``Type: text:
    Traceback (most recent call last):``), followed by a frame: a message that quotes a traceback.  The
    line is an exception's (``Type: ...``), or the first line of a message pasted alone whose text ends
    in a colon before the header (``Read crontab error: Traceback ...``); a log line's prefix before a
    traceback of its own (``[ERROR] Traceback ...``) is neither.  The header may also open the line after
    the message's first (``f"...: {exc}\\n{traceback.format_exc()}"``, below)."""
    for i, ln in enumerate(block[:-1]):
        s = ln.rstrip()
        if ln[:1] in ("", " ", "\t") or not s.endswith(L.TB_HEAD) or L.frame_of(block[i + 1]) is None:
            continue
        head = s[: -len(L.TB_HEAD)].rstrip()
        if head and (L.exception_line(s) is not None or (i == 0 and head.endswith(":"))):
            return i
    for i, ln in enumerate(block[:-2]):
        # `f"With tag {tag} got exception: {exc}\n{traceback.format_exc()}"`: the header on the line after
        # the message's first, which holds the quoted traceback's own last text.  Python never starts a
        # chained traceback right after an exception's line (its chains print a sentence between), so a
        # `Type: text` line there is the message's; a message pasted alone (its first line) is one when
        # no logging level names it (`logging.exception` prints a record's line, then its traceback)
        if ln[:1] in ("", " ", "\t") or block[i + 1].rstrip() != L.TB_HEAD or L.frame_of(block[i + 2]) is None:
            continue
        if L.exception_line(ln.rstrip()) is not None or (i == 0 and _ends_with_quoted(ln, block[i + 2:])):
            return i
    indented = _quotes_indented(block)
    return indented if indented is not None else _quotes_stack(block)


def _quotes_indented(block: list[str]) -> int | None:
    """The line at the margin above an *indented* traceback's header and its frames: a message that embeds
    another exception's traceback indented under its text (``f"...referent:\\n{indent(format_exc())}"``,
    ``textwrap.indent``).  Python prints a traceback's header at the margin (an exception group's behind
    ``|``), so an indented one under a line of text is the message's; the line is an exception's (``Type:
    text``), or the message's first line when pasted alone, ending in a colon and naming no logging level
    (a log record's line before a traceback it indents is neither).  Only indented lines may lie between."""
    margin: int | None = None
    for j, ln in enumerate(block[:-1]):
        if not ln.strip():
            continue
        if ln[:1] not in (" ", "\t"):
            if L.frame_of(ln) is not None:
                return None  # a frame at the margin before any indented header: a traceback of its own
            margin = j
            continue
        if ln.strip() != L.TB_HEAD or margin is None or L.frame_of(block[j + 1]) is None:
            continue
        head = block[margin].rstrip()
        if L.exception_line(head) is not None or (margin == 0 and head.endswith(":") and not _LOG_LEVEL.search(head)):
            return margin
        return None
    return None


def _quotes_stack(block: list[str]) -> int | None:
    """The line at the margin whose message goes on with a formatted stack without a header
    (``"{}: {}".format(e, "".join(traceback.format_stack(frame)))``, ``f"{e}:\n{''.join(format_tb(tb))}"``):
    the line ends in a frame's text (the stack's first, glued to the message), or it is an exception's line
    after the frames, and a frame follows it.  Python prints no frame after an exception's line (a chain
    prints a sentence and a header first), so the frames there are text of the message; pasted alone, the
    first line is the message's when it ends in a frame's text."""
    seen_frame = False
    for i, ln in enumerate(block):
        if L.frame_of(ln) is not None:
            seen_frame = True
            continue
        if ln[:1] in ("", " ", "\t") or (i + 1 < len(block) and L.frame_of(block[i + 1]) is None):
            continue
        s = ln.rstrip()
        glued = L.GLUED_FRAME.search(s[: L.MAXLEN])
        if glued is not None and glued.start() > 0 and (seen_frame or i == 0 or L.exception_line(s) is not None):
            return i
        if glued is None and seen_frame and i + 1 < len(block) and L.exception_line(s, strict=False) is not None:
            return i
    return None


def _introduces_quote(above: list[str]) -> bool:
    """The lines above an indented line are a message's first line at the margin ending in a colon (naming no
    logging level), then only indented ones: the indented text is what the message quotes."""
    first = above[0].rstrip()
    return (first[:1] not in ("", " ", "\t") and first.endswith(":") and not _LOG_LEVEL.search(first)
            and all(ln[:1] in (" ", "\t") or not ln.strip() for ln in above[1:]))


def _detail_under_text(above: list[str]) -> bool:
    """The lines above an indented ``Type: text`` line are one line of text at the margin (no ``Type: text``
    line itself, naming no logging level), then only indented ones: a message whose first line is its own
    text and whose detail lines quote the error it caught (zope.configuration's ``Missing parameter:
    'no_default'\n    zope.schema._bootstrapinterfaces.RequiredMissing: no_default``).  Python prints an
    exception's line at the margin, never indented under text, so the text is not that class's message."""
    first = above[0].rstrip()
    return (first[:1] not in ("", " ", "\t") and not _LOG_LEVEL.search(first) and L.exception_line(first) is None
            and all(ln[:1] in (" ", "\t") or not ln.strip() for ln in above[1:]))


def _ends_with_quoted(first: str, quoted: list[str]) -> bool:
    """The message's first line ends with the quoted traceback's last line's text, and names no logging level."""
    if _LOG_LEVEL.search(first):
        return False
    last = next((ln.strip() for ln in reversed(quoted) if ln.strip() and ln[:1] not in (" ", "\t")), "")
    parsed = L.exception_line(last)
    return parsed is not None and bool(parsed[1].strip()) and first.rstrip().endswith(": " + parsed[1].strip())


def _code_after(block: list[str], i: int) -> str:
    if i + 1 < len(block):
        nxt = block[i + 1]
        if nxt.startswith("    ") and not L.CARET.match(nxt[: L.MAXLEN]) and L.frame_of(nxt) is None:
            return nxt.strip()
    return ""


def _exception_start(block: list[str], last_frame: int) -> int | None:
    """Index of the ``Type: message`` line: the first unindented line after the frames."""
    for i in range(last_frame + 1, len(block)):
        ln = block[i]
        if not ln.strip() or ln[0] in " \t" or L.CARET.match(ln[:L.MAXLEN]):
            continue
        if ln.strip() in (L.TB_HEAD, L.GROUP_HEAD) or ln.startswith("-----") or L.IPY_HEADER.match(ln[:L.MAXLEN]):
            continue
        if last_frame >= 0 or L.exception_line(ln) is not None:
            return i
    for i, ln in enumerate(block):
        if L.exception_line(ln.strip()) is not None and L.frame_of(ln) is None:
            return i
    return None


def _exception_at(block: list[str], start: int, frames: tuple[Frame, ...], role: Role) -> ParsedException:
    first = block[start].strip()
    parsed = L.exception_line(first, strict=not frames)
    etype, msg0 = parsed if parsed is not None else ("", first)
    rest = block[start + 1 :]
    for i, ln in enumerate(rest):
        if ln.startswith(_BANNERS):  # pytest's section rules after a --tb=native traceback
            rest = rest[:i]
            break
    while rest and not rest[-1].strip():
        rest.pop()
    message, notes = _split_notes("\n".join([msg0, *rest]) if rest else msg0)
    if etype.rsplit(".", 1)[-1] in _WRAPPERS:
        inner = L.exception_line(message.split("\n", 1)[0])
        body = message
        for tail in _WRAPPER_TAILS:
            body = body.split("\n\n" + tail, 1)[0]
        if inner is not None:
            etype = inner[0]
            message = (inner[1] + body[len(message.split("\n", 1)[0]) :]).strip("\n")
        role = "wrapper"
    return ParsedException(exception=etype, message=message, frames=frames, notes=notes, role=role)


def _split_notes(message: str) -> tuple[str, tuple[str, ...]]:
    """Cut JAX's filtered-traceback note (a ``----`` rule then its sentence) off the message."""
    idx = message.find("--------------------\n" + _JAX_NOTE)
    if idx < 0:
        return message, ()
    return message[:idx].rstrip("\n"), (message[idx + 21 :].strip(),)


# --------------------------------------------------------------------------- groups


def _parse_group(lines: list[str]) -> list[ParsedException]:
    """An ExceptionGroup tree, flattened: the group(s) first, then each member.

    Lines at the margin after the tree (``The above exception was the direct cause ...`` and the
    traceback of the exception raised from the group: trio's ``TrioInternalError`` from a nursery's
    group) are outside it: that exception is the reported one, and the group and its members are
    its cause."""
    out: list[ParsedException] = []
    sections: list[list[str]] = [[]]
    after: list[str] = []  # the lines after the tree, at the margin
    for ln in lines:
        s = ln.strip()
        if after or (len(sections) > 1 and s and ln[:1] not in (" ", "\t", "|", "+")):
            after.append(ln)
            continue
        if s.startswith("+-") and s.endswith("-") and "---" in s:
            sections.append([])
            continue
        body = ln.lstrip()
        if body[:1] in ("|", "+"):
            body = body[1:]
            body = body[1:] if body.startswith(" ") else body
        else:
            body = ln
        sections[-1].append(body)
    tail = _parse_blocks(after, ipython=False) if after else []
    for n, sec in enumerate(sections):
        for exc in _parse_blocks(sec, ipython=False):
            is_group = exc.exception_name.endswith("Group") or "sub-exception" in exc.message
            role: Role = "group" if is_group else ("group-member" if n > 0 else exc.role)
            out.append(ParsedException(exc.exception, exc.message, exc.frames, exc.notes, "cause" if tail else role))
    return out + tail


# --------------------------------------------------------------------------- no traceback


def _message_only(lines: list[str]) -> ParsedException:
    """``Type: message`` somewhere (maybe inside a log line), else the whole text as a message."""
    for i, ln in enumerate(lines):
        parsed = L.exception_line(ln.strip())
        if parsed is not None:
            if i and lines[i - 1][:1] in (" ", "\t") and lines[i - 1].strip():
                # after an indented line of other text (not a prompt or a log line at the margin): a message
                # that quotes another error's last line at its end (glom's `error raised while processing,
                # details below.\n - Spec: ...\nTypeError: expected spec ...`); the text before stays in the
                # message, so a site of the quoted line is no confident answer
                return ParsedException(parsed[0], "\n".join(lines).strip("\n"))
            if i and ln[:1] in (" ", "\t") and (_introduces_quote(lines[:i]) or _detail_under_text(lines[:i])):
                # indented under a first line at the margin that ends in a colon: the caught error's last line
                # quoted by the message (beartype's `f'{label} unparseable, as @beartype generated invalid code
                # raising:\n\t{label_exception_message(exception)}'`), as an indented traceback is above
                return ParsedException("", "\n".join(lines).strip("\n"))
            tail = [parsed[1], *lines[i + 1 :]]
            return ParsedException(parsed[0], "\n".join(tail).strip("\n"))
    for i, ln in enumerate(lines):
        m = L.PYTEST_SUMMARY.match(ln.strip()[: L.MAXLEN])
        if m and m.group("rest"):
            p = L.exception_line(m.group("rest"))
            if p is not None:
                return ParsedException(p[0], p[1])
        found = L.exception_in_line(ln)
        if found is not None:
            if L.enclosed(ln, found[1]):
                # `[NameError: ...]` closing the line: a message that quotes the error it caught in brackets
                # (formulaic's `Unable to evaluate factor `a`. [{type(e).__name__}: {e}]`), not a log line
                # introducing an error: the whole text is the message, of a type the paste does not name
                return ParsedException("", "\n".join(lines).strip())
            if i and ln[:1] in (" ", "\t") and lines[0].strip():
                # a class named inside an indented line under a first line of text: a message that quotes
                # another error in a detail line (omegaconf's `{msg}\n    full_key: <unresolvable due to
                # ConfigCycleDetectedException: ...>`), not a log line that introduces the error (those sit at
                # the margin); the whole text is the message, of a type the paste does not name
                return ParsedException("", "\n".join(lines).strip())
            tail = [found[1], *lines[i + 1 :]]
            return ParsedException(found[0], "\n".join(tail).strip("\n"))
    return ParsedException("", "\n".join(lines).strip())


def _finish(fmt: str, chain: list[ParsedException]) -> Parsed:
    if not chain:
        return Parsed(format="message")
    primary = _primary(chain)
    return Parsed(
        format=fmt,
        exception=primary.exception,
        message=primary.message,
        frames=primary.frames,
        notes=primary.notes,
        chain=tuple(chain),
    )


def _primary(chain: list[ParsedException]) -> ParsedException:
    members = [e for e in chain if e.role == "group-member"]
    if members:
        return members[0]
    for e in reversed(chain):
        if e.role != "wrapper":
            return e
    return chain[-1]
