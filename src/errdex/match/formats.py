"""The pytest and IPython dialects of a traceback (``traceback.py`` dispatches here)."""

from __future__ import annotations

import re

from errdex.match import lines as L
from errdex.match.model import Frame, ParsedException, Role

_DEF = re.compile(r"^\s*(?:async\s+)?def (\w+)\(")
# --tb=line: "/x/test_a.py:6: ValueError: bad"
_PYTEST_LINE = re.compile(r"^(?P<path>[^\s:][^:]*\.py):(?P<line>\d+): (?P<type>[A-Za-z_][\w.]*): (?P<msg>.*)$")


def ipython_frames(block: list[str]) -> tuple[list[Frame], int]:
    """Frames of an IPython/Jupyter traceback block and the index of the last frame line."""
    frames: list[Frame] = []
    last = -1
    for i, ln in enumerate(block):
        m = L.IPY_CELL.match(ln[:L.MAXLEN])
        path = ""
        if m is not None:
            path = f"Cell In[{m.group('cell')}]"
        else:
            m = L.IPY_FRAME.match(ln[:L.MAXLEN])
            if m is not None:
                path = m.group("path")
        if m is not None:
            line = int(m.group("line"))
            frames.append(Frame(path, line, m.group("func") or "", _arrow_code(block, i)))
            last = i
            continue
        m7 = L.IPY7_FRAME.match(ln[:L.MAXLEN])
        if m7 is not None:
            line7, code = _arrow_line(block, i)
            frames.append(Frame(m7.group("path"), line7, m7.group("func"), code))
            last = i
    # the code shown under the last frame belongs to it: skip past it
    while last >= 0 and last + 1 < len(block) and (block[last + 1][:1] in (" ", "-") and block[last + 1].strip()):
        last += 1
    return frames, last


def _arrow_code(block: list[str], i: int) -> str:
    return _arrow_line(block, i)[1]


def _arrow_line(block: list[str], i: int) -> tuple[int | None, str]:
    for ln in block[i + 1 : i + 40]:
        m = L.IPY_ARROW.match(ln[:L.MAXLEN])
        if m is not None:
            return int(m.group("line")), m.group("code").strip()
        if not ln.strip():
            break
    return None, ""


def pytest_parse(lines: list[str]) -> list[ParsedException]:
    """pytest's long/short/line reports: frames from ``path:line:`` lines, exceptions from ``E`` lines."""
    out: list[ParsedException] = []
    frames: list[Frame] = []
    e_lines: list[str] = []
    line_excs: list[ParsedException] = []
    func = ""
    code = ""

    def flush(final_role: Role) -> None:
        if not e_lines:
            return
        exc = _from_e_lines(e_lines, tuple(frames), final_role)
        out.append(exc)
        e_lines.clear()

    pending_role: Role = "primary"
    for ln in lines:
        s = ln.strip()
        if s in (L.CHAIN_CAUSE, L.CHAIN_CONTEXT):
            flush("cause" if s == L.CHAIN_CAUSE else "context")
            frames = []
            pending_role = "primary"
            continue
        if L.is_e_line(ln):
            e_lines.append(ln[1:].lstrip(" "))
            continue
        m_def = _DEF.match(ln[:L.MAXLEN])
        if m_def is not None:
            func = m_def.group(1)
        if ln.startswith(">"):
            code = ln[1:].strip()
        m_loc = L.PYTEST_LOC.match(ln[:L.MAXLEN])
        if m_loc is not None:
            frames.append(Frame(m_loc.group("path"), int(m_loc.group("line")), m_loc.group("func") or func, code))
            func, code = "", ""
            continue
        fr = L.frame_of(ln)
        if fr is not None:
            frames.append(fr)
            continue
        m_line = _PYTEST_LINE.match(s[:L.MAXLEN])
        if m_line is not None and L.looks_like_exception(m_line.group("type")):
            fr2 = Frame(m_line.group("path"), int(m_line.group("line")))
            frames.append(fr2)
            line_excs.append(ParsedException(m_line.group("type"), s[m_line.start("msg") :], (fr2,)))
    flush(pending_role)
    return out or line_excs


def _from_e_lines(e_lines: list[str], frames: tuple[Frame, ...], role: Role) -> ParsedException:
    text = list(e_lines)
    while text and not text[-1].strip():
        text.pop()
    first = text[0].strip() if text else ""
    parsed = L.exception_line(first)
    if parsed is None:
        # pytest's assertion rewriting: "E   assert 1 == 2"
        etype = "AssertionError" if first.startswith("assert ") else ""
        return ParsedException(etype, "\n".join(t.rstrip() for t in text).strip(), frames, role=role)
    rest = [t.rstrip() for t in text[1:]]
    message = "\n".join([parsed[1], *rest]).strip("\n")
    return ParsedException(parsed[0], message, frames, role=role)
