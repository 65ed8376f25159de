"""The search's library adapter (prove/search_adapters.py, guard_values' shape and option facts, and what
search_script.py makes of them) on a small array library (tests/fixtures/prove_shapelib): an argument
whose shape or dtype the guards read is given arrays, an after changes one of its sizes, its dtype or its
number of dimensions, and a guard that reads an option gets calls made with the option turned on first,
whose after is the same call without it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from errdex.catalog import open_catalog
from errdex.model import ErrorSite
from errdex.prove.guard_values import guard_values
from errdex.prove.search import SEARCH_SCRIPT, targets_for
from errdex.prove.search_adapters import SearchAdapter, search_adapter

from .provekit import cli

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_shapelib"

ADAPTER = SearchAdapter(  # shapelib's, as jax's is jax's: how to build an array, how to turn an option on
    imports=("shapelib",), array="shapelib.zeros({shape}, {dtype})", dims=(1, 2, 3),
    dtypes=("'float32'",), option="shapelib.config.update('shapelib_{name}', True)",
    option_off="shapelib.config.update('shapelib_{name}', False)")


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("shapes")
    shutil.copytree(FIXTURE, root / "shapelib")
    db = str(root / "c.sqlite")
    r = cli("index", str(root / "shapelib"), "--repo", "acme/shapelib", "--ref", "1.0", "--db", db, home=root / "home")
    assert r.returncode == 0, r.stderr
    return root / "shapelib", db


def _sites(db: str) -> tuple[str, list[ErrorSite]]:
    cat = open_catalog(db)
    try:
        key = cat.snapshots("acme/shapelib")[-1].key
        return key, list(cat.sites(key))
    finally:
        cat.close()


def _site(sites: list[ErrorSite], text: str) -> ErrorSite:
    return next(s for s in sites if text in s.template.render())


def test_guards_give_shape_dtype_and_option_facts(indexed: tuple[Path, str]) -> None:
    _, sites = _sites(indexed[1])
    scalar = guard_values(_site(sites, ">= 1 dimension"), [_site(sites, "k must be positive")])
    assert scalar.shaped == {"operand": {"ndim": ("0", "1")}}  # len(operand.shape) == 0
    trailing = guard_values(_site(sites, "trailing dimension"),
                            [_site(sites, "dtype to be uint2"), _site(sites, "3-dimensional")])
    assert trailing.shaped["meta"]["dtype"] == ("'uint2'",)  # meta.dtype != dtypes.uint2
    assert trailing.shaped["meta"]["ndim"] == ("2", "3", "4")  # meta.ndim != 3
    assert guard_values(_site(sites, "no_tracing")).options == ("no_tracing",)  # config.no_tracing.value
    assert guard_values(_site(sites, ">= 1 dimension")).options == ()


def test_jax_has_an_adapter_and_others_none() -> None:
    jax = search_adapter("jax")
    assert jax is not None and "{shape}" in jax.array and all("{call}" in f for f in jax.forms) and "{name}" in jax.option
    assert search_adapter("click") is None


def _search(pkg: Path, db: str, texts: list[str], tmp: Path, adapter: SearchAdapter | None) -> dict[str, dict[str, object]]:
    key, sites = _sites(db)
    cat = open_catalog(db)
    try:
        targets = [t.request() for t in targets_for(cat, key, [_site(sites, x).error_id for x in texts])]
    finally:
        cat.close()
    req, out = tmp / "in.json", tmp / "out.json"
    req.write_text(json.dumps({"package": "shapelib", "budget_s": 5.0, "seed": 0, "targets": targets,
                               "adapter": adapter.request() if adapter else {}}))
    (tmp / "work").mkdir(exist_ok=True)
    r = subprocess.run([sys.executable, str(SEARCH_SCRIPT), str(req), str(out)], cwd=tmp / "work",
                       env={**os.environ, "PYTHONPATH": str(pkg)}, capture_output=True, text=True, timeout=300,
                       check=False)
    assert r.returncode == 0, r.stderr
    by_text = {_site(sites, x).error_id: x for x in texts}
    return {by_text[str(x["error_id"])]: x for x in json.loads(out.read_text())["results"]}


def test_search_builds_arrays_and_sets_options(indexed: tuple[Path, str], tmp_path: Path) -> None:
    pkg, db = indexed
    got = _search(pkg, db, [">= 1 dimension", "trailing dimension", "no_tracing"], tmp_path, ADAPTER)
    scalar = got[">= 1 dimension"]
    assert "shapelib.top_k(operand=shapelib.zeros((), " in str(scalar["before"])
    assert any("operand=shapelib.zeros((" in a and "operand=shapelib.zeros((), " not in a
               for a in scalar["afters"])  # type: ignore[attr-defined]
    trailing = got["trailing dimension"]
    assert "'uint2')" in str(trailing["before"])
    assert any(", 2), 'uint2')" in a for a in trailing["afters"])  # type: ignore[attr-defined]
    option = got["no_tracing"]
    assert "shapelib.config.update('shapelib_no_tracing', True)\nshapelib.traced(" in str(option["before"])
    assert option["afters"] and all("config.update" not in a for a in option["afters"])  # type: ignore[attr-defined]


def test_both_or_neither_gives_the_other_one(indexed: tuple[Path, str], tmp_path: Path) -> None:
    """A guard that wants two keywords both set or both left out: the after sets the one the hit left out
    (with a value of its type), before it tries leaving the set one out."""
    pkg, db = indexed
    got = _search(pkg, db, ["both set or both None"], tmp_path, None)["both set or both None"]
    before, after = str(got["before"]), str(got["afters"][0])  # type: ignore[index]
    assert "shapelib.mesh(" in before and ("num_threads=" in before) != ("thread_name=" in before)
    assert "num_threads=" in after and "thread_name=" in after and "=None" not in after


def test_without_the_adapter_the_search_finds_none_of_them(indexed: tuple[Path, str], tmp_path: Path) -> None:
    pkg, db = indexed
    got = _search(pkg, db, [">= 1 dimension", "trailing dimension", "no_tracing"], tmp_path, None)
    assert not any(v["before"] for v in got.values())


MADE = SearchAdapter(imports=("shapelib",), made=(("shapelib._kernel.Grid", "shapelib.gpu", "shapelib.gpu.Grid()"),))


def test_guard_asks_a_parameter_unset(indexed: tuple[Path, str]) -> None:
    _, sites = _sites(indexed[1])
    # the raise's own guards, not its function's earlier ones; a type test too (``isinstance(grid, Sequence)``):
    # the search keeps those whose parameter's default passes it (``search_strategies.unset_default``)
    assert guard_values(_site(sites, "using kernel as a decorator")).unset == (("body", "NotSpecified"),
                                                                              ("grid", "Sequence"))
    # ``not isinstance(grid, Sequence)`` is negated: left out
    assert guard_values(_site(sites, "must be a sequence when body")).unset == (("body", "Sequence"),)


def test_decorator_raise_gets_the_call_form_keeping_the_sequence(indexed: tuple[Path, str], tmp_path: Path) -> None:
    """``kernel(grid=[...])`` raises only as a decorator: the after passes the body in the call and keeps the
    sequence of grids (the adapter's ``made`` gives a grid, a protocol's instance), the before the same grids."""
    pkg, db = indexed
    got = _search(pkg, db, ["using kernel as a decorator"], tmp_path, MADE)["using kernel as a decorator"]
    before, after = str(got["before"]), str(got["afters"][0])  # type: ignore[index]
    assert "import shapelib.gpu\n" in before and "shapelib.kernel(grid=[shapelib.gpu.Grid()])" in before
    assert "shapelib.kernel(body=[lambda *a, **k: None], grid=[shapelib.gpu.Grid()])" in after


def test_without_made_values_the_after_takes_the_trigger_away(indexed: tuple[Path, str], tmp_path: Path) -> None:
    pkg, db = indexed
    got = _search(pkg, db, ["using kernel as a decorator"], tmp_path, None)["using kernel as a decorator"]
    assert got["before"] and not any("grid=[" in a for a in got["afters"])  # type: ignore[attr-defined]
