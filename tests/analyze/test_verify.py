"""The sample verifier: what parses, what exists, and the seeds' wrong samples."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from errdex.analyze.verify import check_sample

SYMBOLS = {
    "jax": ("config", "jit", "errors", "lax", "numpy"),
    "jax.errors": ("ConcretizationTypeError",),
    "jax.lax": ("scan",),
    "jax.numpy": ("ones",),
    "jax.config": ("update", "jax_no_execution"),  # an object's attributes, as the JAX adapter proves them
}
SEEDS = Path("/work/shared/seeds")


@pytest.mark.parametrize("code", [
    pytest.param("import jax\njax.config.update('jax_no_execution', False)\n", id="config-update"),
    pytest.param("import jax\n\ndef f(fn):\n    try:\n        return fn()\n"
                 "    except jax.errors.ConcretizationTypeError as e:\n        return str(e)\n", id="try"),
    pytest.param("import os\nos.environ.pop('X', None)\n", id="stdlib-attr"),
    pytest.param("from collections import OrderedDict\nOrderedDict()\n", id="stdlib-from"),
    pytest.param("import importlib.util\nimportlib.util.find_spec('x')\n", id="stdlib-submodule"),
    pytest.param("import jax.numpy as jnp\n[x for x in jnp.ones(3)]\n", id="alias-and-comprehension"),
    pytest.param("def g(a, *b, c=1, **d):\n    return a, b, c, d, len(b)\n", id="params-builtins"),
    pytest.param("import jax\nout = jax.jit(len)([1]).shape\n", id="attribute-of-own-value"),
])
def test_valid_samples_pass(code: str) -> None:
    assert check_sample(code, SYMBOLS) == []


@pytest.mark.parametrize(("code", "kind", "name"), [
    pytest.param("x = 1\n// comment\n", "syntax", "", id="slash-comment"),
    pytest.param("import jax\njax.config.jax_eager\n", "unknown-attribute", "jax.config.jax_eager", id="jax-eager"),
    pytest.param("import jax\nwith jax.lax.run_scoped(print):\n    pass\n", "unknown-attribute",
                 "jax.lax.run_scoped", id="run-scoped"),
    pytest.param("out = jitted_fn(1)\n", "unknown-name", "jitted_fn", id="free-name"),
    pytest.param("import numpy\n", "unknown-module", "numpy", id="not-indexed"),
    pytest.param("from jax.errors import Nope\n", "unknown-attribute", "jax.errors.Nope", id="from-missing"),
    pytest.param("import os\nos.no_such_thing\n", "unknown-attribute", "os.no_such_thing", id="stdlib-missing"),
    pytest.param("from . import x\n", "relative-import", ".", id="relative"),
    pytest.param("import jax\njax.jit.lower\n", "unknown-attribute", "jax.jit.lower", id="attr-of-function"),
])
def test_bad_samples_fail(code: str, kind: str, name: str) -> None:
    problems = check_sample(code, SYMBOLS)
    assert problems, code
    assert (problems[0].kind, problems[0].name) == (kind, name)
    assert problems[0].message


def test_every_unknown_name_is_listed() -> None:
    problems = check_sample("a = b + c\nd(a)\n", SYMBOLS)
    assert [p.name for p in problems] == ["b", "c", "d"]
    assert [p.line for p in problems] == [1, 1, 2]


def _seed_samples() -> list[tuple[str, str]]:
    """Code blocks of the seed pages: Example fix, Validate before calling, Try / catch."""
    out: list[tuple[str, str]] = []
    for path in sorted(SEEDS.glob("*.txt")):
        text = path.read_text()
        for start, end in (("Example fix", "Defensive patterns"), ("Validate before calling", "Try / catch"),
                           ("Try / catch", "Prevention")):
            m = re.search(rf"\n{re.escape(start)}\n(.*?)\n{re.escape(end)}\n", text, re.S)
            if m:
                block = m.group(1).strip("\n")
                if start == "Defensive patterns" or block.startswith("Strategy:"):
                    continue
                out.append((f"{path.stem[:3]}:{start}", block + "\n"))
    return out


@pytest.mark.skipif(not SEEDS.is_dir(), reason="seed pages not present")
def test_the_seeds_samples_fail_where_they_are_wrong() -> None:
    samples = dict(_seed_samples())
    assert len(samples) >= 10
    failing = {k: check_sample(v, SYMBOLS) for k, v in samples.items()}
    # `//` comments (seeds 002 and 003), `jax.lax.run_scoped` (003), made-up names (000, 001)
    assert failing["002:Example fix"] and failing["002:Example fix"][0].kind == "syntax"
    assert failing["003:Example fix"] and failing["003:Example fix"][0].kind == "syntax"
    assert any(p.name == "jitted_fn" for p in failing["000:Try / catch"])
    assert any(p.name == "cache_is_warm" for p in failing["001:Validate before calling"])
    assert sum(1 for v in failing.values() if v) >= 8
    assert check_sample("import jax\nwith jax.lax.run_scoped(f, collective_axes=()):\n    pass\n", SYMBOLS)


def test_star_re_exports_and_test_runner_resolve(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``from pubpkg.errors import *`` (with ``__all__``) makes ``pubpkg.PubError`` exist; ``_Internal``,
    left out of ``__all__``, does not; an example from a test may import pytest."""
    from pathlib import Path

    from errdex.analyze.context import load_context
    from errdex.catalog import SqliteCatalog
    from errdex.extract import extract_tree
    from errdex.sources import open_source

    pkg = Path(__file__).resolve().parents[1] / "fixtures" / "an_pubpath"
    cat = SqliteCatalog(tmp_path / "c.sqlite")
    with open_source(str(pkg), repo="example/pubpkg", ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    ctx = load_context(cat, cat.snapshots()[0])
    cat.close()
    ok = "import pytest\nimport pubpkg\n\nwith pytest.raises(pubpkg.ShapeError):\n    pubpkg.compile_fn(len, (1, 2, 3), strict=True)\n"
    assert check_sample(ok, ctx.all_symbols) == []
    assert check_sample("from pubpkg import PubError\n", ctx.all_symbols) == []
    bad = check_sample("import pubpkg\n\npubpkg._Internal\n", ctx.all_symbols)
    assert [p.name for p in bad] == ["pubpkg._Internal"]
    # without the star expansion the table alone does not know it: the fix is the expansion
    assert check_sample("from pubpkg import PubError\n", ctx.symbols) != []


def test_a_module_re_exported_by_a_star_keeps_its_names_and_the_later_star_wins() -> None:
    """``pkg/__init__``: ``from pkg.gen import *`` then ``from pkg.alg import *``; both have a
    ``community`` submodule: ``pkg.community`` is ``pkg.alg.community``, as in Python."""
    from errdex.analyze.verify import expand_symbols
    from errdex.model import CallEdge

    symbols = {"pkg": ("alg", "gen"), "pkg.gen": ("community",), "pkg.alg": ("community",),
               "pkg.gen.community": ("caveman_graph",), "pkg.alg.community": ("louvain",)}
    edges = [CallEdge("pkg.*", "pkg.gen.*", "export"), CallEdge("pkg.*", "pkg.alg.*", "export")]
    table = expand_symbols(symbols, edges)
    assert check_sample("import pkg\n\npkg.community.louvain\n", table) == []
    assert [p.name for p in check_sample("import pkg\n\npkg.community.caveman_graph\n", table)] == [
        "pkg.community.caveman_graph"]
