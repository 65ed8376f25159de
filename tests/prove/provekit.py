"""What the prove tests share: running the errdex CLI as a user would, in its own data directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def cli(*args: str, home: Path, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """``python -m errdex ARGS`` with ``ERRDEX_HOME=home`` (catalogs, sandboxes and caches of one test)."""
    env = {**os.environ, "ERRDEX_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "errdex", *args], capture_output=True, text=True, env=env,
                          timeout=timeout, check=False)
