"""Configuration candidates (prove/configcand.py): the option a guard reads, found from the extracted
facts of a JAX-shaped fixture package, and scripts rewritten to set it every way (before) and to run
the call first / leave the option at its default (afters)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.analyze.context import SnapshotContext, load_context
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.prove.candidates import Candidate, with_options
from errdex.prove.configcand import OptionSwitch, candidates, option_switches, switches
from errdex.sources import open_source

JAXLIKE = Path(__file__).resolve().parents[1] / "fixtures" / "an_jaxlike"
NO_TRACING = OptionSwitch(name="jax_no_tracing", raising="True", holder="no_tracing", context="jax.no_tracing",
                          set_call="jax.config.update")

TEST_NO_TRACING = '''import jax
import jax.numpy as jnp

@jax.jit
def f(x):
    return x
y = jnp.arange(4)
with jax.no_tracing():
    _ = f(y)
'''


@pytest.fixture(scope="module")
def jaxlike(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SqliteCatalog, SnapshotContext]]:
    db = tmp_path_factory.mktemp("cfg") / "jaxlike.sqlite"
    cat = SqliteCatalog(db)
    with open_source(str(JAXLIKE), repo="example/jaxlike", ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    snap = cat.snapshots()[0]
    yield cat, load_context(cat, snap)
    cat.close()


def test_switches_from_the_guard_and_the_option_facts(jaxlike: tuple[SqliteCatalog, SnapshotContext]) -> None:
    cat, ctx = jaxlike
    site = next(s for s in ctx.sites if "no_execution config" in s.template.render())
    (sw,) = switches(site, ctx)
    assert (sw.name, sw.raising, sw.holder) == ("jax_no_execution", "True", "no_execution")
    assert sw.context == "jax.no_execution"  # the package exports the holder under its name
    assert sw.set_call == "jax.config.update"
    # a guard that reads no option gives none; option_switches keeps only sites that have some
    plain = next(s for s in ctx.sites if "avals for" in s.template.render())
    assert switches(plain, ctx) == ()
    got = option_switches(cat, ctx.snapshot, [site, plain])
    assert set(got) == {site.error_id}


def test_a_script_that_sets_the_option_gets_warm_up_default_and_the_other_way() -> None:
    ccs = candidates(TEST_NO_TRACING, NO_TRACING)
    assert [c.way for c in ccs] == ["context", "config.update"]
    ctx_c, upd = ccs
    assert ctx_c.original and not upd.original
    warm, default = ctx_c.afters
    # warm-up: the call runs once before the option is turned on, then again with it on
    body = ast.parse(warm).body
    assert ast.unparse(body[-2]) == "_ = f(y)"
    assert ast.unparse(body[-1]).startswith("with jax.no_tracing(True):")
    # default: the with block's body without the option
    assert "no_tracing" not in default and default.rstrip().endswith("_ = f(y)")
    # the other way: config.update before the same statements
    assert "jax.config.update('jax_no_tracing', True)\n_ = f(y)" in upd.before
    assert "jax.config.update('jax_no_tracing', True)" in upd.afters[0]
    assert upd.afters[1] == default


def test_a_clean_script_gets_the_option_set_around_its_last_statement() -> None:
    clean = "import numpy as np\nimport jax\nA = np.array(0.0)\nans = jax.jit(lambda x: 0.0 / x)(A)\n"
    sw = OptionSwitch(name="jax_debug_nans", raising="True", holder="debug_nans", context="jax.debug_nans",
                      set_call="jax.config.update")
    ccs = candidates(clean, sw)
    assert [(c.way, c.original) for c in ccs] == [("context", False), ("config.update", False)]
    assert "with jax.debug_nans(True):\n    ans = jax.jit" in ccs[0].before
    assert ccs[0].afters[1] == ast.unparse(ast.parse(clean)) + "\n"  # the option left at its default
    # a library with no public context manager: only the setter
    only = candidates(clean, OptionSwitch("x_strict", "True", "strict", "", "lib.config.update"))
    assert [c.way for c in only] == ["config.update"]
    assert only[0].before.startswith("import lib\n")  # the setter's module imported


def test_scripts_not_rewritten() -> None:
    # the option set to its safe value, or inside a function: not a script to rewrite
    assert candidates(TEST_NO_TRACING.replace("no_tracing()", "no_tracing(False)"), NO_TRACING) == []
    nested = "import jax\ndef g():\n    with jax.no_tracing():\n        pass\ng()\n"
    assert candidates(nested, NO_TRACING) == []
    assert candidates("import jax\ndef g():\n    pass\n", NO_TRACING) == []  # no call to wrap
    assert candidates("not python(", NO_TRACING) == []


def test_engine_puts_option_afters_first_and_other_ways_after() -> None:
    test = Candidate("test", TEST_NO_TRACING, ("VARIANT",), None)
    got = with_options([test], [NO_TRACING])
    assert [c.kind for c in got] == ["test", "test, jax_no_tracing set by config.update"]
    assert got[0].before == TEST_NO_TRACING  # the test itself stays the first candidate
    assert len(got[0].afters) == 3 and got[0].afters[-1] == "VARIANT"
    assert "_ = f(y)\nwith jax.no_tracing(True)" in got[0].afters[0]
    # the proof says which after won: the first two are the configuration afters
    assert got[0].after_kinds == ("warm-up (jax_no_tracing on after one call)", "jax_no_tracing left at its default")
    assert got[1].after_kinds == got[0].after_kinds and len(got[1].afters) == 2
    assert with_options([test], []) == [test]


def test_a_call_given_lambdas_gets_a_warm_up_with_them_bound_to_names_first() -> None:
    # rating 10 (53c4): a ``lambda`` written at the call is a new object each time, missed by a cache keyed
    # on the function: the warm-up that binds it to a name comes first (``warmup.py``)
    script = "import jax\nwith jax.no_tracing():\n    jax.lax.cond(0, lambda *a: None, lambda *a: None)\n"
    (got, _) = with_options([Candidate("test", script, (), None)], [NO_TRACING])
    assert got.after_kinds[0] == "warm-up (jax_no_tracing on after one call, its arguments bound to names)"
    assert got.afters[0].startswith("import jax\nfun = lambda *a: None\nfun2 = lambda *a: None\n"
                                    "jax.lax.cond(0, fun, fun2)\nwith jax.no_tracing(True):\n")
    assert got.after_kinds[1].startswith("warm-up (jax_no_tracing on after one call)") and len(got.afters) == 3
