"""``sys.excepthook``: after Python prints an uncaught exception, print errdex's note.

Install it from code (``errdex.runtime.install()``), or for a whole program
with ``python -m errdex.runtime script.py [args]``.
"""

from __future__ import annotations

import sys
from types import TracebackType

from errdex.runtime.describe import describe_exception

_previous: list[object] = []


def _hook(tp: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    previous = _previous[-1] if _previous else sys.__excepthook__
    previous(tp, value, tb)  # type: ignore[operator]
    if isinstance(value, KeyboardInterrupt | SystemExit):
        return
    note = describe_exception(value.with_traceback(tb))
    if note:
        print(note, file=sys.stderr)


def install() -> None:
    """Chain errdex after the current ``sys.excepthook`` (idempotent)."""
    if sys.excepthook is _hook:
        return
    _previous.append(sys.excepthook)
    sys.excepthook = _hook


def uninstall() -> None:
    """Restore the hook that ``install`` replaced."""
    if sys.excepthook is _hook and _previous:
        sys.excepthook = _previous.pop()  # type: ignore[assignment]
