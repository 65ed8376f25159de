"""Test evidence on a real distribution that ships its tests: networkx 3.7's wheel from PyPI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from errdex.catalog import open_catalog


@pytest.mark.network
@pytest.mark.slow
def test_networkx_errors_link_to_the_tests_that_trigger_them(tmp_path: Path) -> None:
    db = str(tmp_path / "nx.sqlite")
    env = {**os.environ, "ERRDEX_HOME": str(tmp_path / "home")}
    env.pop("ERRDEX_STRICT", None)

    def errdex(*args: str) -> str:
        proc = subprocess.run([sys.executable, "-m", "errdex", *args, "--db", db], env=env, capture_output=True,
                              text=True, timeout=900, check=False)
        assert proc.returncode == 0, proc.stderr[-2000:]
        return proc.stdout

    errdex("index", "pypi:networkx==3.7")
    errdex("analyze")
    (snap_stats,) = json.loads(errdex("stats", "--analysis", "--json"))["snapshots"]
    share = snap_stats["coverage"]["test"] / snap_stats["errors"]
    assert share >= 0.15, snap_stats  # measured: 238 of 1,080 errors (22%)

    catalog = open_catalog(db)
    try:
        snap = catalog.snapshots()[0]
        expectations = {(t.path, t.line): t for t in catalog.tests(snap.key)}
        checked = 0
        for site in catalog.sites(snap.key):
            analysis = catalog.get_analysis(site.error_id, snap.key)
            assert analysis is not None
            for ev in analysis.evidence:
                if ev.kind != "test":
                    continue
                # The evidence is a real test of the distribution, expecting this error's class
                # (or one of its bases).
                t = expectations[(ev.path, ev.line)]
                assert t.path.split("/")[-1].startswith("test_"), t
                names = {site.exception_name, *(b.rsplit(".", 1)[-1] for b in site.exception_bases)}
                expected = {e.rsplit(".", 1)[-1] for e in t.exception.strip("()").split(", ")}
                assert expected & (names | {"Exception", "BaseException"}), (t, site)
                checked += 1
            if checked >= 50:
                break
        assert checked >= 50
    finally:
        catalog.close()
