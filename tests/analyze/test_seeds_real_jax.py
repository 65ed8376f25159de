"""The five seed errors on the real JAX checkout (jax-v0.10.2, with its tests): what the seeds get right.

Slow (indexes the whole checkout once); skipped where the checkout is absent.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.analyze.context import SnapshotContext, load_context
from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_static
from errdex.analyze.verify import check_sample
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.model import Analysis
from errdex.sources import open_source

JAX_SRC = Path("/work/jax-src")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not (JAX_SRC / "jax").is_dir(), reason="no JAX checkout")]


@pytest.fixture(scope="module")
def jax_ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SqliteCatalog, SnapshotContext]]:
    cat = SqliteCatalog(tmp_path_factory.mktemp("jax") / "jax.sqlite")
    with open_source(str(JAX_SRC), repo="jax-ml/jax") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    yield cat, load_context(cat, cat.snapshots()[0])
    cat.close()


def _page(jax_ctx: tuple[SqliteCatalog, SnapshotContext], text: str, path: str) -> Analysis:
    cat, ctx = jax_ctx
    (site,) = [s for s in ctx.sites if text in s.template.render() and s.path == path]
    a = analyze_static(gather_facts(cat, ctx.snapshot, site, context=ctx), ctx.all_symbols)
    for code in (a.example_fix.before, a.example_fix.after, a.validate_sample, a.try_sample):
        assert check_sample(code, ctx.all_symbols) == []
    return a


def _text(a: Analysis) -> str:
    return "\n".join([a.meaning, *(s.text for s in a.solutions), a.example_fix.before, a.example_fix.after,
                      a.validate_sample, a.try_sample, *a.prevention, a.trigger, *a.situations])


def test_no_execution(jax_ctx) -> None:  # type: ignore[no-untyped-def]
    t = _text(_page(jax_ctx, "but the no_execution config option is set", "jax/_src/interpreters/pxla.py"))
    assert "JAX_NO_EXECUTION" in t and 'jax.config.update("jax_no_execution", False)' in t


def test_no_tracing_warms_first(jax_ctx) -> None:  # type: ignore[no-untyped-def]
    a = _page(jax_ctx, "'no_tracing' is set", "jax/_src/interpreters/partial_eval.py")
    assert "jax_no_tracing" in _text(a)
    # the test shows it: the call made before the option is on succeeds, the new one inside fails
    assert any("runs without this error before" in s.text for s in a.solutions)


def test_eager_shard_map_says_wrap_in_jit(jax_ctx) -> None:  # type: ignore[no-untyped-def]
    a = _page(jax_ctx, "Eager shard_map cannot return a `jax.Ref`", "jax/_src/shard_map.py")
    assert any("wrap your shard_map in `jax.jit`" in s.text for s in a.solutions)


@pytest.mark.parametrize(("text", "path"), [
    ("run_scoped lowering outside of Pallas does not support collective_axes", "jax/_src/pallas/primitives.py"),
    ("run_scoped interpret rule does not support collective axes", "jax/_src/pallas/hlo_interpreter.py"),
])
def test_run_scoped_drop_collective_axes(jax_ctx, text: str, path: str) -> None:  # type: ignore[no-untyped-def]
    a = _page(jax_ctx, text, path)
    assert any("`collective_axes` is false or empty" in s.text for s in a.solutions)
    assert "pallas" in a.meaning.lower()
