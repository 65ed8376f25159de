"""``errdex observe`` end to end, run as a user runs it: a real environment built with uv (so the
network: setuptools and pytest come from PyPI), the fixture's tests in the sandbox, then what
show / stats / report untested / the web make of it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SHOP = Path(__file__).resolve().parents[1] / "fixtures" / "obs_shop"


def run(env: dict[str, str], *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "errdex", *args], env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    e = dict(os.environ)
    e["ERRDEX_HOME"] = str(tmp_path / "home")
    e["ERRDEX_DB"] = str(tmp_path / "catalog.sqlite")
    e.pop("ERRDEX_STRICT", None)
    return e


def test_report_untested_before_any_observation(env: dict[str, str], tmp_path: Path) -> None:
    shop = tmp_path / "obs_shop"
    shutil.copytree(SHOP, shop)
    assert run(env, "index", str(shop)).returncode == 0
    r = run(env, "report", "untested", "--repo", "local/obs_shop", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["observed"] is False and doc["modules"] == [] and doc["total"] == 11
    stats = json.loads(run(env, "stats", "--json").stdout)
    assert stats[0]["observed"] is None


@pytest.mark.network
@pytest.mark.slow
def test_observe_fixture_then_show_stats_report_web(env: dict[str, str], tmp_path: Path) -> None:
    shop = tmp_path / "obs_shop"
    shutil.copytree(SHOP, shop, ignore=shutil.ignore_patterns("hostile"))
    r = run(env, "observe", str(shop), "--jobs", "2", "--timeout", "120", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["sites_observed"] == 8 and doc["run"]["files"] == 2 and doc["run"]["failed_files"] == []
    assert doc["run"]["tests"] == 11 and doc["events_by_kind"]["site"] >= 8
    assert doc["run"]["network"] in ("namespace", "user-namespace") or doc["run"]["network"].startswith("none")

    from errdex.catalog import open_catalog

    catalog = open_catalog(env["ERRDEX_DB"])
    key = catalog.snapshots("local/obs_shop")[0].key
    currency = [o for o in catalog.observations(snapshot_key=key) if "unknown currency" in o.message]
    catalog.close()
    assert len(currency) == 1
    shown = json.loads(run(env, "show", currency[0].error_id, "--json").stdout)
    assert shown["observed_run"] is True
    assert shown["observed"][0]["test"] == "tests/test_prices.py::test_unknown_currency"
    assert shown["observed"][0]["entry"] == "shop.prices.parse_price" and shown["observed"][0]["escaped"]

    stats = json.loads(run(env, "stats", "--json").stdout)
    assert stats[0]["observed"]["sites"] == 8 and stats[0]["observed"]["tests"] == 11

    report = json.loads(run(env, "report", "untested", "--repo", "local/obs_shop", "--json").stdout)
    # 11 raise sites (the warning is not one); 7 reached, 4 not.
    assert report["observed"] and report["total"] == 11 and report["untested"] == 4
    assert [(m["path"], e["qualname"]) for m in report["modules"] for e in m["errors"]] == [
        ("shop/cart.py", "Cart.checkout"), ("shop/cart.py", "Cart.never_tested"), ("shop/cli.py", "main"),
        ("shop/prices.py", "parse_price")]

    # Observing again resumes (nothing re-runs) and replaces: the same figures, no duplicates.
    again = json.loads(run(env, "observe", str(shop), "--json").stdout)
    assert all(f["resumed"] for f in again["files"])
    assert again["run"]["events"] == doc["run"]["events"]

    from fastapi.testclient import TestClient

    from errdex.web.app import create_app
    from errdex.web.settings import WebSettings

    settings = WebSettings.from_env()
    client = TestClient(create_app(open_catalog(env["ERRDEX_DB"]), settings))
    page = client.get(f"/errors/{currency[0].error_id}").text
    assert "Seen in the library&#39;s tests" in page or "Seen in the library's tests" in page
    assert "unknown currency &#39;XYZ&#39;" in page and "tests/test_prices.py::test_unknown_currency" in page
    api = client.get(f"/api/errors/{currency[0].error_id}").json()
    assert api["observed"] == shown["observed"]
    assert client.get("/local/obs_shop/untested").status_code == 200
    assert client.get("/api/repos/local/obs_shop/untested").json() == report
