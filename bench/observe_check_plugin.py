"""An independent recorder for bench/observe_check.py: plain ``sys.settrace``, nothing shared with
errdex's recorder.  Writes ``path:line`` of every frame of the library in which an exception
started (its traceback has one entry) while a ``raise`` instruction ran, one per line."""

import dis
import os
import sys
import threading

_OUT = os.environ["CHECK_OUT"]
_BASE = os.environ["CHECK_BASE"].rstrip("/") + "/"
_TOPS = tuple(_BASE + t for t in os.environ["CHECK_TOPS"].split(","))
_RAISE = dis.opmap["RAISE_VARARGS"]
_seen = set()


def _tracer(frame, event, arg):
    if event == "call":
        return _tracer if frame.f_code.co_filename.startswith(_TOPS) else None
    if event == "exception" and arg[2] is not None and arg[2].tb_next is None:
        code = frame.f_code
        if code.co_code[frame.f_lasti] == _RAISE:
            _seen.add((code.co_filename[len(_BASE):], frame.f_lineno))
    return _tracer


def _lines_off(frame, event, arg):
    result = _tracer(frame, event, arg)
    if result is not None:
        frame.f_trace_lines = False
    return result


sys.settrace(_lines_off)
threading.settrace(_lines_off)


def pytest_sessionfinish(session, exitstatus):
    with open(_OUT, "a") as f:
        for path, line in sorted(_seen):
            f.write(f"{path}:{line}\n")
