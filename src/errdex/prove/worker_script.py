"""Run INSIDE the sandbox by the environment's Python, never imported by errdex (it imports the library).

A batch worker: imports the library once (``argv[1]``, the package), then runs each script of the
batch (``argv[2]``, a JSON list of ``{"script", "out", "err", "cwd", "timeout"}``) in a forked child, so
every example starts from the state right after ``import <package>`` (fresh module state: the
parent never runs an example) without paying for interpreter start-up and the import each time.
Results (``argv[3]``): ``[{"rc": int}]`` in order; stdout/stderr go to the files named.  The child
prints an uncaught exception's traceback as Python would (the worker's own frame left out) and
exits 1.  Where fork is missing or the import fails, each script runs as a fresh process instead.
``--serve PACKAGE INBOX``: the same, persistent: it imports once and answers batches dropped in INBOX
until a ``stop`` file appears (``pool.py``).  ``--one SCRIPT RAISES``: one script in this process, printed
the same way (``verify --execute`` of a proof that needs the raises below).
An item with ``"raises": PATH`` (or ``--one``'s RAISES) also records where each exception the script
raised started (its origin frame's file and line, its class, and ``"raised"``), one JSON list per line
in PATH, and, for the exception that ended the script, where each exception it was raised while handling
started (``"under"``: its ``__context__`` chain, kept even when ``from None`` hides it from the
traceback): an error the library raises and catches itself leaves no traceback, so this is how a proof
sees that it was raised, and that what the user saw was raised because of it.
Standard library only; Python 3.9+.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import traceback
import warnings
from typing import Any


def _watch_raises(path: str) -> None:
    """Record each exception's origin (file, line, class) into ``path`` when the script ends
    (Python 3.12+: ``sys.monitoring``'s RAISE event; at the origin the traceback has one entry)."""
    mon = getattr(sys, "monitoring", None)
    if mon is None:
        return
    seen: set[tuple[str, int, str, str]] = set()

    def on_raise(code: Any, offset: int, exc: BaseException) -> None:
        tb = exc.__traceback__
        if tb is not None and tb.tb_next is None and len(seen) < 20000:
            seen.add((code.co_filename, tb.tb_lineno, type(exc).__qualname__, "raised"))

    def write() -> None:
        mon.set_events(tool, 0)
        with open(path, "w", encoding="utf-8") as f:
            for item in sorted(seen | set(_UNDER)):
                f.write(json.dumps(list(item)) + "\n")

    tool = 4  # a free tool id (0-2 and 5 are the debugger's, coverage's, profiler's and optimizer's)
    try:
        mon.use_tool_id(tool, "errdex-raises")
    except ValueError:  # taken: nothing recorded, so the proof that needs it does not hold
        return
    mon.register_callback(tool, mon.events.RAISE, on_raise)
    mon.set_events(tool, mon.events.RAISE)
    _AT_END.append(write)


_AT_END: list[Any] = []
_UNDER: list[tuple[str, int, str, str]] = []  # origins of what the uncaught exception was raised while handling


def _note_context(exc: BaseException) -> None:
    """The origins (innermost traceback entry) of the exceptions ``exc`` was raised while handling."""
    ctx, hops = exc.__context__, 0
    while ctx is not None and hops < 20:
        tb = ctx.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is not None:
            _UNDER.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno, type(ctx).__qualname__, "under"))
        ctx, hops = ctx.__context__, hops + 1


def _child(script: str, raises: str = "") -> int:
    try:
        if raises:
            _watch_raises(raises)
        return _exec(script)
    finally:
        for fn in _AT_END:
            fn()


def _exec(script: str) -> int:
    warnings.simplefilter("default")
    sys.argv = [script]
    with open(script, encoding="utf-8") as f:
        code = compile(f.read(), script, "exec")
    try:
        exec(code, {"__name__": "__main__", "__file__": script, "__builtins__": __builtins__})
    except SystemExit as exc:
        c = exc.code
        if c is None:
            return 0
        if isinstance(c, int):
            return c
        print(c, file=sys.stderr)
        return 1
    except BaseException as exc:  # printed like the interpreter prints it, without this frame
        _note_context(exc)
        traceback.print_exception(type(exc), exc, exc.__traceback__.tb_next if exc.__traceback__ else None)
        return 1
    return 0


