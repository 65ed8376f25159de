"""The console script's fast path for ``errdex explain`` (``errdex/entry.py``).

It must answer exactly as the Typer command would, and must not import what
made ``explain`` slow (Typer, Rich, pydantic, FastAPI, the catalog package,
the data model) when the match index is on disk.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from errdex.cli import app
from errdex.entry import explain_args

ROOT = Path(__file__).resolve().parents[1]
TINYJIT = ROOT / "tests" / "fixtures" / "match_tinyjit"
MESSAGE = "ValueError: cannot reshape array of size 3 into shape (2, 2)"
HEAVY = ("typer", "click", "rich", "pydantic", "fastapi", "errdex.catalog", "errdex.model", "errdex.cli",
         "platformdirs", "pathlib")


def typer_args(argv: list[str]) -> dict[str, object]:
    """What Typer/Click make of ``errdex explain ARGV``, as ``run_explain`` keywords."""
    sub = typer.main.get_command(app).commands["explain"]  # type: ignore[attr-defined]
    ctx = sub.make_context("explain", list(argv))
    p = ctx.params
    keys = ("text", "db", "json_out", "top", "repo", "python", "sys_path", "brief")
    return {k: p[k] for k in keys}


@pytest.mark.parametrize("argv", [
    [MESSAGE],
    [MESSAGE, "--db", "x.sqlite"],
    ["--db=x.sqlite", MESSAGE, "--json"],
    ["--top", "3", "--repo", "a/b", "-"],
    ["--top=7"],
    [],
    ["--", "--not-an-option"],
    ["", "--json"],
    ["-", "--brief", "--python", "/v/bin/python", "--sys-path", "/a:/b"],
])
def test_the_fast_parser_agrees_with_typer(argv: list[str]) -> None:
    assert explain_args(argv) == typer_args(argv)


@pytest.mark.parametrize("argv", [
    ["--help"], ["-h"], ["--top", "x"], ["--top", "+3"], ["--top"], ["--bogus"], ["a", "b"], ["--json=1"],
    ["--db", "--json"], ["--top", "1", "--top", "2"], ["-x"],
])
def test_anything_unusual_is_left_to_typer(argv: list[str]) -> None:
    assert explain_args(argv) is None


def run(code: str, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, ERRDEX_HOME=str(home))
    env.pop("ERRDEX_DB", None)
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                          check=False, timeout=120)


def test_explain_answers_without_importing_the_cli_framework_or_the_catalog(tmp_path: Path) -> None:
    db = str(tmp_path / "tiny.sqlite")
    done = run("from errdex.cli import main; main()", tmp_path, "index", str(TINYJIT), "--repo", "example/tinyjit",
               "--db", db)
    assert done.returncode == 0, done.stderr
    probe = ("import sys\nfrom errdex.entry import main\nsys.argv = ['errdex', *sys.argv[1:]]\n"
             "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
             f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r} or m.startswith({HEAVY!r}))\n"
             "print('HEAVY', heavy, 'EXIT', code)")
    first = run(probe, tmp_path, "explain", MESSAGE, "--db", db)  # builds and stores the match index
    assert "example/tinyjit · error · ValueError" in first.stdout, first.stderr
    again = run(probe, tmp_path, "explain", MESSAGE, "--db", db)
    assert "example/tinyjit · error · ValueError" in again.stdout, again.stderr
    assert again.stdout.rstrip().endswith("HEAVY [] EXIT 0")


def test_help_and_errors_are_typers(tmp_path: Path) -> None:
    env = dict(os.environ, ERRDEX_HOME=str(tmp_path))
    helped = subprocess.run([sys.executable, "-m", "errdex", "explain", "--help"], capture_output=True, text=True,
                            env=env, check=False, timeout=60)
    assert helped.returncode == 0 and "--top" in helped.stdout and "--repo" in helped.stdout
    bad = subprocess.run([sys.executable, "-m", "errdex", "explain", "x", "--top", "many"], capture_output=True,
                         text=True, env=env, check=False, timeout=60)
    assert bad.returncode == 2 and "--top" in bad.stderr and "Usage:" in bad.stderr


def typer_index_args(argv: list[str]) -> dict[str, object]:
    """What Typer/Click make of ``errdex index ARGV``, as ``run_index`` keywords (as cli.index passes them)."""
    sub = typer.main.get_command(app).commands["index"]  # type: ignore[attr-defined]
    p = sub.make_context("index", list(argv)).params
    return {"sources": p["sources"] or [], "repo": p["repo"], "commit": p["commit"], "ref": p["ref"], "db": p["db"],
            "jobs": p["jobs"], "path_prefix": p["repo_path_prefix"], "json_out": p["json_out"],
            "python": p["python"], "use_cache": not p["no_cache"], "limits": p["limit"] or [],
            "from_list": p["from_list"], "cluster": p["cluster"], "scheduler": p["scheduler"],
            "reindex": p["reindex"]}


@pytest.mark.parametrize("argv", [
    ["jax.whl"],
    ["jax.whl", "--db", "x.sqlite", "--jobs", "2", "--json"],
    ["a.whl", "b.whl", "--no-cache", "-j", "1"],
    ["--repo=a/b", "--commit", "abc", "--ref", "v1", "--repo-path-prefix", "src/", "dir"],
    ["installed:click", "--python", "/v/bin/python", "--jobs=3"],
    ["--", "-odd-name"],
])
def test_the_fast_index_parser_agrees_with_typer(argv: list[str]) -> None:
    from errdex.entry import index_args

    assert index_args(argv) == typer_index_args(argv)


@pytest.mark.parametrize("argv", [
    [], ["--help"], ["x", "--limit", "file_bytes=1"], ["--from-list", "f"], ["x", "--cluster", "local"],
    ["x", "--reindex"], ["x", "--jobs", "two"], ["x", "-j", "1", "--jobs", "2"], ["x", "--json=1"], ["x", "-j2"],
])
def test_index_options_it_does_not_know_are_left_to_typer(argv: list[str]) -> None:
    from errdex.entry import index_args

    assert index_args(argv) is None


def test_index_runs_without_importing_the_cli_framework(tmp_path: Path) -> None:
    """``errdex index SOURCE`` is parsed by entry.py: Typer and pydantic (which Typer imports
    when a command runs) are a fifth of a second of start-up that indexing does not need."""
    db = str(tmp_path / "tiny.sqlite")
    probe = ("import sys\nfrom errdex.entry import main\nsys.argv = ['errdex', *sys.argv[1:]]\n"
             "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
             "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click', 'pydantic', 'rich'))\n"
             "print('HEAVY', heavy, 'EXIT', code)")
    done = run(probe, tmp_path, "index", str(TINYJIT), "--repo", "example/tinyjit", "--db", db, "--json", "-j", "1")
    assert done.returncode == 0, done.stderr
    assert '"repo": "example/tinyjit"' in done.stdout
    assert done.stdout.rstrip().endswith("HEAVY [] EXIT 0")
