"""The site in a real browser (Debian's chromium through Playwright), served by `errdex serve`."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from webkit import FIXTURES, SCREENSHOTS, Built, Server

pytestmark = pytest.mark.browser

# The sections of the seed pages, in their order (../shared/seeds/).
SEED_SECTIONS = [
    ("header", None), ("title", None), ("message", "Error message"), ("meaning", "What it means"),
    ("source", "Source"), ("solutions", "Solutions"), ("example-fix", "Example fix"),
    ("defensive-patterns", "Defensive patterns"), ("prevention", "Prevention"), ("when", "When it happens"),
    ("related", "Related errors"), ("evidence", "Evidence"), ("observed", "Seen in the library's tests"),
    ("versions", "Versions"),
]


def _page(browser: Any, *, js: bool = True) -> Any:
    context = browser.new_context(java_script_enabled=js, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def _check_sections(page: Any) -> None:
    ids = page.eval_on_selector_all("article.error > [id]", "els => els.map(e => e.id)")
    assert ids == [s for s, _ in SEED_SECTIONS]
    for sid, heading in SEED_SECTIONS:
        if heading:
            assert page.locator(f"#{sid} > h2").inner_text() == heading


@pytest.mark.slow
def test_paste_a_real_jax_traceback_and_reach_its_page(browser: Any, jax_server: Server) -> None:
    text = (FIXTURES / "web_jax_traceback" / "no_execution.txt").read_text()
    page = _page(browser)
    page.goto(jax_server.url + "/")
    page.fill("#paste-text", text)
    page.click("#paste button[type=submit]")
    page.wait_for_selector("ol.matches")
    best = page.locator("ol.matches > li").first
    assert "JAX tried to execute function {self.name}, but the no_execution config option is set" in best.inner_text()
    assert best.locator("table.values").inner_text().split("\n")[-1].strip().endswith("jit(my_fn)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "paste_result.png"), full_page=True)
    best.locator(".match-title a").click()
    page.wait_for_url(re.compile(r"/errors/[0-9a-f]{16}$"))
    assert page.locator("#header").inner_text() == "jax-ml/jax · error · RuntimeError"
    assert page.locator(".thrown").inner_text().startswith("Thrown at jax/_src/interpreters/pxla.py:377")
    _check_sections(page)
    gh = page.locator("#source .gh a")
    assert gh.inner_text() == "View on GitHub (pinned to 990e6a0b84)"
    assert gh.get_attribute("href") == (
        "https://github.com/jax-ml/jax/blob/990e6a0b84138346e6a38785412f36356e0e5dc3/"
        "jax/_src/interpreters/pxla.py#L377-L379")
    # the snippet carries the file's line numbers and marks the raise lines
    marked = page.locator(".snippet .hll .linenos").all_inner_texts()
    assert [n.strip() for n in marked] == ["377", "378", "379"]
    page.screenshot(path=str(SCREENSHOTS / "error_page.png"), full_page=True)
    page.context.close()


def test_every_seed_section_and_the_footer(browser: Any, shop: Built, shop_server: Server) -> None:
    doc = httpx.get(shop_server.url + "/api/search", params={"q": "empty cart"}).json()
    eid = doc["results"][0]["id"]
    data = httpx.get(f"{shop_server.url}/api/errors/{eid}").json()
    page = _page(browser)
    page.goto(f"{shop_server.url}/errors/{eid}")
    _check_sections(page)
    assert page.locator("#header").inner_text() == "acme/shopcart · error · CartError"
    assert page.locator("#title").inner_text() == "cannot check out an empty cart"
    assert page.title().startswith("CartError: cannot check out an empty cart")
    assert page.locator("link[rel=canonical]").get_attribute("href") == f"{shop_server.url}/errors/{eid}"
    assert page.locator("meta[property='og:title']").get_attribute("content") == page.title()
    assert page.locator("meta[name=description]").get_attribute("content") == data["description"]
    # every analysed section has its content, not the "not analysed" placeholder
    for sid in ("meaning", "solutions", "prevention", "when"):
        assert page.locator(f"#{sid} .none").count() == 0, sid
    # no sample ran (no `errdex prove` for this catalog): none is shown as an example; the section says so
    # once, with what the user can guard on
    defensive = page.locator("#defensive-patterns")
    # code shown without a proof is labelled as not run (rating 7: the check as code, not prose only)
    assert defensive.locator("pre").count() == defensive.locator("h3").count() <= 1
    assert all("not run" in t for t in defensive.locator("h3").all_inner_texts())
    (note,) = defensive.locator(".none").all_inner_texts()
    assert note.startswith("No validate or try / except sample has been proven for this error, so none is shown.")
    assert "Proven on" not in defensive.inner_text()
    # no example has been run for this catalog (no `errdex prove`): the page says so, it shows no guess
    fix = page.locator("#example-fix").inner_text()
    assert "Proven on" not in fix
    assert "not proven" in fix.lower() or "no example could be proven" in fix.lower()
    lines = [int(n) for n in page.locator(".snippet .linenos").all_inner_texts()]
    # the window starts at a statement at or after the stored snippet's first line (snippets.window_of)
    assert data["site"]["snippet_start"] <= lines[0] <= data["line"] and lines == list(range(lines[0], lines[0] + len(lines)))
    marked = [int(n) for n in page.locator(".snippet .hll .linenos").all_inner_texts()]
    assert marked == list(range(data["line"], data["end_line"] + 1))
    footer = page.locator("#provenance").inner_text()
    assert re.match(r"Analysis of acme/shopcart@3333333333 \(\d{4}-\d\d-\d\d\), \S", footer), footer
    assert f"Data as JSON: /api/errors/{eid}." in footer and "Report an issue" in footer
    report = page.locator("#provenance a", has_text="Report an issue").get_attribute("href")
    assert report.startswith("https://github.com/acme/shopcart/issues/new?title=errdex%3A%20CartError")
    versions = page.locator("#versions tbody tr").all_inner_texts()
    assert [v.split("\t")[0] for v in versions] == ["v2.1.0", "v2.0.0"]
    page.context.close()


def test_a_related_link_leads_to_that_errors_page(browser: Any, shop_server: Server) -> None:
    eid = httpx.get(shop_server.url + "/api/search", params={"q": "quantity must be positive"}).json()["results"][0]["id"]
    page = _page(browser)
    page.goto(f"{shop_server.url}/errors/{eid}")
    link = page.locator("#related a").first
    title = link.inner_text()
    link.click()
    page.wait_for_url(re.compile(r"/errors/[0-9a-f]{16}$"))
    assert not page.url.endswith(eid)
    assert page.locator("#title").inner_text().rstrip("…") in title
    page.context.close()


def test_paste_search_and_repo_pages_work_without_javascript(browser: Any, shop_server: Server) -> None:
    page = _page(browser, js=False)
    page.goto(shop_server.url + "/")
    assert page.locator("table.repos").inner_text().count("acme/shopcart") == 1
    page.fill("#paste-text", "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n"
                             "shopcart.errors.OutOfStockError: only 2 of pear left in stock")
    page.click("#paste button[type=submit]")
    best = page.locator("ol.matches > li").first
    assert "only {self.stock[sku]} of {sku} left in stock" in best.inner_text()
    assert "pear" in best.locator("table.values").inner_text()
    page.fill("#top-q", "unknown sku")
    page.click("header form.search button")
    page.wait_for_url(re.compile(r"/search\?q=unknown\+sku$"))  # count() does not wait for the new page
    page.wait_for_load_state("load")
    assert page.locator("#results li").count() >= 1
    page.goto(shop_server.url + "/acme/shopcart")
    page.click("#by-exception a:has-text('KeyError')")
    assert page.url.endswith("?exception=KeyError")
    assert set(page.locator("#errors li").evaluate_all("els => els.map(e => e.dataset.exception)")) == {"KeyError"}
    page.click("h3.module a")
    assert page.locator("h1").inner_text() == "shopcart/cart.py"
    page.context.close()


def test_xss_payloads_never_run(browser: Any, xss_server: Server) -> None:
    """Every page showing the hostile package: no dialog, no console error, no script ran."""
    repo = httpx.get(xss_server.url + "/api/repos/evil/xsslib").json()
    ids = [e["id"] for e in repo["errors"]]
    assert len(ids) == 3
    page = _page(browser)
    dialogs: list[str] = []
    console: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
    urls = ["/", "/evil/xsslib", "/evil/xsslib/xsslib/core.py", *(f"/errors/{i}" for i in ids),
            "/search?q=" + "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "/errors/<script>alert(1)</script>"]
    for url in urls:
        page.goto(xss_server.url + url)
        page.wait_for_load_state("load")
        assert page.evaluate("typeof window.__xss") == "undefined", url
    page.goto(f"{xss_server.url}/errors/{ids[0]}")
    body = page.locator("body").inner_text()
    assert "<script>window.__xss=" in body  # shown as text, not run
    for link in page.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))"):
        assert not (link or "").lower().startswith("javascript:"), link
    page.goto(xss_server.url + "/")
    page.fill("#paste-text", "ValueError: <script>window.__xss='message';alert('message')</script> is not a tag")
    page.click("#paste button[type=submit]")
    page.wait_for_selector("ol.matches")
    assert page.evaluate("typeof window.__xss") == "undefined"
    page.locator("ol.matches .match-title a").first.click()
    page.wait_for_load_state("load")
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert dialogs == []
    # the one expected failure is the malformed id; a CSP refusal would show here too
    expected = "error: Failed to load resource: the server responded with a status of 422 (Unprocessable Content)"
    assert [c for c in console if "error" in c.split(":")[0] and c != expected] == []
    assert console.count(expected) == 1
    page.context.close()
