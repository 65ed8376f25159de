"""Guards in plain words: one case per rule, and the rule chain's refusals."""

from __future__ import annotations

from dataclasses import replace

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


@pytest.mark.parametrize(("guard", "words"), [
    # ``__debug__`` is never part of the reason: "make `__debug__` false" would mean ``python -O``
    (g("__debug__ and issubclass(guessed, ParamType)"), "`guessed` is a subclass of a `ParamType`"),
    # a walrus reads as the value it binds
    (g("isinstance((aval := var.aval), ShapedArray)"), "`var.aval` is a `ShapedArray`"),
    (g("(is_scaled := (a_scale is not None)) != (b_scale is not None)"),
     "exactly one of `a_scale` and `b_scale` is given (not None)"),
    (g("not ((a is None) == (b is None))"), "exactly one of `a` and `b` is given (not None)"),
    (g("(a is None) == (b is None)"), "`a` and `b` are either both given or both None"),
    (g("n % 2"), "`n` is odd"),
    (g("math.prod(shape) % vec_size"), "`math.prod(shape)` is not a multiple of `vec_size`"),
    (g("not (n % 4)"), "`n` is a multiple of `4`"),
    (g("len(factors) < 2"), "the length of `factors` is less than `2`"),
])
def test_rules_read_what_the_caller_controls(guard: Guard, words: str) -> None:
    assert describe_guard(guard)[0] == words


def test_negations_read_naturally() -> None:
    assert describe_negation(g("len(factors) < 2")) == "the length of `factors` is at least `2`"
    assert describe_negation(g("k > 3")) == "`k` is at most `3`"
    assert describe_negation(g("__debug__ and issubclass(t, ParamType)")) == "`t` is not a subclass of a `ParamType`"


def test_a_name_unpacked_from_an_attribute_reads_as_its_item() -> None:
    snippet = "def f(meta):\n    m, k, _2 = meta.shape\n    if _2 != 2:\n        raise ValueError\n"
    guard = Guard(kind="if", source="_2 != 2", normalized="_2 != 2", line=12)
    assert describe_guard(guard, snippet=snippet, snippet_start=10)[0] == "`meta.shape[2]` does not equal `2`"
    assert describe_negation(guard, snippet=snippet, snippet_start=10) == "`meta.shape[2]` equals `2`"


def test_a_sentinel_class_means_not_given() -> None:
    assert describe_guard(g("isinstance(body, api.NotSpecified)"))[0] == "`body` is not given"
    assert describe_negation(g("isinstance(body, api.NotSpecified)")) == "`body` is given"


def test_an_except_guard_names_the_one_call_its_try_block_makes() -> None:
    # rating 7 (a9dd): "the code in the `try` block raised `TypeError`" said nothing of what was tried
    snippet = ("def check(value):\n    try:\n        return _check_iter(value)\n    except TypeError:\n"
               "        raise BadParameter('Value must be an iterable.')\n")
    guard = Guard(kind="except", source="except TypeError", normalized="TypeError", line=13)
    assert describe_guard(guard, snippet=snippet, snippet_start=10)[0] == (
        "an internal call on `value` in the `try` block raised `TypeError`")
    public = snippet.replace("_check_iter(value)", "json.loads(text)")
    assert describe_guard(guard, snippet=public, snippet_start=10)[0] == (
        "`json.loads(text)` in the `try` block raised `TypeError`")
    longer = snippet.replace("        return _check_iter(value)\n", "        x = 1\n        return f(x)\n")
    assert describe_guard(replace(guard, line=14), snippet=longer, snippet_start=10)[0] == (
        "the code in the `try` block raised `TypeError`")
