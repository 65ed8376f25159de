"""extract_tree as a whole: pool vs inline, progress, test files, facts, counting, classes, symbols."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest
from extract_helpers import FIXTURES, extract_dir, tree_of

from errdex.extract import extract_tree, facts
from errdex.model import ConfigOption, ExtractResult, TestExpectation

SHAPES = FIXTURES / "extract_shapes"


def test_pool_and_inline_agree(tmp_path: Path, shapes: ExtractResult) -> None:
    root = tmp_path / "many"
    shutil.copytree(SHAPES, root)
    for i in range(30):  # over the inline threshold, so the pool is really used
        (root / "shapes" / f"extra_{i}.py").write_text(f"def f{i}(x):\n    raise ValueError(f'extra {i}: {{x}}')\n")
    inline = extract_dir(root, jobs=1)
    pooled = extract_dir(root, jobs=2)
    assert pooled == inline
    assert len(inline.sites) == len(shapes.sites) + 30


def test_progress_counts_every_file(tmp_path: Path) -> None:
    seen: list[int] = []
    tree = tree_of(SHAPES)
    extract_tree(tree, jobs=1, progress=seen.append)
    assert sum(seen) == len(tree.files)
    assert all(n >= 1 for n in seen)


def test_progress_with_pool(tmp_path: Path) -> None:
    for i in range(40):
        (tmp_path / f"m{i}.py").write_text("def f():\n    raise ValueError('x')\n")
    seen: list[int] = []
    tree = tree_of(tmp_path)
    extract_tree(tree, jobs=2, progress=seen.append)
    assert sum(seen) == 40


def test_test_files_give_no_sites_but_reach_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, bool]] = []

    def fake_facts(module: ast.Module, path: str, source: str, is_test: bool
                   ) -> tuple[list[ConfigOption], list[TestExpectation]]:
        calls.append((path, is_test))
        if is_test:
            return [], [TestExpectation(path=path, line=1, test_name="t", exception="ValueError")]
        return [ConfigOption(name=f"opt_{path}")], []

    monkeypatch.setattr(facts, "collect_facts", fake_facts)
    result = extract_dir(SHAPES)
    assert ("tests/test_shapes.py", True) in calls
    assert not any(s.path.startswith("tests/") for s in result.sites)
    assert [t.path for t in result.tests] == ["tests/test_shapes.py"]
    assert len(result.config) == len([c for c in calls if not c[1]])


def test_a_bug_in_facts_keeps_the_sites(monkeypatch: pytest.MonkeyPatch, shapes: ExtractResult) -> None:
    def broken(module: ast.Module, path: str, source: str, is_test: bool
               ) -> tuple[list[ConfigOption], list[TestExpectation]]:
        raise KeyError("boom")

    monkeypatch.setattr(facts, "collect_facts", broken)
    result = extract_dir(SHAPES)
    assert len(result.sites) == len(shapes.sites)
    assert result.failures
    assert all(f.reason.startswith("facts: KeyError") for f in result.failures)


def test_raise_statements_counts_raises_with_an_argument(shapes: ExtractResult) -> None:
    count = 0
    for f in (SHAPES / "shapes").rglob("*.py"):
        count += sum(1 for n in ast.walk(ast.parse(f.read_text())) if isinstance(n, ast.Raise) and n.exc is not None)
    assert shapes.raise_statements == count
    assert sum(1 for s in shapes.sites if s.kind == "error") == count


def test_classes_resolve_bases_and_public_names(shapes: ExtractResult) -> None:
    classes = {c.qualname: c for c in shapes.classes}
    shape = classes["shapes._impl.errors.ShapeError"]
    assert shape.bases == ("ValueError",)
    assert shape.docstring == "Raised when a shape is invalid."
    assert shape.public_names == ("shapes.ShapeError", "shapes.errors.ShapeError")
    assert (shape.path, shape.line) == ("shapes/_impl/errors.py", 1)
    assert classes["shapes._impl.errors.RankError"].bases == ("shapes._impl.errors.ShapeError",)
    assert classes["shapes._impl.errors.PlainError"].public_names == ()


def test_exception_bases_chain(shapes: ExtractResult) -> None:
    rank = next(s for s in shapes.sites if s.qualname == "rank")
    assert rank.exception_resolved == "shapes._impl.errors.RankError"
    assert rank.exception_bases == ("shapes._impl.errors.ShapeError", "ValueError")
    builtin = next(s for s in shapes.sites if s.qualname == "implicit_concat")
    assert (builtin.exception_resolved, builtin.exception_bases) == ("ValueError", ())


def test_symbols_include_submodules_and_imports(shapes: ExtractResult) -> None:
    sym = shapes.symbols
    assert {"errors", "_impl", "ShapeError", "guards"} <= set(sym["shapes"])
    assert "errors" in sym["shapes._impl"]
    assert {"shape", "rank", "ShapeError"} <= set(sym["shapes.errors"])
    assert not any(m.startswith("tests") for m in sym)


def test_no_pool_for_small_trees_even_with_jobs(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def f():\n    raise ValueError('small tree')\n")
    result = extract_dir(tmp_path, jobs=8)
    assert [s.template.render() for s in result.sites] == ["small tree"]


# fork on purpose (the patched function must reach the workers), also under xdist's threads
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_a_worker_that_dies_costs_only_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing
    import os

    from errdex.extract import runner, worker

    real = worker.process_file

    def crashing(item: worker.Item, max_bytes: int = worker.MAX_FILE_BYTES) -> worker.FileResult:
        if item.path == "m07.py":
            os._exit(3)  # what a segfaulting parser or the OOM killer looks like from outside
        return real(item, max_bytes)

    monkeypatch.setattr(worker, "process_file", crashing)
    monkeypatch.setattr(runner, "_context", lambda: multiprocessing.get_context("fork"))
    for i in range(30):
        (tmp_path / f"m{i:02d}.py").write_text(f"def f():\n    raise ValueError('file {i}')\n")
    result = extract_dir(tmp_path, jobs=2)
    assert [(f.path, f.reason) for f in result.failures] == [("m07.py", "the worker process died while reading it")]
    assert len(result.sites) == 29


def test_self_referencing_import_does_not_loop(tmp_path: Path) -> None:
    # `x` re-bound to a path below itself: following it naively grows pkg.x.y.y.y... forever.
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(
        "from pkg.x import y as x\n\n\nclass Local(x.Base):\n    pass\n\n\ndef f():\n    raise x.Error('looped import')\n")
    result = extract_dir(tmp_path)
    assert [s.template.render() for s in result.sites] == ["looped import"]
    assert result.sites[0].exception_resolved.startswith("pkg.x.y")


def test_chunks_shrink_so_the_workers_finish_together(tmp_path: Path) -> None:
    from errdex.extract import runner

    for i in range(200):  # sizes 100 B .. 20 kB
        (tmp_path / f"m{i:03d}.py").write_text("x = 1\n" * (17 * (i + 1)))
    tree = tree_of(tmp_path)
    chunks = runner._chunks(tree.files, 2)
    dealt = [item.path for chunk in chunks for item in chunk]
    assert sorted(dealt) == sorted(f.path for f in tree.files)  # every file once
    sizes = {f.path: (f.abspath.stat().st_size) for f in tree.files}
    assert [sizes[p] for p in dealt] == sorted(sizes.values(), reverse=True)  # largest first
    weights = [sum(sizes[item.path] for item in chunk) for chunk in chunks]
    assert weights[0] >= sum(weights) // 5  # the first chunk: a quarter of the bytes, in one round trip
    assert weights[-1] <= sum(weights) // 40  # the last: small, so no core idles on a full-size chunk
