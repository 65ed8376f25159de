"""The HTML as sent: no inline script or style anywhere, hostile text escaped, helpers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient
from webkit import Built

from errdex.catalog.sqlite import SqliteCatalog
from errdex.documents import report_url, shorten
from errdex.model import ErrorSite, Snapshot, Template
from errdex.web.app import create_app
from errdex.web.render import STATIC, pygments_css, safe_url
from errdex.web.settings import WebSettings


class Inline(HTMLParser):
    """Collects what a strict CSP would refuse: inline scripts, handlers, style attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {k for k, _ in attrs}
        if tag == "script" and not dict(attrs).get("src", "").startswith("/static/"):  # type: ignore[union-attr]
            self.problems.append(f"<script> without a /static/ src: {attrs}")
        if tag == "style":
            self.problems.append("<style> element")
        for name in names:
            if name == "style" or name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>")
        href = dict(attrs).get("href") or ""
        if href.strip().lower().startswith("javascript:"):
            self.problems.append(f"javascript: link in <{tag}>")


def _problems(html: str) -> list[str]:
    parser = Inline()
    parser.feed(html)
    return parser.problems


@pytest.fixture(scope="module")
def xss_client(xss: Built) -> Iterator[TestClient]:
    catalog = SqliteCatalog(xss.db)
    with TestClient(create_app(catalog, WebSettings())) as c:
        yield c
    catalog.close()


def test_hostile_text_is_escaped_in_every_page(xss_client: TestClient) -> None:
    ids = [e["id"] for e in xss_client.get("/api/repos/evil/xsslib").json()["errors"]]
    pages = ["/", "/evil/xsslib", "/evil/xsslib/xsslib/core.py", "/search?q=script", *(f"/errors/{i}" for i in ids)]
    seen_payloads = 0
    for url in pages:
        html = xss_client.get(url).text
        assert _problems(html) == [], url
        seen_payloads += html.count("&lt;script&gt;window.__xss=")
    r = xss_client.post("/explain", data={"text": "<script>alert(1)</script><img src=x onerror=alert(2)>"})
    assert _problems(r.text) == [] and "&lt;img src=x onerror=alert(2)&gt;" in r.text
    assert seen_payloads >= 10  # the payloads are on the pages, as text
    # an example errdex could not run (Analysis.example_not_run, rating 13 on eb3a) is shown, labelled and escaped
    html = xss_client.get(f"/errors/{ids[0]}").text
    assert "Not run (the module checks <code>sys.platform</code> at import &lt;script&gt;" in html, html
    assert "read_line" in html


def test_pages_have_no_inline_code_and_head_metadata(shop: Built) -> None:
    catalog = SqliteCatalog(shop.db)
    try:
        with TestClient(create_app(catalog, WebSettings(base_url="https://errdex.example.org"))) as c:
            eid = c.get("/api/search", params={"q": "unknown sku"}).json()["results"][0]["id"]
            for url in ("/", "/acme/shopcart", f"/errors/{eid}", "/search?q=cart", "/docs", "/errors/ffffffffffffffff"):
                html = c.get(url).text
                assert _problems(html) == [], url
                assert re.search(r'<link rel="canonical" href="https://errdex\.example\.org/', html), url
                assert '<meta name="description" content="' in html and 'property="og:title"' in html
    finally:
        catalog.close()


def test_pygments_stylesheet_is_current() -> None:
    assert pygments_css() in (STATIC / "pygments.css").read_text()


@pytest.mark.parametrize(("text", "expected"), [
    ("short message", "short message"),
    ("JAX tried to execute function {self.name}, but the no_execution config option is set",
     "JAX tried to execute function {self.name}, but the…"),
    ("a" * 80, "a" * 60 + "…"),
    ("line one\n   line two", "line one line two"),
])
def test_titles_are_shortened_at_a_word(text: str, expected: str) -> None:
    assert shorten(text) == expected


@pytest.mark.parametrize(("url", "kept"), [
    ("https://github.com/a/b/blob/x/f.py#L1", True), ("http://example.org", True), ("/errors/0123456789abcdef", True),
    ("javascript:alert(1)", False), (" JavaScript:alert(1)", False), ("data:text/html,x", False),
    ("//evil.example/x", False), ("vbscript:x", False), ("", False),
])
def test_only_http_and_site_links_survive(url: str, kept: bool) -> None:
    assert (safe_url(url) != "") is kept


def test_report_link_pattern_from_option_or_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    snap = Snapshot(repo="acme/shopcart", commit="3" * 40)
    site = ErrorSite(kind="error", exception="CartError", exception_resolved="shopcart.errors.CartError",
                     templates=(Template.literal("cannot check out an empty cart"),), path="shopcart/cart.py",
                     line=48, end_line=48, qualname="checkout", error_id="0123456789abcdef")
    default = report_url(snap, site, site.error_id)
    assert default.startswith("https://github.com/acme/shopcart/issues/new?title=errdex%3A%20CartError%3A%20cannot")
    assert "body=Error%200123456789abcdef" in default
    monkeypatch.setenv("ERRDEX_REPORT_URL", "https://tracker.example/new?about={id}&repo={repo}")
    assert report_url(snap, site, site.error_id) == "https://tracker.example/new?about=0123456789abcdef&repo=acme/shopcart"
    assert report_url(snap, site, site.error_id, "https://x.example/{id}") == "https://x.example/0123456789abcdef"
    assert report_url(snap, site, site.error_id, "https://x.example/{nope}") == default  # a bad pattern falls back


def test_prose_marks_backticks_as_code_and_escapes_the_rest() -> None:
    from errdex.web.render import prose

    assert str(prose("set `jax_no_execution` <off>")) == "set <code>jax_no_execution</code> &lt;off&gt;"
    assert str(prose("`<script>`")) == "<code>&lt;script&gt;</code>"
    assert str(prose("one ` unpaired <b>")) == "one ` unpaired &lt;b&gt;"


def test_literal_braces_are_doubled_and_the_snippet_starts_at_a_statement(xss_client: TestClient) -> None:
    """A message with literal ``{{7*7}}`` shows it as written in an f-string (``{{{{7*7}}}}``), so that
    ``{x}`` on a page is always a placeholder; the snippet's first line is a statement, not text."""
    ids = [e["id"] for e in xss_client.get("/api/repos/evil/xsslib").json()["errors"]]
    for i in ids:
        doc = xss_client.get(f"/api/errors/{i}").json()
        if "{{7*7}}" not in doc["template"]:
            continue
        html = xss_client.get(f"/errors/{i}").text
        message = html.split('<pre class="template">', 1)[1].split("</pre>", 1)[0]
        assert "{{{{7*7}}}}" in message
        first = re.search(r'<span class="linenos">\s*(\d+)</span>(.*?)\n', html)
        assert first is not None
        text = re.sub(r"<[^>]+>", "", first.group(2)).strip()
        assert re.match(r"(def |class |@|import |from |\w+ = )", text), text
        return
    pytest.fail("no page with the {{7*7}} payload")
