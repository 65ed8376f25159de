"""Every source test gets its own ERRDEX_HOME (download cache, catalog)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _errdex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_HOME", str(tmp_path / "home"))

