"""Guards in plain words: one case per rule, and the rule chain's refusals."""

from __future__ import annotations

import pytest

from errdex.analyze.guardwords import describe_guard, describe_negation
from errdex.model import ConfigOption, Guard

OPT = ConfigOption(name="jax_no_execution", default="False", holder="jax._src.config.no_execution",
                   adapter="jax:bool_state", module="jax._src.config")


def g(normalized: str, kind: str = "if") -> Guard:
    return Guard(kind=kind, source=normalized, normalized=normalized, negated=normalized.startswith("not ("))  # type: ignore[arg-type]


@pytest.mark.parametrize(("guard", "options", "words", "rule"), [
    (g("config.no_execution.value"), [OPT], "the `jax_no_execution` option is on", "config"),
    (g("not (config.no_execution.value)"), [OPT], "the `jax_no_execution` option is off", "config"),
    (g("not isinstance(x, (list, tuple))"), [], "`x` is not a list or tuple", "isinstance"),
    (g("isinstance(x, np.ndarray)"), [], "`x` is a `np.ndarray`", "isinstance"),
    (g("len(a) != len(b)"), [], "`a` and `b` have different lengths", "len"),
    (g("len(xs) == 0"), [], "`xs` is empty", "len"),
    (g("len(shape) > 3"), [], "the length of `shape` is greater than `3`", "len"),
    (g("name not in _registry"), [], "`name` is not in `_registry`", "compare"),
    (g("not (name not in _registry)"), [], "`name` is in `_registry`", "compare"),
    (g("axis is None"), [], "`axis` is None", "compare"),
    (g("collective_axes"), [], "`collective_axes` is true (non-empty)", "truth"),
    (g("not callable(fun)"), [], "`fun` is not callable", "callable"),
    (g("a and not b"), [], "`a` is true (non-empty) and `b` is false or empty", "truth"),
    (g("not (a and b)"), [], "`a` is false or empty or `b` is false or empty", "truth"),
    (g("ImportError", "except"), [], "importing a module failed (the `try` block raised `ImportError`)",
     "import-failed"),
    (g("KeyError", "except"), [], "the code in the `try` block raised `KeyError`", "except"),
])
def test_rules(guard: Guard, options: list[ConfigOption], words: str, rule: str) -> None:
    assert describe_guard(guard, options) == (words, rule)


def test_import_names_the_module_seen_above_the_handler() -> None:
    guard = Guard(kind="except", source="except ImportError", normalized="ImportError", line=12)
    snippet = "def f():\n  try:\n    import scipy.linalg\n  except ImportError:\n    raise\n"
    assert describe_guard(guard, snippet=snippet, snippet_start=9)[0].startswith("importing `scipy.linalg` failed")


def test_unknown_shapes_are_not_paraphrased() -> None:
    assert describe_guard(g("x[0] @ y")) == ("", "")
    assert describe_guard(g("f(" + "a, " * 40 + "b)")) == ("", "")  # too long to quote


def test_negation() -> None:
    assert describe_negation(g("not isinstance(x, int)")) == "`x` is an int"
    assert describe_negation(g("config.no_execution.value"), [OPT]) == "the `jax_no_execution` option is off"


def test_settings_read_through_get_config() -> None:
    opt = ConfigOption(name="array_api_dispatch", kind="setting", default="False", set_call="lib.set_config")
    assert describe_guard(g('get_config()["array_api_dispatch"]'), [opt])[0] == \
        "the `array_api_dispatch` setting is on"
    assert describe_guard(g('not get_config()["array_api_dispatch"]'), [opt])[0] == \
        "the `array_api_dispatch` setting is off"
