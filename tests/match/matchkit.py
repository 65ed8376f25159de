"""Index a small package written by a test into a catalog, through the CLI as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def index_package(root: Path, name: str, modules: dict[str, str], db: str) -> None:
    """Write ``root/name/name/<module>`` for each module text and ``errdex index`` it as ``ex/<name>`` into
    ``db`` (the catalog may already hold other packages)."""
    pkg = root / name / name
    pkg.mkdir(parents=True)
    for module, code in modules.items():
        (pkg / module).write_text(code)
    env = dict(os.environ, ERRDEX_HOME=str(root))
    done = subprocess.run([sys.executable, "-m", "errdex", "index", str(root / name), "--repo", f"ex/{name}",
                           "--db", db], capture_output=True, text=True, env=env, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
