"""``bench/pages_after.py --db A --db B``: each id's page comes from the first catalog that holds it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from errdex.analyze.run import analyze_snapshot

from .pagekit import load_fixture

BENCH = Path(__file__).resolve().parents[2] / "bench" / "pages_after.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pages_after", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _catalog(tmp: Path, fixture: str, repo: str) -> tuple[Path, list[str]]:
    cat, ctx = load_fixture(tmp, fixture, repo)
    cat.put_analyses(analyze_snapshot(cat, ctx.snapshot).analyses)
    ids = sorted({s.error_id for s in ctx.sites})
    cat.close()
    return tmp / "c.sqlite", ids


def test_each_page_comes_from_the_first_catalog_that_holds_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, a_ids = _catalog(tmp_path / "a", "an_clilike", "example/clilike")
    b, b_ids = _catalog(tmp_path / "b", "an_jaxlike", "example/jaxlike")
    ids = [a_ids[0], b_ids[0]]
    (tmp_path / "ids.txt").write_text("\n".join(ids) + "\n")
    bench = _bench()
    assert bench.main(str(tmp_path / "ids.txt"), str(tmp_path / "out"), [str(a), str(b)]) == 0
    assert "1 from " + str(a) in capsys.readouterr().out
    assert "example/clilike" in (tmp_path / "out" / f"{a_ids[0]}.md").read_text()
    assert "example/jaxlike" in (tmp_path / "out" / f"{b_ids[0]}.md").read_text()
    assert bench.main(str(tmp_path / "ids.txt"), str(tmp_path / "out2"), [str(a)]) == 1  # b's id is missing
    assert bench._args(["ids", "out", "--db", "x", "--db=y"]) == (["ids", "out"], ["x", "y"])
