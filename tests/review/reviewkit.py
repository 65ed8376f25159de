"""Helpers of the review tests, apart from the fixture in conftest.py (imported by a name
of their own: ``conftest`` is a different module in every test folder)."""


from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


FIXTURE = ROOT / "tests" / "fixtures" / "review_lib"


REPO = "acme/mylib"


@dataclass(frozen=True)
class Lib:
    db: str
    env: dict[str, str]
    root: Path  # holds v1/ and v2/


def errdex(*args: str, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``errdex ARGS`` in a subprocess, as a user runs it (the exit code is the caller's to check)."""
    return subprocess.run([sys.executable, "-m", "errdex", *args], env=env, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def make_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(ERRDEX_HOME=str(home), ERRDEX_STRICT="1", PYTHONPATH=str(ROOT / "src"))
    env.pop("ERRDEX_DB", None)
    return env
