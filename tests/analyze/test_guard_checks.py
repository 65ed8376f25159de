"""The Defensive note's checks as code (``analyze/static/guardnote.py``) and what the tests observed caught
(``analyze/static/observed.py``): rating 6 found the checks prose only and a test's own ``assertRaises``
taken for the library catching the error."""

from __future__ import annotations

from errdex.analyze.options import option_facts
from errdex.analyze.static.guardnote import CHECK_LABEL, option_check
from errdex.analyze.static.observed import caught_inside
from errdex.model import ConfigOption, Observation

from .pagekit import PageCtx

NO_EXEC = ConfigOption(name="jax_no_execution", default="False", help="Disallow JAX executions.",
                       env_var="JAX_NO_EXECUTION", holder="jax._src.config.no_execution", adapter="jax:bool_state",
                       set_call="jax.config.update", read_attr="jax.config.jax_no_execution", module="jax._src.config")


def test_an_option_check_reads_the_option_in_the_public_form_as_code() -> None:
    check = option_check(option_facts(NO_EXEC, "True", {}))
    assert "`if jax.config.jax_no_execution: ...`" in check and CHECK_LABEL in check
    assert "Config.read" not in check and ".value" not in check
    off = option_check(option_facts(NO_EXEC, "False", {}))
    assert "`if not jax.config.jax_no_execution: ...`" in off
    # no public reading, or no plain on/off test: no code rather than a guess
    assert option_check(option_facts(ConfigOption(name="x", read_attr=""), "True", {})) == ""
    assert option_check(option_facts(NO_EXEC, None, {})) == ""


def _obs(chain: tuple[str, ...], escaped: bool) -> Observation:
    return Observation(snapshot="s", kind="site", path="p.py", line=1, exception="ValueError", message="m",
                       test="tests/t.py::T::test_x", chain=chain, escaped=escaped)


def test_the_tests_own_frame_below_a_library_helper_means_the_test_caught_it() -> None:
    helper = "jax._src.test_util.with_explicit_mesh.<locals>.decorator.<locals>.mesh_fn (jax/_src/test_util.py:1556)"
    test = "tests.shard_map_test.T.test_x (tests/shard_map_test.py:5309)"
    raise_at = "jax._src.shard_map._ref_raise_valueerror (jax/_src/shard_map.py:1522)"
    assert not caught_inside(_obs((helper, test, raise_at), escaped=False))
    assert caught_inside(_obs(("jax._src.api.jit (jax/_src/api.py:1)", raise_at), escaped=False))
    assert not caught_inside(_obs(("jax._src.api.jit (jax/_src/api.py:1)", raise_at), escaped=True))
    # a callback the test defines, run by the library's runner which catches the error, is not the test
    runner = ("test_t.T.test_x (tests/t.py:3)", "click.testing.CliRunner.invoke (click/testing.py:686)",
              "test_t.T.test_x.<locals>.cli (tests/t.py:9)", "click.core.Context.exit (click/core.py:1)")
    assert caught_inside(_obs(runner, escaped=False))


def test_an_option_checked_behind_a_cache_only_may_raise() -> None:
    # rating 7 (53c4): with ``jax_no_tracing`` on, a call the cache has seen does not raise; "is the branch
    # where the call would raise" was false for it
    check = option_check(option_facts(NO_EXEC, "True", {}), "`@weakref_lru_cache`")
    assert "would raise if the cache has not seen it" in check and "`@weakref_lru_cache`" in check
    assert "does not reach the check" in check and "make only calls it has already seen" in check


def test_the_defensive_note_of_a_cached_raise_says_so(jaxpages: PageCtx) -> None:
    from errdex.analyze.facts import gather_facts
    from errdex.analyze.static.guardnote import guard_note

    cat, ctx = jaxpages
    (tracing,) = [s for s in ctx.sites if "no_tracing" in s.template.render()]
    note = guard_note(gather_facts(cat, ctx.snapshot, tracing, context=ctx))
    assert "is the branch where the call would raise if the cache has not seen it" in note
    assert "`@util.weakref_lru_cache`" in note
    # the uncached execute path raises whenever the option is on
    (execute,) = [s for s in ctx.sites if "no_execution" in s.template.render()]
    note = guard_note(gather_facts(cat, ctx.snapshot, execute, context=ctx))
    assert "is the branch where the call would raise," in note
