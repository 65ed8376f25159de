"""The site's cache is bounded in bytes, whatever the entries weigh and however many keys clients make."""

from __future__ import annotations

from fastapi.testclient import TestClient
from webkit import Built

from errdex.catalog.sqlite import SqliteCatalog
from errdex.web.app import create_app
from errdex.web.settings import WebSettings
from errdex.web.site import ByteLRU, size_of


def test_byte_lru_holds_its_budget_and_evicts_the_oldest() -> None:
    lru = ByteLRU(100_000)
    for i in range(50):
        assert lru.get_or(i, lambda i=i: bytes(10_000) + bytes([i])) == bytes(10_000) + bytes([i])
        assert lru.bytes <= 100_000
    assert 5 <= len(lru) <= 10 and 49 in lru.data and 0 not in lru.data
    big = lru.get_or("big", lambda: bytes(30_000))  # over a quarter of the budget: served, not kept
    assert len(big) == 30_000 and "big" not in lru.data
    assert size_of({"a": ["x" * 1000, {"b": 2}]}) > 1000


def test_pages_for_many_hosts_stay_within_the_cache_budget(shop: Built) -> None:
    """Pages are keyed by origin: a client sending a new Host each time must not grow the process."""
    catalog = SqliteCatalog(shop.db)
    settings = WebSettings(cache_mb=0.5)
    try:
        app = create_app(catalog, settings)
        lru = app.state.site._cache
        with TestClient(app) as c:
            for i in range(300):
                r = c.get("/acme/shopcart", headers={"Host": f"h{i}.example"})
                assert r.status_code == 200 and f"h{i}.example" in r.text
                assert lru.bytes <= settings.cache_bytes
        assert len(lru) < 300
    finally:
        catalog.close()
