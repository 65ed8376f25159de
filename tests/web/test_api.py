"""The JSON API in-process: documents, status codes, one error shape, caching, headers."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from webkit import Built, run_errdex

from errdex.catalog.sqlite import SqliteCatalog
from errdex.documents import error_document
from errdex.web.app import create_app
from errdex.web.http import CSP
from errdex.web.settings import WebSettings


@pytest.fixture(scope="module")
def client(shop: Built) -> Iterator[TestClient]:
    catalog = SqliteCatalog(shop.db)
    with TestClient(create_app(catalog, WebSettings(max_paste=4096))) as c:
        yield c
    catalog.close()


def _ids(client: TestClient) -> dict[str, str]:
    """template → id of the shop's errors, from the API itself."""
    doc = client.get("/api/repos/acme/shopcart?per_page=500").json()
    return {e["template"]: e["id"] for e in doc["errors"]}


def test_error_document_is_the_cli_json_and_the_api(client: TestClient, shop: Built) -> None:
    eid = _ids(client)["cannot check out an empty cart"]
    api = client.get(f"/api/errors/{eid}").json()
    cli = json.loads(run_errdex("show", eid, "--json", "--db", shop.db, env=shop.env).stdout)
    catalog = SqliteCatalog(shop.db)
    try:
        direct = error_document(catalog, eid)
    finally:
        catalog.close()
    assert api == cli == json.loads(json.dumps(direct))
    assert api["repo"] == "acme/shopcart" and api["exception"] == "CartError" and api["kind"] == "error"
    assert api["path"] == "shopcart/cart.py" and api["qualname"] == "checkout"
    assert api["source_url"] == (f"https://github.com/acme/shopcart/blob/{'3' * 40}/shopcart/cart.py"
                                 f"#L{api['line']}" + (f"-L{api['end_line']}" if api["end_line"] != api["line"] else ""))
    assert api["analysis"] is not None and api["analysis"]["meaning"]
    # both versions, newest first, with the line moved by the two lines added in v2.0.0
    assert [v["version"] for v in api["snapshots"]] == ["v2.1.0", "v2.0.0"]
    assert api["snapshots"][1]["line"] == api["snapshots"][0]["line"] + 2


def test_unknown_and_malformed_ids_have_the_one_error_shape(client: TestClient) -> None:
    r = client.get("/api/errors/0123456789abcdef")
    assert r.status_code == 404
    assert r.json() == {"error": {"status": 404, "title": "Not Found", "detail": "error 0123456789abcdef is not in the catalog"}}
    r = client.get("/api/errors/not-an-id")
    assert r.status_code == 422
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"status", "title", "detail"}
    assert body["error"]["status"] == 422 and "error_id" in body["error"]["detail"]
    r = client.get("/api/repos/acme/nosuchlib")
    assert r.status_code == 404 and r.json()["error"]["detail"] == "repo acme/nosuchlib is not in the catalog"
    r = client.get("/api/repos/acme/shopcart?page=0")
    assert r.status_code == 422 and "page" in r.json()["error"]["detail"]


def test_html_errors_for_browsers_json_for_api_clients(client: TestClient) -> None:
    r = client.get("/errors/0123456789abcdef", headers={"Accept": "text/html"})
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "error 0123456789abcdef is not in the catalog" in r.text
    r = client.get("/errors/0123456789abcdef", headers={"Accept": "application/json"})
    assert r.status_code == 404 and r.json()["error"]["status"] == 404


def test_explain_returns_ranked_matches_with_values(client: TestClient) -> None:
    r = client.post("/api/explain", json={"text": "shopcart.errors.OutOfStockError: only 1 of apple left in stock"})
    assert r.status_code == 200, r.text
    best = r.json()["matches"][0]
    assert best["template"] == "only {self.stock[sku]} of {sku} left in stock"
    assert [v["value"] for v in best["values"]] == ["1", "apple"]
    assert r.headers["cache-control"] == "no-store"


