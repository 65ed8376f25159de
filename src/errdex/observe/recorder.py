"""The recorder: a pytest plugin that writes down every exception raised inside the library.

This file runs INSIDE the sandboxed environment (``-p errdex_recorder``; the
parent copies it there under that name), on the library's Python, which may
be 3.9: standard library only, no syntax newer than 3.9, nothing from errdex.

What it records: each exception whose *origin* frame (the frame where it was
raised: a ``raise`` statement, or a call into C such as ``int('x')``) is in
one of the library's files, including those the library catches itself.
Per event: the origin (package-relative path, line), how it was raised
(``raise`` or ``native``), the exception's class and MRO (qualified), the real
message (bounded), the pytest node id, whether it escaped the library (seen
in a frame outside it), and the call chain from the test into the library
whose outermost library frame is the entry point, with bounded reprs and
types of that frame's arguments.

How: on Python 3.12+ ``sys.monitoring`` RAISE events (the callback runs
only when something raises; the first event of an exception, in its origin
frame, has a one-entry traceback; later events in outer frames tell whether
it left the library).  On 3.9-3.11, ``sys.settrace`` with line events off:
only library frames get a local tracer, which sees ``exception`` events
(``sys.setprofile`` cannot: it has no event for exceptions in Python
frames).  The price of the fallback is one Python call per function call
(docs/observe.md has the measured slowdown).

Output: JSON lines appended to ``$ERRDEX_OBSERVE_OUT`` after each test, the
events of one test aggregated with counts, and one ``test`` line per test
(node id, file, line, outcome).
"""

from __future__ import annotations

import dis
import json
import os
import sys
import threading
from typing import Any

OUT = os.environ.get("ERRDEX_OBSERVE_OUT", "")
ROOTS = tuple(p for p in os.environ.get("ERRDEX_OBSERVE_ROOTS", "").split(os.pathsep) if p)
BASES = tuple(p for p in os.environ.get("ERRDEX_OBSERVE_BASES", "").split(os.pathsep) if p)
MODE = os.environ.get("ERRDEX_OBSERVE_MODE", "auto")
PROJECT = os.environ.get("ERRDEX_OBSERVE_PROJECT", "")
MAX_MESSAGE = 2000
MAX_REPR = 120
MAX_PENDING = 20000
MAX_DISTINCT_PER_TEST = 2000
CHAIN_EDGE = 10  # frames kept at each end of a long chain
TOOL_ID = 4
_RAISE_OPS = {dis.opmap[n] for n in ("RAISE_VARARGS",) if n in dis.opmap}

_lib_cache: dict[Any, str] = {}  # code object -> package-relative path, or "" when not the library's
_recorded: list[dict[str, Any]] = []  # every origin event of the current test, in order
_pending: dict[int, dict[str, Any]] = {}  # id(exception) -> event dict, for the current test
_state: dict[str, Any] = {"test": "", "phase": "collect", "test_codes": frozenset(), "busy": False,
                         "outcomes": {}}
_lock = threading.Lock()
_tests_done = 0


def _relpath(filename: str) -> str:
    """The package-relative path of a library file, or "" when the file is not the library's."""
    if not filename.startswith(ROOTS):
        return ""
    for base in BASES:
        if filename.startswith(base + os.sep):
            return filename[len(base) + 1:].replace(os.sep, "/")
    return filename


def _lib(code: Any) -> str:
    rel = _lib_cache.get(code)
    if rel is None:
        rel = _relpath(code.co_filename)
        _lib_cache[code] = rel
    return rel


def _qual(cls: Any) -> str:
    mod = str(getattr(cls, "__module__", "") or "")
    name = str(getattr(cls, "__qualname__", None) or getattr(cls, "__name__", "?"))
    return name if mod in ("builtins", "") else mod + "." + name


def _func(frame: Any) -> str:
    code = frame.f_code
    name = str(getattr(code, "co_qualname", code.co_name))
    mod = frame.f_globals.get("__name__", "") if isinstance(frame.f_globals, dict) else ""
    return (str(mod) + "." + name) if mod else name


_SIMPLE = (int, float, bool, complex, type(None), str, bytes)


