"""Versions side by side: one error id across versions, each page listing where each version raises it."""

from __future__ import annotations

import json

from reviewkit import REPO, Lib, errdex

from errdex.catalog import open_catalog


def _ids(lib: Lib) -> dict[tuple[str, str], str]:
    """(ref, qualname + template) -> error id, read from the catalog."""
    cat = open_catalog(lib.db)
    try:
        return {(s.ref or "", f"{x.qualname}: {x.template.render()}"): x.error_id
                for s in cat.snapshots(REPO) for x in cat.sites(snapshot_key=s.key)}
    finally:
        cat.close()


def test_ids_survive_a_move_to_another_file(mylib: Lib) -> None:
    ids = _ids(mylib)
    key = "load: path must not be empty"
    assert ids[("v1.0", key)] == ids[("v2.0", key)]


def test_show_json_lists_each_version_with_its_line_and_the_versions_without_it(mylib: Lib) -> None:
    ids = _ids(mylib)
    moved = ids[("v2.0", "load: path must not be empty")]
    doc = json.loads(errdex("show", moved, "--json", "--db", mylib.db, env=mylib.env).stdout)
    assert [(v["version"], v["path"], v["line"]) for v in doc["snapshots"]] == [
        ("v2.0", "mylib/io.py", 9), ("v1.0", "mylib/core.py", 13)]
    assert doc["snapshots"][1]["source_url"] == "https://github.com/acme/mylib/blob/v1.0/mylib/core.py#L13"
    assert doc["not_in"] == []
    gone = ids[("v1.0", "old_api: old_api() is going away")]
    doc = json.loads(errdex("show", gone, "--json", "--db", mylib.db, env=mylib.env).stdout)
    assert [v["version"] for v in doc["snapshots"]] == ["v1.0"]
    assert doc["not_in"] == [{"snapshot": f"{REPO}@v2.0", "version": "v2.0"}]


def test_show_prints_the_versions(mylib: Lib) -> None:
    ids = _ids(mylib)
    new = ids[("v2.0", "new_api: \"unknown name {name}; expected 'a' or 'b'\"")]  # KeyError's repr: `"` quotes
    out = errdex("show", new, "--db", mylib.db, env=mylib.env).stdout
    assert "Versions" in out and f"v2.0  {REPO}@v2.0: mylib/core.py:30" in out
    assert "not raised in v1.0" in out


def test_the_page_links_every_version_and_names_those_without_it(mylib: Lib) -> None:
    from fastapi.testclient import TestClient

    from errdex.web.app import create_app
    from errdex.web.settings import WebSettings

    ids = _ids(mylib)
    moved = ids[("v2.0", "load: path must not be empty")]
    gone = ids[("v1.0", "old_api: old_api() is going away")]
    cat = open_catalog(mylib.db)
    try:
        client = TestClient(create_app(cat, WebSettings.from_env(db=mylib.db)))
        html = client.get(f"/errors/{moved}").text
        assert 'href="https://github.com/acme/mylib/blob/v1.0/mylib/core.py#L13"' in html
        assert 'href="https://github.com/acme/mylib/blob/v2.0/mylib/io.py#L9"' in html
        html = client.get(f"/errors/{gone}").text
        assert "Not raised in v2.0" in html
        assert client.get(f"/api/errors/{gone}").json()["not_in"][0]["version"] == "v2.0"
    finally:
        cat.close()
