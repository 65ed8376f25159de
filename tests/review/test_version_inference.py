"""Version inference: the top match names the indexed versions that fit the input.

The tracebacks here are the ones Python prints for mylib 1.0 and 2.0
(``tests/fixtures/review_lib``); the real-data check against JAX's own
tracebacks is ``test_version_inference_jax.py``.
"""

from __future__ import annotations

import json

import pytest
from reviewkit import Lib, errdex

from errdex.catalog import open_catalog
from errdex.match import explain

SITE = "/home/u/.venv/lib/python3.13/site-packages"


def traceback(path: str, line: int, function: str, code: str, last: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/u/app.py", line 3, in <module>\n'
        "    main()\n"
        f'  File "{SITE}/{path}", line {line}, in {function}\n'
        f"    {code}\n"
        f"{last}\n"
    )


def _line(lib: Lib, version: str, path: str, needle: str) -> int:
    lines = (lib.root / version / path).read_text().split("\n")
    return next(i for i, s in enumerate(lines, 1) if needle in s)


def _versions(lib: Lib, text: str) -> tuple[str, list[str], int]:
    cat = open_catalog(lib.db)
    try:
        result = explain(cat, text)
    finally:
        cat.close()
    top = result.matches[0]
    assert len({v.evidence for v in top.versions}) <= 1  # one kind of evidence for all
    return top.template, [v.version for v in top.versions], top.versions_checked


def test_a_traceback_through_a_file_only_the_new_version_has(mylib: Lib) -> None:
    line = _line(mylib, "v2", "mylib/io.py", "raise ValueError")
    tb = traceback("mylib/io.py", line, "load", 'raise ValueError("path must not be empty")',
                   "ValueError: path must not be empty")
    assert _versions(mylib, tb) == ("path must not be empty", ["v2.0"], 2)


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_the_line_numbers_tell_the_version(mylib: Lib, version: str) -> None:
    line = _line(mylib, version, "mylib/core.py", 'raise Exception("tabs')
    tb = traceback("mylib/core.py", line, "parse", 'raise Exception("tabs are not allowed")',
                   "Exception: tabs are not allowed")
    template, versions, checked = _versions(mylib, tb)
    assert template == "tabs are not allowed" and versions == [f"{version}.0"] and checked == 2


def test_a_changed_line_rules_a_version_out_even_at_the_same_number(mylib: Lib) -> None:
    line = _line(mylib, "v2", "mylib/core.py", 'raise Exception("tabs')
    tb = traceback("mylib/core.py", line, "parse", 'raise Exception("tabs are NOT allowed")',
                   "Exception: tabs are not allowed")
    assert _versions(mylib, tb)[1] == []


def test_a_message_alone_names_the_versions_that_raise_it(mylib: Lib) -> None:
    assert _versions(mylib, "ValueError: path must not be empty")[1] == ["v2.0", "v1.0"]
    assert _versions(mylib, "KeyError: \"unknown name 'c'; expected 'a' or 'b'\"")[1] == ["v2.0"]


def test_cli_and_json_say_which_versions_fit(mylib: Lib) -> None:
    line = _line(mylib, "v1", "mylib/core.py", 'raise Exception("tabs')
    tb = traceback("mylib/core.py", line, "parse", 'raise Exception("tabs are not allowed")',
                   "Exception: tabs are not allowed")
    proc = errdex("explain", tb, "--db", mylib.db, env=mylib.env)
    assert proc.returncode == 0, proc.stderr
    assert "only mylib v1.0 (every library frame checked, of 2 versions indexed)" in proc.stdout
    doc = json.loads(errdex("explain", tb, "--json", "--db", mylib.db, env=mylib.env).stdout)
    top = doc["matches"][0]
    assert top["versions_checked"] == 2
    assert top["versions"] == [{
        "snapshot": "acme/mylib@v1.0", "version": "v1.0", "evidence": "frames", "frames": 1,
        "path": "mylib/core.py", "line": line,
        "url": f"https://github.com/acme/mylib/blob/v1.0/mylib/core.py#L{line}",
    }]
    assert all(m["versions"] == [] for m in doc["matches"][1:])
    out = errdex("explain", "ValueError: path must not be empty", "--db", mylib.db, env=mylib.env).stdout
    assert "raised by mylib v2.0, v1.0 (of 2 versions indexed)" in out


def test_the_explain_page_links_the_versions(mylib: Lib) -> None:
    from fastapi.testclient import TestClient

    from errdex.web.app import create_app
    from errdex.web.settings import WebSettings

    cat = open_catalog(mylib.db)
    try:
        client = TestClient(create_app(cat, WebSettings.from_env(db=mylib.db)))
        html = client.post("/explain", data={"text": "ValueError: path must not be empty"}).text
    finally:
        cat.close()
    assert 'id="versions"' in html and "Raised by mylib" in html
    assert 'href="https://github.com/acme/mylib/blob/v1.0/mylib/core.py#L13"' in html
