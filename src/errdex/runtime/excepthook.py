"""``sys.excepthook`` in errdex's own environment: ``errdex.runtime.install()``.

The same hook as ``errdex hook install`` puts into other environments
(``hook.py``); this installs it in the running process.  ``python -m
errdex.runtime script.py`` also works, but runs the script under ``runpy``
(whose frames then appear in tracebacks): the installed hook does not.
"""

from __future__ import annotations

from errdex.runtime import hook


def install() -> None:
    """Chain errdex after the current ``sys.excepthook`` (idempotent); threading and IPython too."""
    hook.install()


def uninstall() -> None:
    """Restore the hooks that ``install`` replaced."""
    hook.uninstall()
