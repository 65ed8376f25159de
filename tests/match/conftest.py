"""A catalog of the ``tinyjit`` fixture package, indexed once per session by the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from match_fixtures import ROOT

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog

TINYJIT = ROOT / "tests" / "fixtures" / "match_tinyjit"


@pytest.fixture(scope="session")
def tiny_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    home = tmp_path_factory.mktemp("home")
    db = str(home / "tiny.sqlite")
    env = dict(os.environ, ERRDEX_HOME=str(home))
    subprocess.run(
        [sys.executable, "-m", "errdex", "index", str(TINYJIT), "--repo", "example/tinyjit", "--db", db],
        check=True, env=env, capture_output=True,
    )
    return db


@pytest.fixture()
def tiny(tiny_db: str) -> Iterator[Catalog]:
    catalog = open_catalog(tiny_db)
    try:
        yield catalog
    finally:
        catalog.close()
