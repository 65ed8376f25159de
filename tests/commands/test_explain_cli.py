"""``errdex explain`` as a user runs it: a subprocess, TEXT or stdin, text or ``--json``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TINYJIT = ROOT / "tests" / "fixtures" / "match_tinyjit"
TRACEBACKS = ROOT / "tests" / "fixtures" / "match_tracebacks"


def errdex(*args: str, home: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, ERRDEX_HOME=str(home))
    env.pop("ERRDEX_DB", None)
    return subprocess.run([sys.executable, "-m", "errdex", *args], input=stdin, capture_output=True, text=True,
                          env=env, check=False, timeout=120)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    home = tmp_path_factory.mktemp("home")
    path = str(home / "tiny.sqlite")
    done = errdex("index", str(TINYJIT), "--repo", "example/tinyjit", "--db", path, home=home)
    assert done.returncode == 0, done.stderr
    return path, home


def test_text_argument(db: tuple[str, Path]) -> None:
    path, home = db
    out = errdex("explain", "ValueError: cannot reshape array of size 3 into shape (2, 2)", "--db", path, home=home)
    assert out.returncode == 0, out.stderr
    assert "example/tinyjit · error · ValueError" in out.stdout
    assert "cannot reshape array of size {len(values)} into shape {tuple(shape)}" in out.stdout
    assert "{len(values)} = 3" in out.stdout
    assert "tinyjit/_src/arrays.py:11" in out.stdout
    assert "https://github.com/example/tinyjit/blob/" in out.stdout


def test_stdin_traceback_json(db: tuple[str, Path]) -> None:
    path, home = db
    text = (TRACEBACKS / "cpython_shared_template_pmap.txt").read_text()
    out = errdex("explain", "--json", "--top", "2", "--db", path, home=home, stdin=text)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert len(data["matches"]) == 2
    top = data["matches"][0]
    assert set(top) >= {"id", "score", "kind", "exception", "template", "values", "repo", "commit", "path", "line", "url"}
    assert top["line"] == 28 and top["pinned_by_frame"] is True
    assert top["values"] == [{"placeholder": "{fun.__name__}", "value": "len"}]
    assert data["parsed"]["format"] == "cpython" and data["parsed"]["exception"] == "RuntimeError"
    assert data["no_site"] is None and data["confident"] is True


def test_dash_reads_stdin(db: tuple[str, Path]) -> None:
    path, home = db
    out = errdex("explain", "-", "--json", "--db", path, home=home, stdin="pmap got axis_size=-1, but it must be positive")
    assert json.loads(out.stdout)["matches"][0]["exception"] == "ValueError"


def test_no_raise_site_is_said(db: tuple[str, Path]) -> None:
    path, home = db
    text = (TRACEBACKS / "cpython_interpreter.txt").read_text()
    out = errdex("explain", "--db", path, home=home, stdin=text)
    assert out.returncode == 0
    assert "no confident match" in out.stdout
    assert "origin: interpreter" in out.stdout
    assert "surfaced at tinyjit/_src/arrays.py:19 in total" in out.stdout
    data = json.loads(errdex("explain", "--json", "--db", path, home=home, stdin=text).stdout)
    assert data["no_site"]["origin"] == "interpreter"
    assert data["no_site"]["frame"]["path"] == "tinyjit/_src/arrays.py"


def test_repo_filter(db: tuple[str, Path]) -> None:
    path, home = db
    out = errdex("explain", "--json", "--repo", "other/repo", "--db", path, home=home,
                 stdin="cannot reshape array of size 3 into shape (2, 2)")
    assert json.loads(out.stdout)["matches"] == []


def test_bad_input(db: tuple[str, Path]) -> None:
    path, home = db
    empty = errdex("explain", "--db", path, home=home, stdin="   \n")
    assert empty.returncode == 2 and "empty" in empty.stderr and "explained by its type" in empty.stderr
    top = errdex("explain", "x", "--top", "0", "--db", path, home=home)
    assert top.returncode == 2 and "--top" in top.stderr


def test_unreadable_catalog(tmp_path: Path) -> None:
    bad = tmp_path / "not-a-db.sqlite"
    bad.write_text("this is not sqlite")
    out = errdex("explain", "x", "--db", str(bad), home=tmp_path)
    assert out.returncode == 1 and str(bad) in out.stderr
    assert "Traceback" not in out.stderr


def test_index_cache_is_made_beside_the_catalog(db: tuple[str, Path]) -> None:
    path, home = db
    errdex("explain", "x", "--db", path, home=home)
    assert list(Path(path).parent.glob(Path(path).name + ".match.*"))


def test_a_tie_is_explained(db: tuple[str, Path]) -> None:
    path, home = db
    msg = "RuntimeError: re-tracing function f for `jit`, but 'no_tracing' is set"
    out = errdex("explain", msg, "--db", path, home=home)
    assert out.returncode == 0, out.stderr
    assert "not confident: 2 places raise this exact message" in out.stdout
    assert "paste the full traceback and its innermost frame decides" in out.stdout
    assert "tied with 1 other site raising the same text:" in out.stdout
    data = json.loads(errdex("explain", msg, "--json", "--db", path, home=home).stdout)
    top = data["matches"][0]
    assert data["confident"] is False and top["confident"] is False and top["tied_count"] == 1
    assert [t["line"] for t in top["tied"]] == [data["matches"][1]["line"]]