def _safe_repr(value: Any, depth: int = 0) -> str:
    """A bounded repr that never calls the library's own ``__repr__`` (which may compute, or fail)."""
    if isinstance(value, _SIMPLE):
        text = repr(value)
    elif isinstance(value, (list, tuple, set, frozenset)) and depth < 2:
        items = [_safe_repr(v, depth + 1) for v in list(value)[:6]]
        more = ", ..." if len(value) > 6 else ""
        if isinstance(value, list):
            text = "[" + ", ".join(items) + more + "]"
        elif isinstance(value, tuple):
            text = "(" + ", ".join(items) + ("," if len(items) == 1 else "") + more + ")"
        else:
            text = "{" + ", ".join(items) + more + "}"
    elif isinstance(value, dict) and depth < 2:
        items = [_safe_repr(k, depth + 1) + ": " + _safe_repr(v, depth + 1) for k, v in list(value.items())[:6]]
        text = "{" + ", ".join(items) + (", ..." if len(value) > 6 else "") + "}"
    elif callable(value) and hasattr(value, "__qualname__"):
        text = "<" + _qual(type(value)) + " " + str(getattr(value, "__qualname__", "")) + ">"
    else:
        text = "<" + _qual(type(value)) + ">"
    return text if len(text) <= MAX_REPR else text[: MAX_REPR - 3] + "..."


def _args(frame: Any) -> list[dict[str, str]]:
    code = frame.f_code
    n = code.co_argcount + code.co_kwonlyargcount
    names = list(code.co_varnames[:n])
    flags = code.co_flags
    if flags & 0x04:
        names.append(code.co_varnames[n])
        n += 1
    if flags & 0x08:
        names.append(code.co_varnames[n])
    try:
        local = frame.f_locals
    except Exception:
        return []
    out = []
    for name in names[:12]:
        if name not in local:
            continue
        value = local[name]
        rep = "<" + _qual(type(value)) + ">" if name in ("self", "cls") else _safe_repr(value)
        out.append({"name": name, "type": _qual(type(value)), "repr": rep})
    return out


def _chain(frame: Any) -> tuple[list[dict[str, Any]], Any]:
    """Frames from the test (or the outermost frame reached) down to the origin, bounded."""
    frames: list[Any] = []
    f = frame
    test_codes = _state["test_codes"]
    while f is not None and len(frames) < 400:
        frames.append(f)
        if f.f_code in test_codes:
            break
        f = f.f_back
    frames.reverse()  # test first
    if test_codes and frames[0].f_code not in test_codes:
        # No test frame (collection, a fixture, a thread): start at the outermost library frame.
        for i, fr in enumerate(frames):
            if _lib(fr.f_code):
                frames = frames[i:]
                break
    if frames and _lib(frames[0].f_code) and _state.get("test_file"):
        # The outermost test frame is a wrapper in the library's own test utilities that calls the
        # test: the test is the first frame of the test's file below it, and the library's entry
        # (and whether the library caught the error itself) is taken below the test, not at the wrapper.
        for i, fr in enumerate(frames):
            if fr.f_code.co_filename == _state["test_file"]:
                frames = frames[i:]
                break
    entry = None
    for fr in frames:
        if _lib(fr.f_code):
            entry = fr
            break
    kept = frames if len(frames) <= 2 * CHAIN_EDGE else frames[:CHAIN_EDGE] + frames[-CHAIN_EDGE:]
    chain = []
    for fr in kept:
        rel = _lib(fr.f_code)
        where = rel or fr.f_code.co_filename
        if not rel and PROJECT and where.startswith(PROJECT + os.sep):
            where = where[len(PROJECT) + 1:]
        chain.append({"func": _func(fr), "path": where, "line": fr.f_lineno, "lib": bool(rel)})
    return chain, entry


