"""Hostile files indexed by a real ``errdex index`` under a 1 GiB address-space limit.

Issue 13: a file of 20,000 ``raise`` statements joined by ``;`` on one line
could not be indexed under 3 GiB (every site carried the whole line).  Each
case runs the CLI in a subprocess that first lowers ``RLIMIT_AS``; it must
finish, keep a small catalog and name the limit it hit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ADDRESS_SPACE = 1 << 30
LIMITED = (
    "import resource, sys\n"
    f"resource.setrlimit(resource.RLIMIT_AS, ({ADDRESS_SPACE}, {ADDRESS_SPACE}))\n"
    "sys.argv = ['errdex', *sys.argv[1:]]\n"
    "from errdex.cli import app\n"
    "app()\n"
)


def _package(tmp_path: Path, text: str) -> Path:
    root = tmp_path / "hostile"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "m.py").write_text(text, encoding="utf-8")
    return root


def _index_limited(tmp_path: Path, root: Path, *extra: str) -> tuple[subprocess.CompletedProcess[str], int]:
    env = dict(os.environ, ERRDEX_HOME=str(tmp_path / "home"))
    env.pop("ERRDEX_STRICT", None)
    db = tmp_path / "catalog.sqlite"
    proc = subprocess.run(
        [sys.executable, "-c", LIMITED, "index", str(root), "--db", str(db), "--no-cache", "-j1", "--json", *extra],
        env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    return proc, db.stat().st_size if db.exists() else 0


def _one_line(n: int, prefix: str = "") -> str:
    return "def f(x):\n    " + "; ".join(f'raise ValueError("{prefix}bad value {i}")' for i in range(n)) + "\n"


def test_twenty_thousand_raises_on_one_line(tmp_path: Path) -> None:
    proc, size = _index_limited(tmp_path, _package(tmp_path, _one_line(20_000)))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "pkg/m.py: 20000 error sites, kept the first 5000" in proc.stderr
    assert "--limit sites_per_file=N" in proc.stderr
    assert size < 10 * 1024**2


def test_twenty_thousand_raises_on_one_line_with_no_site_cap(tmp_path: Path) -> None:
    """The snippets alone keep it linear: every site stored, still far inside the bound."""
    proc, size = _index_limited(tmp_path, _package(tmp_path, _one_line(20_000, "é")),
                                "--limit", "sites_per_file=100000")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert '"sites": 20000' in proc.stdout
    assert size < 40 * 1024**2  # ~1 KB a site; the whole line per site was 12 GB


def test_a_megabyte_condition_guarding_every_raise(tmp_path: Path) -> None:
    cond = "x == '" + "a" * (1024 * 1024) + "'"
    text = f"def f(x):\n    if {cond}: " + "; ".join(f'raise ValueError("v{i}")' for i in range(20_000)) + "\n"
    proc, size = _index_limited(tmp_path, _package(tmp_path, text))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert size < 40 * 1024**2
