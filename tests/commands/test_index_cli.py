"""``errdex index``, ``show`` and ``stats`` run as a user runs them: as a subprocess.

The fixture package is the small ``tests/fixtures/src_tinylib`` made into a
git checkout in each test, so snapshots have a real commit and GitHub links.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TINYLIB = FIXTURES / "src_tinylib"


def run(env: dict[str, str], *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "errdex", *args], env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    e = dict(os.environ)
    e["ERRDEX_HOME"] = str(tmp_path / "home")
    e["ERRDEX_DB"] = str(tmp_path / "catalog.sqlite")
    e["COLUMNS"] = "160"
    e.pop("ERRDEX_STRICT", None)
    return e


def _git(cwd: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "T",
           "GIT_COMMITTER_EMAIL": "t@example.org", "HOME": str(cwd), "PATH": "/usr/bin:/bin",
           "GIT_COMMITTER_DATE": "2024-05-06T07:08:09+00:00", "GIT_AUTHOR_DATE": "2024-05-06T07:08:09+00:00"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    repo = tmp_path / "tinylib"
    shutil.copytree(TINYLIB, repo)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "initial")
    _git(repo, "remote", "add", "origin", "https://github.com/example-org/tinylib.git")
    return repo


def _line_of(path: Path, needle: str) -> int:
    for i, text in enumerate(path.read_text().splitlines(), 1):
        if needle in text:
            return i
    raise AssertionError(f"{needle!r} not in {path}")


def _stats(env: dict[str, str]) -> list[dict[str, object]]:
    proc = run(env, "stats", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert isinstance(data, list)
    return data


def test_index_prints_summary_and_stats_json(env: dict[str, str], checkout: Path) -> None:
    proc = run(env, "index", str(checkout))
    assert proc.returncode == 0, proc.stderr
    head = _git(checkout, "rev-parse", "HEAD")
    assert f"example-org/tinylib@{head}" in proc.stdout
    assert re.search(r"files read\s+\S*\s*5/5", proc.stdout), proc.stdout
    assert "top exception types" in proc.stdout
    assert "TinyError" in proc.stdout

    (snap,) = _stats(env)
    assert snap["snapshot_key"] == f"example-org/tinylib@{head}"
    assert snap["files_read"] == 5  # three modules and two test files are read
    assert snap["files_failed"] == []
    by_kind = snap["sites_by_kind"]
    assert isinstance(by_kind, dict)
    assert by_kind.get("error", 0) >= 3 and by_kind.get("warning", 0) == 1
    assert isinstance(snap["sites_by_exception"], dict) and snap["sites_by_exception"].get("TinyError") == 1
    assert snap["literal8_share"] == 1.0
    assert snap["literal8_share_of_text"] == 1.0
    for key in ("raise_statements", "raise_sites", "raise_site_share", "templates_resolved",
                "templates_without_literal", "templates_with_literal8", "unresolved_expressions"):
        assert key in snap


def test_reindex_replaces_and_json_output(env: dict[str, str], checkout: Path) -> None:
    first = run(env, "index", str(checkout), "--json")
    assert first.returncode == 0, first.stderr
    (a,) = json.loads(first.stdout)
    second = run(env, "index", str(checkout), "--json")
    (b,) = json.loads(second.stdout)
    assert a["sites"] == b["sites"] > 0
    stats = _stats(env)
    assert len(stats) == 1 and stats[0]["sites"] == a["sites"]


def test_show_prints_header_location_and_snippet(env: dict[str, str], checkout: Path) -> None:
    assert run(env, "index", str(checkout)).returncode == 0
    from errdex.catalog import open_catalog

    cat = open_catalog(env["ERRDEX_DB"])
    ((snap, site),) = cat.search("unknown size unit")
    cat.close()
    line = _line_of(checkout / "src" / "tinylib" / "core.py", "raise TinyError")
    proc = run(env, "show", site.error_id)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.splitlines()[0] == "example-org/tinylib · error · TinyError"
    assert "unknown size unit {unit} in {text}" in out
    assert f"Thrown at tinylib/core.py:{line}" in out
    assert f"https://github.com/example-org/tinylib/blob/{snap.commit}/src/tinylib/core.py#L{line}" in out
    assert "unit not in _UNITS" in out  # the guard
    assert re.search(rf"^\W*{line}\s.*raise TinyError", out, re.M), out  # snippet with real line numbers, marked


def test_show_lists_other_snapshots(env: dict[str, str], checkout: Path) -> None:
    assert run(env, "index", str(checkout)).returncode == 0
    first = _git(checkout, "rev-parse", "HEAD")
    core = checkout / "src" / "tinylib" / "core.py"
    core.write_text('"""Moved."""\n\n\n' + core.read_text())  # every raise moves down three lines
    _git(checkout, "commit", "-q", "-am", "move")
    second = _git(checkout, "rev-parse", "HEAD")
    assert run(env, "index", str(checkout)).returncode == 0
    from errdex.catalog import open_catalog

    cat = open_catalog(env["ERRDEX_DB"])
    ((_, site),) = cat.search("unknown size unit")
    cat.close()
    out = run(env, "show", site.error_id).stdout
    line = _line_of(core, "raise TinyError")
    assert f"Thrown at tinylib/core.py:{line}" in out
    assert "Versions" in out
    assert f"example-org/tinylib@{first}: tinylib/core.py:{line - 3}" in out
    assert f"blob/{second}/" in out
    assert len(_stats(env)) == 2


def test_show_json_is_the_api_document(env: dict[str, str], checkout: Path) -> None:
    assert run(env, "index", str(checkout)).returncode == 0
    from errdex.catalog import open_catalog
    from errdex.documents import error_document

    cat = open_catalog(env["ERRDEX_DB"])
    ((_, site),) = cat.search("unknown size unit")
    expected = error_document(cat, site.error_id)
    cat.close()
    proc = run(env, "show", site.error_id, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == json.loads(json.dumps(expected))


def test_show_unknown_and_malformed_ids(env: dict[str, str], checkout: Path) -> None:
    assert run(env, "index", str(checkout)).returncode == 0
    proc = run(env, "show", "0123456789abcdef")
    assert proc.returncode == 1
    assert "no error with id 0123456789abcdef" in proc.stderr
    proc = run(env, "show", "not-an-id")
    assert proc.returncode == 2
    assert "is not an error id" in proc.stderr


def test_bad_source_is_reported_and_others_still_indexed(env: dict[str, str], checkout: Path, tmp_path: Path) -> None:
    missing = tmp_path / "does-not-exist"
    proc = run(env, "index", str(missing), str(checkout), "pypi:bad spec")
    assert proc.returncode == 1
    assert f"errdex: {missing}: no such file or directory" in proc.stderr
    assert "pypi:bad spec: expected pypi:NAME" in proc.stderr
    assert "2 of 3 source(s) failed; 1 indexed" in proc.stderr
    assert len(_stats(env)) == 1


def test_nothing_indexable_exits_non_zero(env: dict[str, str], tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "mod.py").write_text("def f(:\n    raise ValueError('never parsed')\n")
    proc = run(env, "index", str(broken))
    assert proc.returncode == 1
    assert "nothing indexable" in proc.stderr and "mod.py" in proc.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = run(env, "index", str(empty))
    assert proc.returncode == 1 and "no Python (.py) files" in proc.stderr
    assert _stats(env) == []


def test_bad_options(env: dict[str, str], checkout: Path, tmp_path: Path) -> None:
    proc = run(env, "index", str(checkout), "--jobs", "0")
    assert proc.returncode == 2 and "--jobs 0" in proc.stderr
    proc = run(env, "index", str(checkout), "--db", "postgresql://u:pw@127.0.0.1:1/x")
    assert proc.returncode == 1 and "postgresql://u:***@127.0.0.1:1/x: cannot open catalog" in proc.stderr
    assert "pw@" not in proc.stderr
    proc = run(env, "index", str(checkout), "--repo", "no-slash")
    assert proc.returncode == 1 and "expected OWNER/NAME" in proc.stderr


def test_stats_of_empty_catalog(env: dict[str, str]) -> None:
    proc = run(env, "stats")
    assert proc.returncode == 0 and "catalog is empty" in proc.stdout
    assert _stats(env) == []


def test_progress_bar_on_a_terminal_stderr(env: dict[str, str], checkout: Path) -> None:
    """With stderr a terminal the extraction shows a Rich progress bar there, never on stdout."""
    import pty

    main_fd, child_fd = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "errdex", "index", str(checkout)], env=env, stdout=subprocess.PIPE,
                              stderr=child_fd, text=True, timeout=300, check=False)
        os.close(child_fd)
        chunks = []
        while True:
            try:
                data = os.read(main_fd, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(main_fd)
    assert proc.returncode == 0
    err = b"".join(chunks).decode("utf-8", "replace")
    assert "extracting example-org/tinylib" in err
    assert "extracting" not in proc.stdout and "files read" in proc.stdout


def _sites_json(db: str) -> list[str]:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT json FROM sites ORDER BY error_id, path, line")]


def test_reindex_uses_the_result_cache_and_stores_the_same_catalog(env: dict[str, str], checkout: Path,
                                                                   tmp_path: Path) -> None:
    import sqlite3

    assert run(env, "index", str(checkout), "--json").returncode == 0
    (db,) = (tmp_path / "home" / "cache" / "extract").glob("*/results.sqlite")

    def entries() -> list[tuple[str, float]]:
        with sqlite3.connect(db) as conn:
            return sorted(conn.execute("SELECT key, at FROM results"))

    first = entries()
    assert len(first) == 5  # one phase-1 result per file read
    before = _sites_json(env["ERRDEX_DB"])
    assert run(env, "index", str(checkout), "--json").returncode == 0
    assert entries() == first  # read, not rewritten
    assert _sites_json(env["ERRDEX_DB"]) == before


def test_no_cache_flag_and_variable_write_nothing(env: dict[str, str], checkout: Path, tmp_path: Path) -> None:
    assert run(env, "index", str(checkout), "--no-cache").returncode == 0
    assert run({**env, "ERRDEX_NO_CACHE": "1"}, "index", str(checkout)).returncode == 0
    assert not (tmp_path / "home" / "cache" / "extract").exists()


def test_show_prints_the_whole_page_after_analyze(env: dict[str, str], checkout: Path) -> None:
    """Once analysed, ``errdex show`` prints every section of the page, not only the source."""
    assert run(env, "index", str(checkout)).returncode == 0
    assert run(env, "analyze").returncode == 0
    from errdex.catalog import open_catalog

    cat = open_catalog(env["ERRDEX_DB"])
    ((snap, site),) = cat.search("unknown size unit")
    analysis = cat.get_analysis(site.error_id, snap.key)
    cat.close()
    assert analysis is not None
    out = run(env, "show", site.error_id).stdout
    for heading in ("Error message", "What it means", "Source", "Solutions", "Defensive patterns", "Prevention",
                    "When it happens", f"Data as JSON: /api/errors/{site.error_id}"):
        assert heading in out, (heading, out)
    assert analysis.meaning.split("`")[0].strip()[:30] in " ".join(out.split())
    assert "No analysis stored" not in out
