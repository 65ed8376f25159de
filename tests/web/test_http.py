"""HEAD on every GET operation, and what the OpenAPI document declares for each route."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from webkit import Built

from errdex.catalog.sqlite import SqliteCatalog
from errdex.web.app import create_app
from errdex.web.settings import WebSettings


@pytest.fixture(scope="module")
def client(shop: Built) -> Iterator[TestClient]:
    catalog = SqliteCatalog(shop.db)
    with TestClient(create_app(catalog, WebSettings())) as c:
        yield c
    catalog.close()


def _concrete(client: TestClient, template: str) -> str:
    eid = client.get("/api/repos/acme/shopcart").json()["errors"][0]["id"]
    return (template.replace("{error_id}", eid).replace("{owner}", "acme").replace("{name}", "shopcart")
            .replace("{path}", "shopcart/cart.py").replace("{pair}", "v2.0.0..v2.1.0"))


def test_every_get_operation_answers_head_with_the_get_headers(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    gets = [p for p, item in paths.items() if "get" in item]
    assert len(gets) == 18
    for template in [*gets, "/static/style.css", "/openapi.json"]:
        url = _concrete(client, template)
        get, head = client.get(url), client.head(url)
        assert get.status_code == 200 and head.status_code == 200, (url, head.status_code)
        assert head.content == b""
        for h in ("content-type", "content-length", "etag", "cache-control", "content-security-policy"):
            assert head.headers.get(h) == get.headers.get(h), (url, h)
    assert client.head("/errors/0123456789abcdef").status_code == 404
    assert client.head("/explain").status_code == client.get("/explain").status_code == 405  # POST only
    assert client.head("/explain").headers["allow"] == "POST"


def test_every_declared_error_has_the_one_shape(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    assert {"HTTPValidationError", "ValidationError"}.isdisjoint(doc["components"]["schemas"])
    for path, item in doc["paths"].items():
        for method, op in item.items():
            codes = set(op["responses"])
            assert {"200", "500", "503"} <= codes, (method, path)
            assert ("304" in codes) == (method == "get"), (method, path)
            assert ("413" in codes) == ("408" in codes) == (method == "post"), (method, path)
            assert ("404" in codes) == ("{" in path), (method, path)
            for code in codes - {"200", "304"}:
                content = op["responses"][code]["content"]
                assert content["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorBody"}, code
