"""Where errdex keeps its data when the user says nothing (catalog, caches)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def data_dir() -> Path:
    """Per-user data directory (``$ERRDEX_HOME`` overrides, for tests and CI)."""
    home = os.environ.get("ERRDEX_HOME")
    path = Path(home) if home else Path(platformdirs.user_data_dir("errdex"))
    path.mkdir(parents=True, exist_ok=True)
    return path


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
    return str(data_dir() / "catalog.sqlite")


def extract_cache_dir() -> Path | None:
    """The phase-1 result cache of ``errdex index``, or None when ``$ERRDEX_NO_CACHE`` is set."""
    if os.environ.get("ERRDEX_NO_CACHE", "") not in ("", "0", "false", "no"):
        return None
    return cache_dir() / "extract"
