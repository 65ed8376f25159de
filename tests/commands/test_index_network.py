"""End to end from PyPI: ``errdex index pypi:six==1.16.0`` finds six's real errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.network


def test_index_six_from_pypi_then_show(tmp_path: Path) -> None:
    # six's wheel has no tests; allowing the sdist (which ships test_six.py) is the user's choice.
    env = dict(os.environ, ERRDEX_HOME=str(tmp_path / "home"), ERRDEX_DB=str(tmp_path / "catalog.sqlite"),
               ERRDEX_PYPI_SDIST="1")
    env.pop("ERRDEX_STRICT", None)
    proc = subprocess.run([sys.executable, "-m", "errdex", "index", "pypi:six==1.16.0", "--json"], env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    (stats,) = json.loads(proc.stdout)
    assert stats["snapshot_key"] == "benjaminp/six@1.16.0"
    assert stats["snapshot"]["source_kind"] == "pypi"
    assert stats["snapshot"]["url_base"] == "https://github.com/benjaminp/six/blob/1.16.0"
    assert stats["files_read"] >= 2 and stats["files_failed"] == []
    assert stats["sites"] >= 8
    assert stats["sites_by_exception"].get("TypeError", 0) >= 4

    from errdex.catalog import open_catalog

    cat = open_catalog(env["ERRDEX_DB"])
    try:
        hits = cat.search("no such move")
        assert len(hits) == 1
        snap, site = hits[0]
        assert (site.path, site.exception, site.kind) == ("six.py", "AttributeError", "error")
        assert site.template.render().startswith("no such move, ")
        # The test file is evidence, not a source of sites.
        assert all(not s.path.startswith("test_") for s in cat.sites(snap.key))
    finally:
        cat.close()
    shown = subprocess.run([sys.executable, "-m", "errdex", "show", site.error_id], env=env, capture_output=True,
                           text=True, timeout=60, check=False)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[0] == "benjaminp/six · error · AttributeError"
    assert f"https://github.com/benjaminp/six/blob/1.16.0/six.py#L{site.line}" in shown.stdout
