"""`errdex export DIR`: the same documents at the same paths, and a paste box that works statically."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from webkit import Built, free_port, run_errdex

from errdex.catalog.sqlite import SqliteCatalog
from errdex.web.app import create_app
from errdex.web.http import CSP
from errdex.web.settings import WebSettings

BASE = "https://errdex.example.org"


@pytest.fixture(scope="module")
def exported(shop: Built, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    proc = run_errdex("export", str(out), "--db", shop.db, "--base-url", BASE, env=shop.env)
    assert proc.stdout.startswith("exported ") and str(out) in proc.stdout
    return out


@pytest.fixture(scope="module")
def client(shop: Built) -> Iterator[TestClient]:
    catalog = SqliteCatalog(shop.db)
    with TestClient(create_app(catalog, WebSettings(base_url=BASE))) as c:
        yield c
    catalog.close()


def test_every_json_document_at_the_servers_path(exported: Path, client: TestClient) -> None:
    errors = client.get("/api/repos/acme/shopcart?per_page=500").json()["errors"]
    assert len(errors) == 7
    for e in errors:
        api = client.get(f"/api/errors/{e['id']}").json()
        assert json.loads((exported / "api" / "errors" / e["id"]).read_text()) == api
        assert json.loads((exported / "api" / "errors" / f"{e['id']}.json").read_text()) == api
        page = (exported / "errors" / e["id"] / "index.html").read_text()
        assert f'<link rel="canonical" href="{BASE}/errors/{e["id"]}">' in page
    assert json.loads((exported / "api" / "repos.json").read_text()) == client.get("/api/repos").json()
    assert json.loads((exported / "api" / "repos" / "index.json").read_text()) == client.get("/api/repos").json()
    repo = json.loads((exported / "api" / "repos" / "acme" / "shopcart" / "index.json").read_text())
    assert repo["total"] == 7 and len(repo["errors"]) == 7  # one page: a static host has no ?page=
    module = json.loads((exported / "api" / "repos" / "acme" / "shopcart" / "shopcart" / "cart.py").read_text())
    assert module["path"] == "shopcart/cart.py"
    assert (exported / "acme" / "shopcart" / "shopcart" / "cart.py" / "index.html").is_file()
    assert json.loads((exported / "openapi.json").read_text())["paths"].keys() == client.get("/openapi.json").json()["paths"].keys()


def test_static_host_configuration(exported: Path) -> None:
    headers = (exported / "_headers").read_text()
    assert "/api/*\n  Content-Type: application/json" in headers and CSP in headers
    nginx = (exported / "nginx.conf.example").read_text()
    assert "default_type application/json;" in nginx and "try_files $uri $uri.json $uri/index.json" in nginx
    assert f"<loc>{BASE}/errors/" in (exported / "sitemap.xml").read_text()
    assert (exported / "static" / "search.js").is_file() and (exported / "static" / "style.css").is_file()
    index = json.loads((exported / "api" / "search-index.json").read_text())
    assert index["fields"][:2] == ["id", "repo"] and len(index["errors"]) == 7


@pytest.fixture(scope="module")
def static_host(exported: Path) -> Iterator[str]:
    """A plain static file server, as a static host would be."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                             "--directory", str(exported)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            httpx.get(url + "/robots.txt", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.mark.browser
def test_the_paste_box_and_search_work_on_the_static_site(browser: Any, static_host: str) -> None:
    page = browser.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(static_host + "/")
    page.fill("#paste-text", "Traceback (most recent call last):\n  File \"shop.py\", line 9, in <module>\n"
                             "    cart.add('pear', 5)\nshopcart.errors.OutOfStockError: only 2 of pear left in stock\n")
    page.click("#paste button[type=submit]")
    page.wait_for_selector("#paste-results ol.matches")
    best = page.locator("#paste-results ol.matches > li").first
    assert "only {self.stock[sku]} of {sku} left in stock" in best.inner_text()
    assert [c.strip() for c in best.locator("td code").all_inner_texts()] == ["2", "pear"]
    best.locator(".match-title a").click()
    page.wait_for_selector("#header")
    assert page.locator("#header").inner_text() == "acme/shopcart · error · OutOfStockError"
    page.goto(static_host + "/search/?q=empty+cart")
    page.wait_for_selector("#results li")
    assert page.locator("#results li").all_inner_texts()[0].startswith("cannot check out an empty cart")
    page.goto(static_host + "/acme/shopcart/?exception=KeyError")
    visible = page.locator("#errors li:not([hidden])").evaluate_all("els => els.map(e => e.dataset.exception)")
    assert visible == ["KeyError", "KeyError"]
    assert errors == []
    page.close()


def test_export_refuses_an_empty_catalog(tmp_path: Path, shop: Built) -> None:
    env = dict(shop.env, ERRDEX_HOME=str(tmp_path / "home"))
    proc = run_errdex("export", str(tmp_path / "out"), "--db", str(tmp_path / "empty.sqlite"), env=env, check=False)
    assert proc.returncode == 1 and "the catalog is empty" in proc.stderr
