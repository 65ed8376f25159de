"""Rules of the fourth pages round: the object a public factory returns, a function nothing calls, the
defensive section without a proven sample (on ``an_clilike``/``an_jaxlike``)."""

from __future__ import annotations

import ast

from errdex.extract.calls import call_edges

from .test_page_rules import Ctx, _all, _page


def test_a_factory_records_the_class_it_returns() -> None:
    tree = ast.parse("from pkg._impl import Bar\n\n"
                     "def bar(n) -> 'Bar':\n    return Bar(n)\n\n"
                     "def helper():\n    def inner():\n        return Bar(1)\n    return 3\n")
    returns = {(e.caller, e.callee) for e in call_edges(tree, "pkg.ui", "pkg/ui.py") if e.kind == "returns"}
    assert returns == {("pkg.ui.bar", "pkg._impl.Bar")}  # not ``helper``: the return is the inner function's


def test_a_method_of_the_object_a_public_factory_returns_is_named_through_the_factory(cli: Ctx) -> None:
    _cat, ctx = cli
    (site,) = [s for s in ctx.sites if s.qualname == "Bar.steps"]
    assert ctx.public_path(site).entries == ("clilike.ui.bar(...).steps",)
    a = _page(cli, "Bar.steps")
    assert a.meaning.startswith("Calling `clilike.ui.bar(...).steps` raises `RuntimeError`")
    assert [s.text for s in a.solutions] == [
        "Open the object in a `with` block, as the message says: `with clilike.ui.bar(...) as bar:`, and call "
        "`bar.steps()` inside that block, not before it or after it."]
    assert a.prevention[0].startswith("Create it only in a `with` statement (`with clilike.ui.bar(...) as bar:`)")
    assert "clilike._impl" not in _all(a) and "internal function" not in _all(a)


def test_a_function_nothing_calls_is_said_to_be_reached_only_by_outside_code(jaxpages: Ctx) -> None:
    _cat, ctx = jaxpages
    (site,) = [s for s in ctx.sites if s.qualname == "_tiled_layout"]
    assert ctx.uncalled(site)
    a = _page(jaxpages, "_tiled_layout")
    assert a.meaning.startswith("Calling the private `jax.experimental.layouts._tiled_layout` directly raises `ValueError` "
                                "when the length of `shape` does not equal `2`")
    (s,) = a.solutions
    assert s.text.startswith("Nothing in jax") and "make sure that the length of `shape` equals `2`" in s.text
    assert a.prevention == ("Before calling the private function `jax.experimental.layouts._tiled_layout`, check that the "
                            "length of `shape` equals `2`.",)
    (called,) = [s for s in ctx.sites if s.qualname == "_checked_layout"]
    assert not ctx.uncalled(called)  # a private function that the package calls is not said to be uncalled


def test_a_rule_of_a_mode_the_user_switches_on_names_the_switch_in_public_terms(jaxpages: Ctx) -> None:
    a = _page(jaxpages, "_run_scoped_physicalize_rule")
    assert ("That mode is what `interpret=True` of `jax.experimental.pallas.pallas_call` (or of "
            "`jax.experimental.pallas.kernel`) turns on: the kernel body runs as ordinary JAX operations") in a.meaning
    assert any(s.text.startswith("Or run it compiled: leave out `interpret=True` of `jax.experimental.pallas.pallas_call`")
               for s in a.solutions)
    assert any("test it compiled on the accelerator, not with `interpret=True`" in p for p in a.prevention)
    _cat, ctx = jaxpages
    (site,) = [s for s in ctx.sites if s.qualname == "_run_scoped_physicalize_rule"]
    assert not ctx.uncalled(site)  # a rule named after its operation is registered, not dead code