def _forked(item: dict[str, Any]) -> int:
    pid = os.fork()
    if pid == 0:  # the child: fresh state from the imported parent
        rc = 1
        try:
            out = os.open(item["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            err = os.open(item["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(out, 1)
            os.dup2(err, 2)
            sys.stdout = os.fdopen(1, "w", buffering=1)
            sys.stderr = os.fdopen(2, "w", buffering=1)
            os.setpgid(0, 0)
            os.makedirs(item["cwd"], exist_ok=True)
            os.chdir(item["cwd"])  # each example its own working directory
            rc = _child(item["script"], item.get("raises", ""))
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(rc if 0 <= rc < 256 else 1)
    deadline = time.monotonic() + float(item.get("timeout", 30))
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8
        if time.monotonic() > deadline:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return -9
        time.sleep(0.005)


def _fresh(item: dict[str, Any]) -> int:
    with open(item["out"], "w") as out, open(item["err"], "w") as err:
        try:
            os.makedirs(item["cwd"], exist_ok=True)
            argv = [sys.executable, item["script"]]
            if item.get("raises"):
                argv = [sys.executable, os.path.abspath(__file__), "--one", item["script"], item["raises"]]
            p = subprocess.run(argv, stdout=out, stderr=err, cwd=item["cwd"],
                               timeout=float(item.get("timeout", 30)), check=False,
                               env={**os.environ, "PYTHONWARNINGS": "default"})
        except subprocess.TimeoutExpired:
            return -9
    return p.returncode


def _mode(package: str) -> str:
    try:
        __import__(package)
    except Exception:
        return "fresh"
    return "fork" if hasattr(os, "fork") else "fresh"


def _run_batch(batch: list[dict[str, Any]], mode: str, result_path: str) -> None:
    results = []
    for item in batch:
        sys.stdout.flush()
        sys.stderr.flush()
        rc = _forked(item) if mode == "fork" else _fresh(item)
        results.append({"rc": rc, "mode": mode})
        tmp = result_path + ".part"
        with open(tmp, "w", encoding="utf-8") as f:  # after each: a killed batch keeps what ran
            json.dump(results, f)
        os.replace(tmp, result_path)


def serve(package: str, inbox: str) -> None:
    """The persistent worker: batches arrive as ``<n>.req.json`` in ``inbox``, each answered by
    ``<n>.res.json`` (complete when ``<n>.done`` appears); a ``stop`` file ends it."""
    mode = _mode(package)
    with open(os.path.join(inbox, "ready"), "w") as f:
        f.write(mode)
    while not os.path.exists(os.path.join(inbox, "stop")):
        reqs = sorted(n for n in os.listdir(inbox) if n.endswith(".req.json"))
        if not reqs:
            time.sleep(0.005)
            continue
        for name in reqs:
            path = os.path.join(inbox, name)
            with open(path, encoding="utf-8") as f:
                batch = json.load(f)
            os.unlink(path)
            stem = name[: -len(".req.json")]
            _run_batch(batch, mode, os.path.join(inbox, stem + ".res.json"))
            open(os.path.join(inbox, stem + ".done"), "w").close()


def main() -> None:
    if sys.argv[1] == "--one":
        rc = _child(sys.argv[2], sys.argv[3])
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(rc if 0 <= rc < 256 else 1)
    if sys.argv[1] == "--serve":
        serve(sys.argv[2], sys.argv[3])
        return
    package, batch_path, result_path = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(batch_path, encoding="utf-8") as f:
        batch = json.load(f)
    _run_batch(batch, _mode(package), result_path)


if __name__ == "__main__":
    main()
