"""``errdex analyze`` and ``errdex verify`` run as a user runs them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from errdex.catalog import SqliteCatalog


def _run(*args: str, env_home: Path) -> subprocess.CompletedProcess[str]:
    import os

    env = {**os.environ, "ERRDEX_HOME": str(env_home)}
    return subprocess.run([sys.executable, "-m", "errdex", *args], capture_output=True, text=True, env=env, timeout=300)


def test_analyze_then_verify(jaxlike_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    shutil.copy(jaxlike_db, db)
    r = _run("analyze", "--db", str(db), "--json", env_home=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    (snap,) = out["snapshots"]
    assert snap["analysed"] == snap["stored"] > 5 and snap["coverage"]["config"] >= 3
    cat = SqliteCatalog(db)
    s = cat.snapshots()[0]
    assert all(cat.get_analysis(site.error_id, s.key) is not None for site in cat.sites(s.key))
    cat.close()
    v = _run("verify", "--db", str(db), "--json", env_home=tmp_path)
    assert v.returncode == 0, v.stdout
    data = json.loads(v.stdout)
    assert data["failures"] == []
    # what the verifier kept off the pages is counted by reason, and the counts add up
    assert data["withheld"] == sum(r["count"] for r in data["withheld_by_reason"])
    t = _run("verify", "--db", str(db), env_home=tmp_path)
    assert f"withheld from the pages by the verifier: {data['withheld']}" in t.stdout


def test_verify_reports_a_bad_stored_sample(jaxlike_db: Path, tmp_path: Path) -> None:
    import dataclasses

    db = tmp_path / "c.sqlite"
    shutil.copy(jaxlike_db, db)
    assert _run("analyze", "--db", str(db), env_home=tmp_path).returncode == 0
    cat = SqliteCatalog(db)
    s = cat.snapshots()[0]
    site = next(iter(cat.sites(s.key)))
    a = cat.get_analysis(site.error_id, s.key)
    assert a is not None
    cat.put_analyses([dataclasses.replace(a, try_sample="import jax\njax.config.jax_eager\n")])
    cat.close()
    v = _run("verify", "--db", str(db), env_home=tmp_path)
    assert v.returncode == 1
    assert site.error_id in v.stdout and "jax.config.jax_eager" in v.stdout


def test_bad_options_fail_clearly(jaxlike_db: Path, tmp_path: Path) -> None:
    r = _run("analyze", "--db", str(jaxlike_db), "--repo", "no/such", "--dry-run", env_home=tmp_path)
    assert r.returncode == 1 and "no snapshot of 'no/such'" in r.stderr
    r = _run("analyze", "--db", str(jaxlike_db), "--backend", "nope", env_home=tmp_path)
    assert r.returncode == 2 and "unknown backend" in r.stderr


def test_stats_reports_evidence_coverage(jaxlike_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    shutil.copy(jaxlike_db, db)
    assert _run("analyze", "--db", str(db), env_home=tmp_path).returncode == 0
    r = _run("analyze", "--stats", "--db", str(db), "--json", env_home=tmp_path)
    assert r.returncode == 0, r.stderr
    (snap,) = json.loads(r.stdout)["snapshots"]
    assert snap["analysed"] == snap["errors"] and snap["coverage"]["test"] >= 3
    text = _run("analyze", "--stats", "--db", str(db), env_home=tmp_path).stdout
    assert "guard rendered in words" in text and "test linked" in text and "config option linked" in text
