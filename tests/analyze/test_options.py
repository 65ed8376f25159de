"""Every way to set an option, and diagnostics told apart from settings."""

from __future__ import annotations

from errdex.analyze.options import is_diagnostic, option_facts, raising_value
from errdex.model import ConfigOption, TestExpectation

NO_TRACING = ConfigOption(name="jax_no_tracing", default="False", help="Disallow tracing for JIT compilation.",
                          env_var="JAX_NO_TRACING", holder="jax._src.config.no_tracing", adapter="jax:bool_state",
                          set_call="jax.config.update", read_attr="jax.config.jax_no_tracing", module="jax._src.config")
X64 = ConfigOption(name="jax_enable_x64", default="False", help="Enable 64-bit types to be used",
                   env_var="JAX_ENABLE_X64", holder="jax._src.config.enable_x64", adapter="jax:bool_state",
                   set_call="jax.config.update", module="jax._src.config")


def test_every_way_to_turn_it_off() -> None:
    test = TestExpectation(path="tests/api_test.py", line=1, test_name="test_no_tracing", exception="RuntimeError",
                           code="with jax.no_tracing(True):\n    f(2)\n")
    of = option_facts(NO_TRACING, raising_value("the `jax_no_tracing` option is on"),
                      {"jax": ("jit", "no_tracing")}, [test])
    codes = [w.code for w in of.ways]
    assert codes == ['jax.config.update("jax_no_tracing", False)', "with jax.no_tracing(False):\n    ...",
                     "export JAX_NO_TRACING=0", "--nojax_no_tracing"]
    assert of.diagnostic and of.safe_value == "False" and of.tests == (test,)


def test_a_context_manager_only_when_the_package_exports_it() -> None:
    of = option_facts(NO_TRACING, "True", {"jax": ("jit",)})
    assert all(w.kind != "context" for w in of.ways)


def test_settings_are_not_diagnostics() -> None:
    assert not is_diagnostic(X64)
    assert is_diagnostic(NO_TRACING)
