"""Every way a file can be broken: recorded as a FileFailure with its reason, and the run goes on."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from extract_helpers import FIXTURES, extract_dir

from errdex.extract import extract_tree
from errdex.model import ExtractResult, Snapshot
from errdex.sources.base import SourceFile, SourceTree

BROKEN = FIXTURES / "extract_broken"


@pytest.fixture(scope="module")
def broken() -> ExtractResult:
    return extract_dir(BROKEN)


@pytest.mark.parametrize(("file", "reason"), [
    pytest.param("newer_syntax.py", "syntax error at line 3", id="newer-syntax"),
    pytest.param("syntax_error.py", "syntax error at line 1", id="syntax-error"),
    pytest.param("bad_bytes.py", "encoding error: not valid utf-8: byte 0xe9 at line 2", id="bad-bytes"),
    pytest.param("wrong_cookie.py", "encoding error: not valid ascii: byte 0xc3 at line 3", id="wrong-cookie"),
    pytest.param("unknown_cookie.py", "unknown encoding: klingon", id="unknown-cookie"),
    pytest.param("nul_bytes.py", "NUL byte at line 2", id="nul-bytes"),
    pytest.param("deep_binop.py", "nesting too deep to parse (RecursionError)", id="deep-recursion"),
    pytest.param("deep_unary.py", "nesting too deep to parse (MemoryError)", id="deep-parser-stack"),
])
def test_broken_file_is_recorded_with_its_reason(broken: ExtractResult, file: str, reason: str) -> None:
    failures = {f.path: f.reason for f in broken.failures}
    assert reason in failures[f"brokenpkg/{file}"]


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="t-strings parse on 3.14")
def test_newer_syntax_reason_says_so(broken: ExtractResult) -> None:
    reason = next(f.reason for f in broken.failures if f.path.endswith("newer_syntax.py"))
    assert f"newer than Python {sys.version_info.major}.{sys.version_info.minor}" in reason


def test_the_run_continues(broken: ExtractResult) -> None:
    assert {s.path for s in broken.sites} == {"brokenpkg/ok.py", "brokenpkg/deep_but_parses.py"}
    assert broken.files_read == 3  # __init__, ok, deep_but_parses


def test_deep_expression_that_parses_keeps_its_site(broken: ExtractResult) -> None:
    site = next(s for s in broken.sites if s.path.endswith("deep_but_parses.py"))
    assert site.template.render().startswith("the sum is too long: {a}{a}")
    assert site.guards[0].kind == "if"


def test_huge_generated_file_is_refused(tmp_path: Path) -> None:
    pkg = tmp_path / "gen"
    pkg.mkdir()
    big = pkg / "tables.py"
    line = "TABLE_ENTRY_%08d = 'x' * 64  # generated\n"
    with big.open("w") as f:
        for i in range(50 * 1024 * 1024 // len(line % 0) + 1):
            f.write(line % i)
    assert big.stat().st_size >= 50 * 1024 * 1024
    (pkg / "ok.py").write_text("def f():\n    raise ValueError('still indexed next to a huge file')\n")
    result = extract_dir(tmp_path)
    assert [f.path for f in result.failures] == ["gen/tables.py"]
    assert "file too large" in result.failures[0].reason
    assert [s.path for s in result.sites] == ["gen/ok.py"]


def test_size_limit_is_a_parameter(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def f():\n    raise ValueError('a file of a hundred bytes or so, over the limit')\n")
    tree = SourceTree(Snapshot(repo="a/b"), tmp_path, (SourceFile("m.py", tmp_path / "m.py"),))
    result = extract_tree(tree, jobs=1, max_file_bytes=10)
    assert result.failures[0].reason.startswith("file too large")


def test_unreadable_file_is_a_failure(tmp_path: Path) -> None:
    tree = SourceTree(Snapshot(repo="a/b"), tmp_path, (SourceFile("gone.py", tmp_path / "gone.py"),))
    result = extract_tree(tree, jobs=1)
    assert result.failures[0].path == "gone.py"
    assert result.failures[0].reason.startswith("cannot read")