def test_the_guard_note_says_what_to_check_before_the_call_in_public_terms(cli: Ctx, jaxpages: Ctx) -> None:
    assert _page(cli, "Bar.steps").guard_note == (
        "There is no value to test before the call: use `bar` only inside `with clilike.ui.bar(...) as bar:`.")
    assert _page(jaxpages, "_tiled_layout").guard_note == (
        "What you can check before calling the private function `jax.experimental.layouts._tiled_layout`: that the "
        "length of `shape` equals `2`.")
    internal = _page(cli, "_read_console").guard_note  # no public caller: only what to catch and match
    # precondition.py states it
    # rating 8: the guard itself, not a pointer to Prevention ("What to do ... is under Prevention")
    assert internal.startswith("Guard it before the call rather than catching it: wherever your code reaches "
                               "`_read_console` (`clilike/tracing.py:")
    assert "under Prevention" not in internal
    assert "nothing to test" not in internal  # rating 4: false where the check depends on the call's values
    # rating 8: no try / except that matches the message and re-raises; one line says why none is given
    assert "A try / except is no substitute for it: errdex knows no fallback for that call" in internal
    assert "only re-raises `ValueError` leaves the program failing as before" in internal


def test_a_constructor_refusing_the_same_message_means_the_object_was_changed_after_creation(cli: Ctx) -> None:
    a = _page(cli, "FloatRange.clamp_value")
    assert ("`FloatRange(...)` already refuses this when it is created (the same message, as `TypeError`, from "
            "`FloatRange.__init__`") in a.meaning
    assert "reached only when the object's `clamp`, `min_open` or `max_open` are changed after it was made" in a.meaning
    assert "already refuses" not in _page(cli, "FloatRange.__init__").meaning  # the constructor itself: no such sentence
    # rating 5: Prevention was empty although the meaning says how to avoid it
    assert ("Give `clamp`, `min_open` and `max_open` to `FloatRange(...)` when you create it, where they are checked "
            "together, instead of setting them on an existing `FloatRange` afterwards.") in a.prevention
    assert not any("when you create it" in p for p in _page(cli, "FloatRange.__init__").prevention)


def test_a_check_on_the_functions_own_values_is_said_as_such_not_dropped(cli: Ctx) -> None:
    # rating 4 (a28d, b806): dropping the condition for "a value it works out fails its check" lost what the
    # readers rated adequate; the check is said, qualified as values worked out from the arguments it names
    a = _page(cli, "optimization_barrier")
    # rating 5: the local (``dtype``) is said in words, not by its name
    # rating 12 (a28d): the local replaced by what it is of the user's arrays (`dtype = array.dtype`)
    assert a.meaning.startswith("Calling `clilike.optimization_barrier` raises `NotImplementedError` when "
                                "`array.dtype.bits` is less than `32` (for each `array` of the `arrays` you pass)"), a.meaning
    assert "while `array.dtype.bits` is less than `32` (for each `array` of the `arrays` you pass)" in a.trigger
    assert "`dtype" not in a.meaning + a.trigger
    assert a.solutions[0].text.startswith("`clilike.optimization_barrier` does not handle the value the message shows")


def test_the_messages_advice_is_not_repeated_beside_the_same_rule_in_the_calls_names(jaxpages: Ctx) -> None:
    a = _page(jaxpages, "mma", "Either none or both scales")
    assert not any(s.text.startswith("Do what the message says") for s in a.solutions)
    assert not any(p.startswith("Make the message's advice the rule") for p in a.prevention)
    assert any("`a_scale` and `b_scale` are either both given or both None" in s.text for s in a.solutions)


