"""Run INSIDE the sandbox beside ``search_script.py`` (and importable by errdex's tests): one call of the search
run as the script it would be, and whether it hit the site.  Python 3.10+, no dependency.

Split from ``search_script.py``: what a run is (``Search.run``: the source executed in an empty working
directory, stdout and stderr swallowed, a per-call time limit by ``SIGALRM``, the site's guard lines it reached
traced) and the two readings of its exception every part of the search asks for (``at_site``: the innermost
frame is the site's raise; ``got_past``: it ran a line of the site's file below the site).  ``Search`` also
holds one target's state across its entries (hits, clean calls, the after that keeps what raised).  The
entry's share of the budget is watched by ``on_budget`` (``SIGPROF``) against ``DEADLINE``.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import signal
import sys
import tempfile
import time
from typing import Any

if __package__:  # imported as a module of errdex's package (its checks and tests; the script when errdex is
    # importable): the package's files, so that every part shares one FRAME and one search_strategies state
    from errdex.prove.search_frame import FRAME
else:  # in the sandbox, imported by ``search_script.py`` as the file beside it (its folder is on the path)
    from search_frame import FRAME  # type: ignore[import-not-found,no-redef]


class Found(Exception):
    """The site was hit: stops Hypothesis's generation so that it shrinks this example."""


class CallTimeout(BaseException):
    pass


class OutOfTime(BaseException):
    """The entry's share of the budget is spent (Hypothesis itself can be what runs long)."""


DEADLINE = [0.0]


def on_budget(signum: int, frame: Any) -> None:
    if time.monotonic() > DEADLINE[0]:
        raise OutOfTime()


def _on_alarm(signum: int, frame: Any) -> None:
    raise CallTimeout()


class Search:
    def __init__(self, t: dict[str, Any], package: str, call_timeout: float) -> None:
        self.t = t
        self.package = package
        self.path = "/" + t["path"]
        self.lines = set(range(int(t["line"]), int(t["end_line"]) + 1))
        self.guard_lines = set(t.get("guard_lines") or [])
        self.call_timeout = call_timeout
        self.examples = 0
        self.hits: list[tuple[int, str, dict[str, Any]]] = []
        self.reached: set[int] = set()
        self.clean: list[tuple[str, list[Any] | None, list[Any]]] = []
        self.first_hit = 0
        self.keeping: set[str] = set()  # afters that keep what raised: the parameter the guard asks unset given
        self.chosen: dict[str, Any] | None = None  # the hit ``pick`` reported without a clean variant

    def _tracer(self, frame: Any, event: str, arg: Any) -> Any:
        if not frame.f_code.co_filename.endswith(self.path):
            return None

        def local(f: Any, ev: str, a: Any) -> Any:
            if ev == "line" and f.f_lineno in self.guard_lines:
                self.reached.add(f.f_lineno)
            return local
        return local

    def run(self, src: str, traced: bool = True) -> BaseException | None:
        """Execute ``src`` as the script would run; the exception it raised (None: ran clean).  ``traced``: the
        guard lines it reached recorded (the climb needs only the traceback: untraced, several times faster)."""
        self.reached = set()
        ns: dict[str, Any] = {"__name__": "__main__"}
        home = os.getcwd()
        here = tempfile.mkdtemp(dir=home)  # each call in an empty working directory, as a script is run
        os.chdir(here)
        old = signal.signal(signal.SIGALRM, _on_alarm)
        sys.settrace(self._tracer if traced else None)
        signal.setitimer(signal.ITIMER_REAL, self.call_timeout)
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                exec(compile(src, "example.py", "exec"), ns)
        except CallTimeout as exc:
            return exc
        except BaseException as exc:  # SystemExit, KeyboardInterrupt from a library's code included
            return exc
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.settrace(None)
            signal.signal(signal.SIGALRM, old)
            for undo in FRAME["reset"]:  # an option a call form turned on: off again for the next call
                with contextlib.suppress(Exception):
                    exec(f"import {FRAME['imports'][0]}\n{undo}", {})
            os.chdir(home)
            shutil.rmtree(here, ignore_errors=True)
        return None

    def got_past(self, exc: BaseException | None) -> bool:
        """Whether a call that raised ran a line of the site's file below the site (its check passed, a later
        one stopped it), not merely failed before getting there (a missing argument)."""
        tb = exc.__traceback__ if exc is not None and not isinstance(exc, CallTimeout) else None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename.endswith(self.path) and tb.tb_lineno > max(self.lines):
                return True
            tb = tb.tb_next
        return False

    def at_site(self, exc: BaseException | None) -> bool:
        for e in (exc, getattr(exc, "__cause__", None)):
            if e is None or isinstance(e, CallTimeout):
                continue
            tb = e.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            if tb is not None and tb.tb_frame.f_code.co_filename.endswith(self.path) and tb.tb_lineno in self.lines:
                return True
        return False
