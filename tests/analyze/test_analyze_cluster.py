"""``errdex analyze --cluster``: error groups analysed as tasks give exactly the analyses of a plain run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from errdex.analyze.groups import analyze_group, groups
from errdex.analyze.run import analyze_snapshot
from errdex.catalog import SqliteCatalog
from errdex.cluster import ClusterSpec, open_mapper
from errdex.model import to_json


def _analyses(db: Path) -> dict[str, object]:
    cat = SqliteCatalog(db)
    try:
        snap = cat.snapshots()[0]
        ids = sorted({s.error_id for s in cat.sites(snap.key)})
        return {i: to_json(a) for i in ids if (a := cat.get_analysis(i, snap.key)) is not None}
    finally:
        cat.close()


def test_groups_on_a_pool_equal_one_pass(jaxlike_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    shutil.copy(jaxlike_db, db)
    cat = SqliteCatalog(db)
    try:
        snap = cat.snapshots()[0]
        whole = analyze_snapshot(cat, snap)
        parts = list(groups(cat, str(db), [snap], size=3))
        assert len(parts) > 2 and sum(len(g.error_ids) for g in parts) == len(whole.analyses) + len(whole.failures)
        with open_mapper(ClusterSpec("pool", workers=2)) as mapper:
            outs = list(mapper.map_unordered(analyze_group, parts))
    finally:
        cat.close()
    assert all(o.ok for o in outs)
    got = {a.error_id: to_json(a) for o in outs if o.value is not None for a in o.value.analyses}
    assert got == {a.error_id: to_json(a) for a in whole.analyses}


@pytest.mark.slow
def test_cli_on_a_local_dask_cluster(jaxlike_db: Path, tmp_path: Path) -> None:
    plain, clustered = tmp_path / "plain.sqlite", tmp_path / "cluster.sqlite"
    shutil.copy(jaxlike_db, plain)
    shutil.copy(jaxlike_db, clustered)
    env = dict(os.environ, ERRDEX_HOME=str(tmp_path / "home"))
    a = subprocess.run([sys.executable, "-m", "errdex", "analyze", "--db", str(plain), "--json"],
                       env=env, capture_output=True, text=True, timeout=300, check=False)
    b = subprocess.run([sys.executable, "-m", "errdex", "analyze", "--db", str(clustered), "--json",
                        "--cluster", "local:2"], env=env, capture_output=True, text=True, timeout=300, check=False)
    assert a.returncode == b.returncode == 0, b.stderr
    ja, jb = json.loads(a.stdout), json.loads(b.stdout)
    assert jb["snapshots"][0]["stored"] == ja["snapshots"][0]["stored"] > 0
    assert jb["snapshots"][0]["coverage"] == ja["snapshots"][0]["coverage"]
    assert _analyses(clustered) == _analyses(plain)
    r = subprocess.run([sys.executable, "-m", "errdex", "analyze", "--db", str(plain), "--backend", "openai",
                        "--model", "m", "--cluster", "local"], env=env, capture_output=True, text=True, check=False)
    assert r.returncode == 2
