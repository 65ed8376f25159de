"""The routes answer exactly the names that ``errdex.sources.names`` lets the catalog hold."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from hostile_data import GOOD_REPO, HOSTILE, write_catalog
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from errdex.catalog.sqlite import SqliteCatalog
from errdex.sources.names import module_path_problem, repo_problem
from errdex.web.app import create_app
from errdex.web.settings import WebSettings


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = str(tmp_path_factory.mktemp("names") / "hostile.sqlite")
    write_catalog(db, HOSTILE)
    catalog = SqliteCatalog(db)
    with TestClient(create_app(catalog, WebSettings())) as c:
        yield c
    catalog.close()


def _status(client: TestClient, path: str) -> int:
    """GET ``path`` as sent (percent-escapes kept; httpx would fold "/../" itself)."""
    return client.get(path).status_code


# Dots are sent escaped: a client would fold a literal "/../" before sending (curl --path-as-is does not,
# and the server then sees the same decoded path as here).  "%2F" is decoded to "/" by the server, so it
# splits the segment rather than making a name: it is not a case of the rule.
PARTS = ["acme", "a", "A-1_b.c", "x" * 100, "x" * 101, ".hidden", "-dash", "_under", "%2E%2E", "%2E", "a b",
         "caf%C3%A9", "a%00b", "a~b", "a!b", "%2E%2E%5C"]


@pytest.mark.parametrize("part", PARTS)
def test_owner_and_name_boundary(client: TestClient, part: str) -> None:
    from urllib.parse import unquote

    valid = repo_problem(f"{unquote(part)}/lib") is None
    for url in (f"/api/repos/{part}/lib", f"/api/repos/acme/{part}", f"/{part}/lib"):
        status = _status(client, url)
        assert (status == 404) if valid else (status == 422), (url, status)


MODULES = ["lib/core.py", "core.py", "_private/x.py", "a/.hidden.py", "a/%2E%2E/b.py", "%2E%2E/b.py", "a/%2E/b.py",
           "a//b.py", "a/b.py/", "a b.py", "x" * 100 + ".py", "/".join(["x"] * 250), "/".join(["x"] * 251),
           "caf%C3%A9.py", "a/-b.py"]


@pytest.mark.parametrize("path", MODULES)
def test_module_path_boundary(client: TestClient, path: str) -> None:
    from urllib.parse import unquote

    valid = module_path_problem(unquote(path)) is None
    for url in (f"/api/repos/{GOOD_REPO}/{path}", f"/{GOOD_REPO}/{path}"):
        status = _status(client, url)
        if valid:
            assert status in (200, 404), (url, status)
        else:
            assert status == 422, (url, status)


@given(part=st.text(alphabet=st.characters(codec="ascii", exclude_characters="/?#%"), min_size=1, max_size=120))
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
def test_route_and_rule_agree_on_any_part(client: TestClient, part: str) -> None:
    from urllib.parse import quote

    assume(part not in (".", ".."))  # folded by the URL parser before routing
    assume(not part.endswith(".git"))  # the rule refuses it at index time; the route answers 404
    status = _status(client, f"/api/repos/{quote(part, safe='')}/lib")
    assert (status == 422) == (repo_problem(f"{part}/lib") is not None), (part, status)


def test_the_good_repo_is_served_and_hostile_ones_are_not_linked(client: TestClient) -> None:
    assert client.get(f"/api/repos/{GOOD_REPO}/lib/core.py").status_code == 200
    sitemap = client.get("/sitemap.xml").text
    assert f"/{GOOD_REPO}/lib/core.py</loc>" in sitemap
    for bad in ("escape", "/..", "sp ace", "sp%20ace", "outside-module", "a/b/c"):
        assert bad not in sitemap, bad
    home = client.get("/").text
    assert 'href="/sp%20ace/na%3Fme"' in home  # listed, and its link percent-encoded
