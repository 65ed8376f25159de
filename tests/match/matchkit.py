"""Index a small package written by a test into a catalog, through the CLI as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog


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


def indexed_catalog(factory: pytest.TempPathFactory, stem: str, name: str,
                    modules: dict[str, str]) -> Iterator[Catalog]:
    """The body of a module-scoped fixture: ``name``'s modules indexed into a fresh catalog under a new
    temporary folder ``stem``, open for the module's tests and closed after them (``yield from`` it)."""
    root = factory.mktemp(stem)
    db = str(root / "c.sqlite")
    index_package(root, name, modules, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()