def test_an_internal_check_made_only_under_a_public_enum_value_says_another_value_avoids_it(cli: Ctx) -> None:
    a = _page(cli, "_lower_body")
    assert ("This check runs only when `lowering_semantics` is `Warpgroup`, a value of the public enum "
            "`clilike.Semantics`") in a.meaning
    # rating 8 (8ee0): the value to try is named, from the package's own checks (`_lower_lanes` compares with `Lane`)
    assert a.solutions[0].text.startswith("While it is reported, try another `Semantics` than `Warpgroup` "
                                          "(`Semantics.Lane`, the other value clilike's own checks compare "
                                          "`lowering_semantics` with) for `lowering_semantics`"), a.solutions[0].text
    # rating 12 (8ee0): where to give it, as the package's own code does (`CompilerParams(lowering_semantics=...)`)
    assert ("where your code sets it (as `clilike.CompilerParams(lowering_semantics=clilike.Semantics.Lane)`, the "
            "call clilike's own code sets it with)") in a.solutions[0].text, a.solutions[0].text
    assert any("; given as `clilike.CompilerParams(lowering_semantics=clilike.Semantics.Lane)`)" in p
               for p in a.prevention), a.prevention
    assert a.solutions[1].text.startswith("Report it at https://github.com/example/clilike/issues")
    # sixteenth round: Defensive names the setting as what to guard, the other value as the fallback for this
    # error only, rather than "no fallback"
    assert ("what to guard is the setting: the check is made only under `Semantics.Warpgroup`, so code that must run "
            "either way can catch `AssertionError` whose message starts \"Scalar type must match\" (only that one) "
            "and run again with `lowering_semantics` set to `Semantics.Lane`") in a.guard_note, a.guard_note
    # rating 8 (8ee0): When named only the call; the setting and the check's fixed words are its condition
    assert a.trigger.endswith(", with `lowering_semantics` set to `Semantics.Warpgroup` (`clilike.Semantics`), the "
                              "only setting under which clilike makes this check, when its own check fails: "
                              "\"Scalar type must match\"."), a.trigger
    # rating 13 (8ee0): E absent; "at least a not-run sample of the `compiler_params=` argument": the other value,
    # written as the package's own setter, labelled as not run with the reason (no program raises it)
    ast.parse(a.example_not_run)
    assert a.example_not_run.startswith("import clilike\n"), a.example_not_run
    assert ("params = clilike.CompilerParams(\n    lowering_semantics=clilike.Semantics.Lane)\n"
            in a.example_not_run), a.example_not_run
    assert a.example_not_run_why.startswith("this is clilike's own consistency check, made only under "
                                            "`Semantics.Warpgroup`, and errdex has no program that raises it")
    # a check of the user's own arguments gets none
    assert _page(cli, "FloatRange.clamp_value").example_not_run == ""


def test_a_function_the_package_only_reads_is_not_uncalled() -> None:
    """A function held in a table, passed as a keyword or called at module level is used: only one that no
    module reads at all is said to be reached by outside code alone."""
    tree = ast.parse("def _a(): pass\n\ndef _b(): pass\n\ndef _c(): pass\n\ndef _d(): pass\n\n"
                     "TABLE: dict = {'a': _a}\n_c()\n\ndef g(x):\n    return x.rule(sharding_rule=_b)\n")
    edges = call_edges(tree, "pkg.m", "pkg/m.py")
    refs = {e.callee for e in edges if e.kind == "ref"}
    assert {"pkg.m._a", "pkg.m._b", "pkg.m._c"} <= refs and "pkg.m._d" not in refs
    assert ("pkg.m.TABLE[]", "pkg.m._a") in {(e.caller, e.callee) for e in edges if e.kind == "alias"}


def test_the_guard_note_of_a_usage_error_and_of_a_module_getattr(cli: Ctx) -> None:
    usage = _page(cli, "_Parser.match_long_opt").guard_note
    assert usage.startswith("Nothing to guard in your code: `clilike.NoSuchOption` is about the command line")
    assert _page(cli, "__getattr__", "{name}").guard_note.startswith(
        "What you can check before reading a name from `clilike.core`: `hasattr(clilike.core, name)`")
    # rating 5 (809c): the page had that check under Defensive only, and the Prevention placeholder
    assert _page(cli, "__getattr__", "{name}").prevention[0].startswith(
        "Before reading a name from `clilike.core`, check `hasattr(clilike.core, name)`")


def test_a_dataclass_field_is_the_constructors_argument_and_outside_x_is_in_the_trigger(cli: Ctx,
                                                                                        jaxpages: Ctx) -> None:
    a = _page(cli, "Mesh.__post_init__")
    assert "exactly one of `num_threads` and `thread_name` is given" in a.meaning and "'s `" not in _all(a)
    assert ", outside Pallas, while `collective_axes` is true" in _page(jaxpages, "_run_scoped_lowering_rule").trigger


def test_the_fallback_guard_note_defers_to_a_prevention_that_names_a_check() -> None:
    from errdex.analyze.static.guardnote import with_prevention

    note = ("errdex cannot state this check in terms of what you pass to `f`, so it names no test to make before "
            "the call; catch it")
    assert with_prevention(note, ("Give an instance, not the class.",)) == (
        "What to do before calling `f` is under Prevention; catch it")
    assert with_prevention(note, ()) == note
    assert with_prevention("What you can check before calling `f`: that `n` > 0.", ("x",)) == (
        "What you can check before calling `f`: that `n` > 0.")
