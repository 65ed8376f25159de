"""``errdex index/stats/show --db postgresql://…`` against a real server, end to end."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pg_server

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "src_tinylib"


def test_index_stats_show_on_postgres(tmp_path: Path, pg_base: str) -> None:
    url = pg_server.fresh_database(pg_base)
    tree = shutil.copytree(FIXTURE, tmp_path / "tinylib")
    env = dict(os.environ, ERRDEX_HOME=str(tmp_path / "home"), ERRDEX_DB=url)
    env.pop("ERRDEX_STRICT", None)

    def errdex(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "errdex", *args], env=env, capture_output=True, text=True,
                              timeout=300, check=False)

    first = errdex("index", str(tree), "--repo", "example-org/tinylib", "--ref", "v1.2.3", "--json")
    assert first.returncode == 0, first.stderr
    again = errdex("index", str(tree), "--repo", "example-org/tinylib", "--ref", "v1.2.3", "--json")
    assert again.returncode == 0, again.stderr
    stats = json.loads(errdex("stats", "--json").stdout)
    assert [s["snapshot_key"] for s in stats] == ["example-org/tinylib@v1.2.3"]
    assert stats[0]["sites"] == json.loads(first.stdout)[0]["sites"] >= 4

    from errdex.catalog import open_catalog

    cat = open_catalog(url)
    try:
        ((_, site),) = cat.search("unknown size unit")
    finally:
        cat.close()
    shown = errdex("show", site.error_id)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[0] == "example-org/tinylib · error · TinyError"
    assert "https://github.com/example-org/tinylib/blob/v1.2.3/src/tinylib/core.py#L" in shown.stdout