def _message(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception as err:  # a broken __str__ is itself worth knowing
        text = "<str() failed: " + type(err).__name__ + ">"
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + "..."


def _origin(frame: Any, rel: str, exc: BaseException, raised_by: str) -> None:
    if len(_recorded) >= MAX_PENDING:
        return
    chain, entry = _chain(frame)
    # "Escaped" means: reached a caller of the entry (the test, pytest), not merely a non-library
    # frame inside the library's own call (contextlib, a user callback the library catches around).
    ancestors: set[int] = set()
    f = entry.f_back if entry is not None else None
    while f is not None and len(ancestors) < 200:
        ancestors.add(id(f))
        f = f.f_back
    # Keyed by id(): a freed exception's id can be reused by a later one, which then takes the key;
    # the earlier event stays recorded in ``_recorded``.
    ev = _pending[id(exc)] = {
        "path": rel,
        "line": frame.f_lineno,
        "raised_by": raised_by,
        "exception": _qual(type(exc)),
        "mro": [_qual(c) for c in type(exc).__mro__ if c is not object],
        "message": _message(exc),
        "escaped": False,
        "entry": _func(entry) if entry is not None else "",
        "args": _args(entry) if entry is not None else [],
        "chain": chain,
        "_type": type(exc),
        "_ancestors": ancestors,
        "_entry": id(entry) if entry is not None else 0,
    }
    _recorded.append(ev)


def _escape(exc: BaseException, frame: Any) -> None:
    ev = _pending.get(id(exc))
    if ev is not None and ev["_type"] is type(exc) and id(frame) in ev["_ancestors"]:
        ev["escaped"] = True


# --------------------------------------------------------------------------- 3.12+: sys.monitoring


def _on_raise(code: Any, offset: int, exc: BaseException) -> None:
    if _state["busy"]:
        return
    rel = _lib(code)
    tb = getattr(exc, "__traceback__", None)
    if rel and tb is not None and tb.tb_next is None:
        _state["busy"] = True
        try:
            raw = code.co_code
            op = raw[offset] if 0 <= offset < len(raw) else -1
            _origin(sys._getframe(1), rel, exc, "raise" if op in _RAISE_OPS else "native")
        except Exception:
            pass
        finally:
            _state["busy"] = False
    elif not rel and _pending:
        _escape(exc, sys._getframe(1))


def _on_reraise(code: Any, offset: int, exc: BaseException) -> None:
    if _pending and not _lib(code):
        _escape(exc, sys._getframe(1))


def _start_monitoring() -> None:
    mon = sys.monitoring
    mon.use_tool_id(TOOL_ID, "errdex-recorder")
    mon.register_callback(TOOL_ID, mon.events.RAISE, _on_raise)
    mon.register_callback(TOOL_ID, mon.events.RERAISE, _on_reraise)
    mon.set_events(TOOL_ID, mon.events.RAISE | mon.events.RERAISE)


# --------------------------------------------------------------------------- 3.9-3.11: sys.settrace

_last_exc: dict[int, tuple[int, int]] = {}  # id(frame) -> (id(exception), line) of the last exception event in that frame


def _local(frame: Any, event: str, arg: Any) -> Any:
    if event == "exception":
        exc = arg[1]
        tb = arg[2]
        # GeneratorExit is thrown into a suspended generator by close(): no raise of the library's
        # (sys.monitoring reports it as PY_THROW, not RAISE; both modes record the same events).
        if tb is not None and tb.tb_next is None and not _state["busy"] and not isinstance(exc, GeneratorExit):
            _state["busy"] = True
            try:
                code = frame.f_code
                raw = code.co_code
                op = raw[frame.f_lasti] if 0 <= frame.f_lasti < len(raw) else -1
                _origin(frame, _lib(code), exc, "raise" if op in _RAISE_OPS else "native")
            except Exception:
                pass
            finally:
                _state["busy"] = False
        _last_exc[id(frame)] = (id(exc), frame.f_lineno)
    elif event == "return":
        last = _last_exc.pop(id(frame), None)
        # Leaving the entry frame at the line where an exception arrived, with no value: the
        # exception propagates out of the library into its caller.
        if last is not None and arg is None and last[1] == frame.f_lineno:
            ev = _pending.get(last[0])
            if ev is not None and ev["_entry"] == id(frame):
                ev["escaped"] = True
    return _local


def _global(frame: Any, event: str, arg: Any) -> Any:
    if event != "call" or not _lib(frame.f_code):
        return None
    frame.f_trace_lines = False
    return _local


def _start_tracing() -> None:
    threading.settrace(_global)
    sys.settrace(_global)


# --------------------------------------------------------------------------- output


def _write(lines: list[dict[str, Any]]) -> None:
    if not OUT or not lines:
        return
    with _lock, open(OUT, "a", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")


def _flush(test: str) -> None:
    """Aggregate the pending events of ``test`` with counts and append them to the output."""
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for ev in list(_recorded):
        key = (ev["path"], ev["line"], ev["exception"], ev["message"], ev["escaped"], ev["entry"])
        got = groups.get(key)
        if got is not None:
            got["count"] += 1
        elif len(groups) < MAX_DISTINCT_PER_TEST:
            ev = dict(ev)
            for private in ("_type", "_ancestors", "_entry"):
                ev.pop(private, None)
            ev["type"] = "event"
            ev["test"] = test
            ev["count"] = 1
            groups[key] = ev
    _pending.clear()
    _recorded.clear()
    _last_exc.clear()
    _write(list(groups.values()))


def mode() -> str:
    if MODE in ("monitoring", "trace"):
        return MODE
    return "monitoring" if hasattr(sys, "monitoring") else "trace"


# Recording starts when pytest loads this plugin (before collection imports the test modules).
if ROOTS:
    if mode() == "monitoring":
        _start_monitoring()
    else:
        _start_tracing()
    _write([{"type": "start", "python": sys.version.split()[0], "mode": mode(), "pid": os.getpid()}])


def pytest_collectstart(collector: Any) -> None:
    _state["test"] = ""
    _state["phase"] = "collect"


def pytest_collectreport(report: Any) -> None:
    if _recorded:
        _flush("<collect>::" + str(report.nodeid))


def pytest_runtest_logstart(nodeid: str, location: Any) -> None:
    if _recorded:
        _flush("<collect>")
    _state["test"] = nodeid


def _wrapped_codes(obj: Any) -> set[Any]:
    """The code of ``obj`` and of the functions it wraps: ``__wrapped__`` (functools.wraps) and the
    functions a library wrapper closes over (jax's ``with_explicit_mesh`` wrapper keeps the test
    only in its closure)."""
    codes = set()
    todo = [obj, getattr(obj, "__func__", None)]
    seen: set[int] = set()
    while todo and len(seen) < 20:
        fn = todo.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        fn = getattr(fn, "__func__", fn)
        code = getattr(fn, "__code__", None)
        if code is not None:
            codes.add(code)
        todo.append(getattr(fn, "__wrapped__", None))
        if code is None or not _lib(code):
            continue  # only a wrapper of the library's own is looked into (not a test's helpers)
        for cell in getattr(fn, "__closure__", None) or ():
            try:
                inner = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if callable(inner) and getattr(getattr(inner, "__func__", inner), "__code__", None) is not None:
                todo.append(inner)
    return codes


def pytest_runtest_setup(item: Any) -> None:
    # A test decorated by the library's own helpers (jax's test_util wrappers) is called through
    # those wrappers: the test's code is the wrapped function's, not only the wrapper's.
    _state["test_codes"] = frozenset(_wrapped_codes(getattr(item, "obj", None)))
    _state["test_file"] = str(getattr(item, "path", None) or getattr(item, "fspath", "") or "")


def pytest_runtest_logreport(report: Any) -> None:
    if report.when == "call" or report.outcome != "passed":
        _state["outcomes"][report.nodeid] = report.outcome


def pytest_runtest_logfinish(nodeid: str, location: Any) -> None:
    global _tests_done
    _flush(nodeid)
    _tests_done += 1
    outcome = _state["outcomes"].pop(nodeid, "passed")
    path, line = location[0], (location[1] or 0) + 1
    test_file = _state.get("test_file") or ""
    if test_file and (path.startswith(("../", "/")) or "site-packages" in path):
        # pytest located a decorated test at its wrapper in the library: the test's own code says where it is
        for code in _state["test_codes"]:
            if code.co_filename == test_file:
                line = code.co_firstlineno
                path = os.path.relpath(test_file, PROJECT) if PROJECT else test_file
                break
    _write([{"type": "test", "test": nodeid, "path": path, "line": line, "outcome": outcome}])
    _state["test"] = ""
    _state["test_codes"] = frozenset()
    _state["test_file"] = ""


def pytest_sessionfinish(session: Any, exitstatus: Any) -> None:
    if _recorded:
        _flush(_state["test"] or "<session>")
    _write([{"type": "end", "tests": _tests_done, "exitstatus": int(exitstatus)}])
