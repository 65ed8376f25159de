"""schemathesis against the app's own OpenAPI schema, in-process (ASGI), every default check."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from conftest import Built
from hypothesis import HealthCheck, given, settings

from errdex.catalog.sqlite import SqliteCatalog
from errdex.web.app import create_app

# schemathesis' own pytest loader (`from_fixture`) does not work with this pytest; the
# operations are driven with hypothesis directly instead, one test per operation.
OPERATIONS = [
    ("GET", "/api/errors/{error_id}"), ("GET", "/api/repos"), ("GET", "/api/repos/{owner}/{name}"),
    ("GET", "/api/repos/{owner}/{name}/{path}"), ("GET", "/api/search"), ("GET", "/api/search-index.json"),
    ("POST", "/api/explain"), ("GET", "/"), ("GET", "/search"), ("POST", "/explain"),
    ("GET", "/errors/{error_id}"), ("GET", "/{owner}/{name}"), ("GET", "/{owner}/{name}/{path}"),
    ("GET", "/sitemap.xml"), ("GET", "/robots.txt"), ("GET", "/docs"),
    ("GET", "/api/repos/{owner}/{name}/untested"), ("GET", "/{owner}/{name}/untested"),
]


@pytest.fixture(scope="module")
def api_schema(shop: Built) -> Any:
    catalog = SqliteCatalog(shop.db)
    yield schemathesis.openapi.from_asgi("/openapi.json", create_app(catalog))
    catalog.close()


def test_every_operation_is_covered(api_schema: Any) -> None:
    found = {(op.ok().method.upper(), op.ok().path) for op in api_schema.get_all_operations()}
    assert found == set(OPERATIONS)


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_the_api_keeps_its_own_schema(api_schema: Any, method: str, path: str) -> None:
    operation = api_schema[path][method]

    @given(case=operation.as_strategy())
    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def run(case: Any) -> None:
        case.call_and_validate()

    run()
