"""ERRDEX_STRICT: an unclassified raise shape is loud in tests and quiet (unresolved) in production."""

from __future__ import annotations

from pathlib import Path

import pytest
from extract_helpers import extract_dir

from errdex.extract import UnclassifiedShape

# A raise of a ``yield`` expression: no extractor rule classifies it.
ODD = '''\
def gen():
    raise (yield)


def gen_message():
    raise ValueError((yield))
'''


@pytest.fixture
def odd(tmp_path: Path) -> Path:
    (tmp_path / "odd.py").write_text(ODD)
    return tmp_path


def test_strict_raises_on_an_unclassified_shape(odd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_STRICT", "1")
    with pytest.raises(UnclassifiedShape, match=r"odd.py:2"):
        extract_dir(odd)


def test_production_counts_it_as_unresolved(odd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_STRICT", "0")
    result = extract_dir(odd)
    by_name = {s.qualname: s for s in result.sites}
    assert by_name["gen"].exception == "yield"
    assert by_name["gen_message"].unresolved == ("yield",)
    assert result.failures == ()


def test_strict_reaches_worker_processes(odd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_STRICT", "1")
    for i in range(30):  # enough files for the pool to be used
        (odd / f"fine_{i}.py").write_text("def f():\n    raise ValueError('fine')\n")
    with pytest.raises(UnclassifiedShape):
        extract_dir(odd, jobs=2)
