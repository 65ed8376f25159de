"""The explain result page says when several places raise the pasted text, and links them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from webkit import _env, run_errdex

from errdex.catalog.sqlite import SqliteCatalog
from errdex.web.app import create_app
from errdex.web.settings import WebSettings

TINYJIT = Path(__file__).resolve().parents[1] / "fixtures" / "match_tinyjit"
TIED = "RuntimeError: re-tracing function f for `jit`, but 'no_tracing' is set"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    base = tmp_path_factory.mktemp("ties")
    db = str(base / "tiny.sqlite")
    run_errdex("index", str(TINYJIT), "--repo", "example/tinyjit", "--db", db, env=_env(base / "home"))
    catalog = SqliteCatalog(db)
    with TestClient(create_app(catalog, WebSettings())) as c:
        yield c
    catalog.close()


def test_the_page_and_its_json_say_which_places_raise_the_text(client: TestClient) -> None:
    doc = client.post("/api/explain", json={"text": TIED}).json()
    top = doc["matches"][0]
    assert doc["confident"] is False and top["tied_count"] == 1
    page = client.post("/explain", data={"text": TIED}, headers={"Accept": "text/html"})
    assert page.status_code == 200
    assert "Not confident: 2 places raise this exact message" in page.text
    assert "Tied with 1 other site raising the same text" in page.text
    assert f'href="/errors/{top["tied"][0]["id"]}"' in page.text


def test_no_tie_note_for_a_single_site(client: TestClient) -> None:
    page = client.post("/explain", data={"text": "ValueError: cannot reshape array of size 3 into shape (2, 2)"},
                       headers={"Accept": "text/html"})
    assert page.status_code == 200 and "places raise this exact message" not in page.text
    assert 'id="ties"' not in page.text