def test_paste_limit_is_in_characters_at_the_boundary(client: TestClient) -> None:
    """4096 characters pass however they are encoded (12-byte JSON escapes, 12-byte form escapes);
    4097 are a 422 naming the field and the limit, as the schema's maxLength says."""
    at = "\U0001f600" * 4096  # ensure_ascii: each is "\ud83d\ude00", 12 bytes
    r = client.post("/api/explain", json={"text": at})
    assert r.status_code == 200, r.text
    r = client.post("/api/explain", json={"text": at + "x"})
    assert r.status_code == 422
    assert r.json()["error"]["detail"] == "body.text: 4097 characters, more than the paste limit of 4096 characters"
    assert client.post("/explain", data={"text": at}).status_code == 200  # %F0%9F%98%80: 12 bytes each
    r = client.post("/explain", data={"text": at + "x"}, headers={"Accept": "text/html"})
    assert r.status_code == 422 and "more than the paste limit of 4096 characters" in r.text
    assert client.get("/openapi.json").json()["components"]["schemas"]["ExplainRequest"]["properties"]["text"][
        "maxLength"] == 4096


def test_a_body_no_paste_can_take_is_413_declared_or_streamed(client: TestClient) -> None:
    cap = WebSettings(max_paste=4096).max_body_bytes
    r = client.post("/api/explain", content=b"x" * (cap + 1), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["status"] == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"text": "'
        for _ in range(cap // 1000 + 1):
            yield b"y" * 1000
        yield b'"}'

    r = client.post("/api/explain", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    r = client.post("/explain", content=b"text=" + b"z" * cap, headers={
        "Accept": "text/html", "Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413 and "character limit" in r.text


def test_a_250_kb_paste_is_accepted_at_the_default_limit(shop: Built) -> None:
    catalog = SqliteCatalog(shop.db)
    try:
        with TestClient(create_app(catalog, WebSettings())) as c:
            frame = '  File "/x/shopcart/cart.py", line 12, in checkout\n    raise CartError("empty")\n'
            text = ("Traceback (most recent call last):\n" + frame * (250_000 // len(frame))
                    + "shopcart.errors.CartError: cannot check out an empty cart\n")
            assert len(text) > 249_000
            r = c.post("/api/explain", json={"text": text})
            assert r.status_code == 200, r.text
            assert r.json()["matches"][0]["template"] == "cannot check out an empty cart"
    finally:
        catalog.close()


def test_malformed_explain_is_422(client: TestClient) -> None:
    assert client.post("/api/explain", content=b"{not json", headers={"Content-Type": "application/json"}).status_code == 422
    r = client.post("/api/explain", content=b'{"text": "\xff"}', headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["detail"].startswith("body: the body is not UTF-8 text")
    assert client.post("/api/explain", json={"text": "x", "top": "5"}).status_code == 422  # strict, as the schema
    assert client.post("/api/explain", json={"txt": "x"}).status_code == 422
    assert client.post("/api/explain", json={"text": "x", "top": 0}).status_code == 422
    r = client.post("/explain", content=b"other=1", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 422 and "the form has no &#39;text&#39; field" in r.text


def test_etag_and_304(client: TestClient) -> None:
    eid = _ids(client)["cannot check out an empty cart"]
    for url in (f"/api/errors/{eid}", f"/errors/{eid}", "/api/repos/acme/shopcart", "/acme/shopcart", "/"):
        r = client.get(url)
        assert r.status_code == 200 and r.headers["etag"] and "max-age" in r.headers["cache-control"]
        again = client.get(url, headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == r.headers["etag"]
        assert client.get(url, headers={"If-None-Match": '"other"'}).status_code == 200


def test_security_headers_everywhere(client: TestClient) -> None:
    for r in (client.get("/"), client.get("/api/repos"), client.get("/errors/0123456789abcdef"),
              client.get("/static/style.css"), client.post("/api/explain", json={})):
        assert r.headers["content-security-policy"] == CSP
        assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"


def test_repo_document_counts_filters_and_pages(client: TestClient) -> None:
    doc = client.get("/api/repos/acme/shopcart").json()
    assert doc["total"] == 7 == sum(c["count"] for c in doc["by_exception"]) == sum(c["count"] for c in doc["by_module"])
    assert {c["name"]: c["count"] for c in doc["by_exception"]} == {"KeyError": 2, "CartError": 3, "ValueError": 1,
                                                                   "OutOfStockError": 1}
    assert [c["name"] for c in doc["by_module"]] == ["shopcart/cart.py"]
    keys = client.get("/api/repos/acme/shopcart?exception=KeyError").json()
    assert keys["matching"] == 2 and {e["exception"] for e in keys["errors"]} == {"KeyError"}
    assert keys["total"] == 7  # the facet counts stay those of the repo
    p1 = client.get("/api/repos/acme/shopcart?per_page=3").json()
    p3 = client.get("/api/repos/acme/shopcart?per_page=3&page=3").json()
    assert p1["pages"] == 3 and len(p1["errors"]) == 3 and len(p3["errors"]) == 1
    module = client.get("/api/repos/acme/shopcart/shopcart/cart.py").json()
    assert module["path"] == "shopcart/cart.py" and module["total"] == 7
    assert client.get("/api/repos/acme/shopcart/shopcart/nothing.py").status_code == 404


def test_search_and_home(client: TestClient) -> None:
    doc = client.get("/api/search", params={"q": "empty cart"}).json()
    assert [r["template"] for r in doc["results"]] == ["cannot check out an empty cart"]
    assert client.get("/api/search", params={"q": ""}).json()["count"] == 0
    home = client.get("/api/repos").json()
    assert [(r["repo"], r["errors"], r["snapshots"]) for r in home["repos"]] == [("acme/shopcart", 7, 2)]


def test_sitemap_robots_and_openapi(client: TestClient) -> None:
    ids = _ids(client).values()
    sitemap = client.get("/sitemap.xml").text
    for eid in ids:
        assert f"<loc>http://testserver/errors/{eid}</loc>" in sitemap
    assert "<loc>http://testserver/acme/shopcart/shopcart/cart.py</loc>" in sitemap
    assert "Sitemap: http://testserver/sitemap.xml" in client.get("/robots.txt").text
    schema = client.get("/openapi.json").json()
    assert {"/api/errors/{error_id}", "/api/explain", "/api/search", "/api/repos/{owner}/{name}"} <= set(schema["paths"])
    docs = client.get("/docs")
    assert docs.status_code == 200 and "POST /api/explain" in docs.text and "<script" not in docs.text


def test_a_crash_is_a_500_in_the_one_shape_with_the_headers(shop: Built) -> None:
    catalog = SqliteCatalog(shop.db)
    app = create_app(catalog, WebSettings())

    def broken(error_id: str) -> None:
        raise RuntimeError("simulated failure")

    app.state.site.error = broken  # the catalog failing under a request
    try:
        with TestClient(app, raise_server_exceptions=False) as c:
            r = c.get("/api/errors/0123456789abcdef")
            assert r.status_code == 500
            assert r.json() == {"error": {"status": 500, "title": "Internal Server Error",
                                          "detail": "internal error; the server log has the details"}}
            assert r.headers["content-security-policy"] == CSP and r.headers["cache-control"] == "no-store"
            html = c.get("/errors/0123456789abcdef")
            assert html.status_code == 500 and html.headers["content-type"].startswith("text/html")
    finally:
        catalog.close()


def test_serve_names_a_bad_catalog(shop: Built) -> None:
    proc = run_errdex("serve", "--db", "postgres://u:secret@db.example/x", "--port", "1", env=shop.env, check=False)
    assert proc.returncode == 1 and "errdex: postgres://u:***@db.example/x" in proc.stderr and "secret" not in proc.stderr


def test_one_page_holds_everything_only_when_asked(shop: Built) -> None:
    from errdex.documents import MAX_PER_PAGE, repo_document

    catalog = SqliteCatalog(shop.db)
    try:
        whole = repo_document(catalog, "acme/shopcart", per_page=None)
        clamped = repo_document(catalog, "acme/shopcart", per_page=10**6)
    finally:
        catalog.close()
    assert whole is not None and clamped is not None
    assert (whole["pages"], whole["per_page"], len(whole["errors"])) == (1, 7, 7)
    assert clamped["per_page"] == MAX_PER_PAGE
