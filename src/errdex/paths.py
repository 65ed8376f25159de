"""Where errdex keeps its data when the user says nothing (catalog, caches).

``default_db`` is on ``errdex explain``'s start-up path (after every uncaught
exception, once the hook is installed), so it works on ``str`` with
``os.path`` and reads the XDG variable itself on Linux: ``pathlib`` and
``platformdirs`` are imported only by the functions that return a ``Path``
or on other platforms.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path


def _data_dir() -> str:
    home = os.environ.get("ERRDEX_HOME")
    if home:
        path = home
    elif sys.platform.startswith("linux"):
        # what platformdirs.user_data_dir("errdex") answers on Linux, without importing it
        xdg = os.environ.get("XDG_DATA_HOME", "").strip()
        path = os.path.join(xdg or os.path.expanduser("~/.local/share"), "errdex")
    else:
        import platformdirs

        path = platformdirs.user_data_dir("errdex")
    os.makedirs(path, exist_ok=True)
    return path


def data_dir() -> Path:
    """Per-user data directory (``$ERRDEX_HOME`` overrides, for tests and CI)."""
    from pathlib import Path

    return Path(_data_dir())


def cache_dir() -> Path:
    """Downloads (``pypi:`` sources) and unpacked archives."""
    path = data_dir() / "cache"
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_db(explicit: str | None = None) -> str:
    """The catalog: ``--db``, else ``$ERRDEX_DB``, else ``catalog.sqlite`` in the data dir."""
    if explicit:
        return explicit
    env = os.environ.get("ERRDEX_DB")
    if env:
        return env
    return os.path.join(_data_dir(), "catalog.sqlite")


def extract_cache_dir() -> Path | None:
    """The phase-1 result cache of ``errdex index``, or None when ``$ERRDEX_NO_CACHE`` is set."""
    if os.environ.get("ERRDEX_NO_CACHE", "") not in ("", "0", "false", "no"):
        return None
    return cache_dir() / "extract"
