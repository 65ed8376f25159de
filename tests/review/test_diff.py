"""``errdex diff``: mylib 1.0 -> 2.0 has one change of every kind (see conftest.py)."""

from __future__ import annotations

import json

import pytest
from reviewkit import REPO, Lib, errdex

from errdex.catalog import open_catalog
from errdex.review import md

OLD, NEW = f"{REPO}@v1.0", f"{REPO}@v2.0"


def _diff(lib: Lib, *args: str) -> dict[str, object]:
    proc = errdex("diff", OLD, NEW, "--json", "--db", lib.db, *args, env=lib.env)
    assert proc.returncode == 0, proc.stderr
    data: dict[str, object] = json.loads(proc.stdout)
    return data


def test_every_kind_of_change_is_found_and_paired(mylib: Lib) -> None:
    doc = _diff(mylib)
    assert doc["counts"] == {"added": 1, "removed": 1, "message": 1, "exception": 1, "moved": 2, "unchanged": 4}
    by_kind: dict[str, list[dict[str, dict[str, object]]]] = {}
    for c in doc["changes"]:  # type: ignore[attr-defined]
        by_kind.setdefault(c["change"], []).append(c)
    (added,) = by_kind["added"]
    assert added["old"] is None and added["new"]["qualname"] == "new_api" and added["new"]["exception"] == "KeyError"
    (removed,) = by_kind["removed"]
    assert removed["new"] is None and removed["old"]["template"] == "old_api() is going away"
    (message,) = by_kind["message"]
    assert (message["old"]["template"], message["new"]["template"]) == (
        "size must be positive, got {n}", "size must be a positive integer, got {n}")
    (exc,) = by_kind["exception"]
    assert (exc["old"]["exception"], exc["new"]["exception"]) == ("TypeError", "ValueError")
    moved = by_kind["moved"]
    assert {(m["old"]["path"], m["new"]["path"], m["new"]["qualname"]) for m in moved} == {
        ("mylib/core.py", "mylib/io.py", "load")}
    assert all(m["old"]["id"] == m["new"]["id"] for m in moved)  # the same error, moved
    assert doc["url"] == "/acme/mylib/diff/v1.0..v2.0" and doc["json_url"] == "/api/diff/acme/mylib/v1.0..v2.0"


def test_a_version_names_the_snapshot_with_or_without_its_v(mylib: Lib) -> None:
    proc = errdex("diff", f"{REPO}@1.0", f"{REPO}@2.0", "--json", "--db", mylib.db, env=mylib.env)
    assert proc.returncode == 0 and json.loads(proc.stdout)["counts"]["added"] == 1


def test_markdown_is_a_changelog_section(mylib: Lib) -> None:
    proc = errdex("diff", OLD, NEW, "--format", "markdown", "--db", mylib.db, env=mylib.env)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("## Errors: mylib v1.0 → v2.0\n\n1 added, 1 removed, 1 messages changed, "
                          "1 exception types changed, 2 moved (4 unchanged).\n")
    for title in ("### New errors (1)", "### Errors no longer raised (1)", "### Messages changed (1)",
                  "### Exception types changed (1)", "### Moved (2)"):
        assert f"\n{title}\n\n- " in out
    assert "`size must be positive, got {n}` → `size must be a positive integer, got {n}`" in out
    assert "`TypeError` → `ValueError` in `convert`" in out
    assert "[`mylib/io.py:9`](<https://github.com/acme/mylib/blob/v2.0/mylib/io.py#L9>)" in out


def test_text_output(mylib: Lib) -> None:
    out = errdex("diff", OLD, NEW, "--db", mylib.db, env=mylib.env).stdout
    assert out.splitlines()[0] == "acme/mylib: v1.0 -> v2.0"
    assert "  ! TypeError -> ValueError: 'cannot convert {x} to int'" in out


@pytest.mark.parametrize(("args", "code", "says"), [
    (["acme/mylib@v1.0", "acme/mylib@v9"], 1, "no snapshot acme/mylib@v9 in the catalog (indexed versions of acme/mylib: v2.0, v1.0)"),
    (["acme/mylib", "acme/mylib@v2.0"], 2, "is not OWNER/NAME@REF"),
    (["acme/mylib@v1.0", "other/lib@v2.0"], 2, "both snapshots must be of one repo"),
    ([OLD, NEW, "--format", "rst"], 2, "--format must be text, markdown or json"),
])
def test_bad_names_are_refused_with_a_reason(mylib: Lib, args: list[str], code: int, says: str) -> None:
    proc = errdex("diff", *args, "--db", mylib.db, env=mylib.env)
    assert proc.returncode == code and says in proc.stderr, proc.stderr


def test_the_page_and_its_json_twin_are_the_cli_document(mylib: Lib) -> None:
    from fastapi.testclient import TestClient

    from errdex.web.app import create_app
    from errdex.web.settings import WebSettings

    cli = _diff(mylib)
    cat = open_catalog(mylib.db)
    try:
        client = TestClient(create_app(cat, WebSettings.from_env(db=mylib.db)))
        api = client.get("/api/diff/acme/mylib/v1.0..v2.0")
        assert api.status_code == 200 and api.json() == cli
        page = client.get("/acme/mylib/diff/v1.0..v2.0")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        html = page.text
        assert '<link rel="alternate" type="application/json" href="/api/diff/acme/mylib/v1.0..v2.0">' in html
        for section in ("added", "removed", "message", "exception", "moved"):
            assert f'<section id="{section}">' in html
        assert "1 added, 1 removed, 1 messages changed, 1 exception types changed, 2 moved (4 unchanged)" in html
        missing = client.get("/acme/mylib/diff/v1.0..v3.0")
        assert missing.status_code == 404 and "indexed versions of acme/mylib" in missing.text
        assert client.get("/api/diff/acme/mylib/v1.0").status_code == 422
        assert client.get("/acme/mylib/mylib/core.py").status_code == 200  # module pages still answer
        assert "/api/diff/{owner}/{name}/{pair}" in client.get("/openapi.json").json()["paths"]
    finally:
        cat.close()


@pytest.mark.parametrize(("text", "span"), [
    ("plain", "`plain`"),
    ("a `b` c", "``a `b` c``"),
    ("<script>alert(1)</script>", "`<script>alert(1)</script>`"),
    ("two\nlines", "`two lines`"),
    ("``x", "``` ``x ```"),
])
def test_markdown_code_spans_hold_any_text(text: str, span: str) -> None:
    assert md.code(text) == span


def test_markdown_text_and_links_are_escaped() -> None:
    assert md.text("v1.0 <b>*x*</b>") == "v1.0 &lt;b&gt;\\*x\\*&lt;/b&gt;"
    assert md.link("x", "javascript:alert(1)") == "x"
    assert md.link("x", "https://h/a b>") == "[x](<https://h/a%20b%3E>)"


def test_prose_keeps_the_spaces_around_code_spans() -> None:
    assert md.prose("Calling `click.Context.exit` raises `Exit`.") == "Calling `click.Context.exit` raises `Exit`."
    assert md.prose("`a` and `b`") == "`a` and `b`"
