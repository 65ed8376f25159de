"""The rules of RATING-2's findings, each on a small fixture: no template solution ("change the
arguments until it holds"), the message's context words explained from how the code registers the
rule, a public call that reaches an earlier raise of the same check first, prevention only from facts."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from errdex.analyze.context import load_context
from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_static
from errdex.analyze.static.words import read_first
from errdex.model import Analysis, Observation, ObservedArg

from .pagekit import PageCtx, load_fixture

Ctx = PageCtx


def _page(c: Ctx, qualname: str, text: str = "") -> Analysis:
    cat, ctx = c
    (site,) = [s for s in ctx.sites if s.qualname == qualname and text in s.template.render()]
    return analyze_static(gather_facts(cat, ctx.snapshot, site, context=ctx), ctx.all_symbols)


def _all(a: Analysis) -> str:
    return "\n".join([a.meaning, *(s.text for s in a.solutions), *a.prevention, a.trigger, *a.situations])


# --------------------------------------------------------------------------- no template solutions


def test_a_name_read_before_a_default_fills_it_is_the_argument() -> None:
    snippet = "if length is None:\n    length = hint(iterable)\nif iterable is None:\n    iterable = range(length)\n"
    assert read_first(snippet, "length") and read_first(snippet, "iterable")
    assert not read_first("n = len(b)\nif n % 2:\n    raise ValueError\n", "n")
    assert read_first("x = x + 1\n", "x")  # read on the right-hand side first


def test_nested_guards_on_arguments_give_one_solution_either_is_enough(cli: Ctx) -> None:
    a = _page(cli, "ProgressBar.__init__")
    (s,) = [s.text for s in a.solutions if s.text.startswith("Make sure that")]
    assert "`iterable` is not None or `length` is not None (either is enough)" in s
    assert a.prevention and "either is enough" in a.prevention[0]


def test_a_way_out_that_leads_to_a_sibling_raise_is_not_offered(cli: Ctx) -> None:
    # rating 7 (707f): ``kernel(mesh=[...])`` in decorator mode; giving ``body`` alone does not help, a
    # single callable with a sequence ``mesh`` raises the function's other error (helpers.py:274-277)
    a = _page(cli, "kernel", "as a decorator")
    (s,) = [s.text for s in a.solutions if s.text.startswith("Make sure that")]
    assert "either is enough" not in _all(a) and "`body` is given or" not in _all(a)
    assert "`mesh` is not a `Sequence`" in s
    # rating 8 (707f): the ``elif isinstance(body, Sequence)`` branch between the two raises is a way out (the
    # MPMD form takes a sequence of bodies with a sequence of meshes): "does not help" was false
    assert "changing `body` alone helps only when `body` is a `Sequence`: otherwise the call raises" in s, s
    assert "mesh cannot be a sequence when body is a single callable." in s
    # rating 8 (707f): what to pass, in the documentation's own condition: one mesh, a sequence only with bodies
    assert s.endswith("; pass one mesh, not a sequence of them: the documentation asks for a sequence of meshes only "
                      "if `body` is a sequence of callables."), s
    assert "pass one mesh" in _all(_page(cli, "kernel", "single callable"))  # true there too
    asks = _page(cli, "kernel", "must be a sequence")  # the check asks for the sequence: no such advice
    assert "pass one mesh" not in _all(asks)


def test_a_guard_on_a_parameter_the_function_rebuilt_is_not_a_check_on_the_argument(cli: Ctx) -> None:
    # rating 7 (4423, 91c3): ``if not isinstance(axes, tuple): axes = (axes,)`` before ``if axes: raise``;
    # "`axes` is false or empty" passes ``axes=None``, which raises
    a = _page(cli, "scoped")
    text = _all(a) + a.guard_note
    assert "is false or empty" not in text
    assert "`axes`, once `axes = (axes,)` has run, is true (non-empty)" in a.meaning
    assert not any(s.text.startswith("Make sure that `axes`") for s in a.solutions)
    # a conversion of the argument alone (``n = int(n)``) keeps what the caller passed: the check stands
    b = _page(cli, "bits")
    assert "has run" not in _all(b) and "`n` is less than `1`" in b.meaning


def test_a_check_worked_out_from_an_argument_names_the_argument_not_a_template(cli: Ctx) -> None:
    a = _page(cli, "slice_rows")
    assert "until it holds" not in _all(a)
    assert a.solutions[0].text.startswith("Look at the `idxs` you pass to `clilike.slice_rows`")


def test_a_function_without_arguments_names_the_state_it_reads(cli: Ctx) -> None:
    a = _page(cli, "get_binary_stderr")
    assert "comes from `sys.stderr`" in a.solutions[0].text and "until it holds" not in _all(a)


def test_no_public_caller_sends_to_the_traceback_without_a_template(cli: Ctx) -> None:
    a = _page(cli, "_read_console")
    assert a.solutions[0].text.startswith("No public function of clilike reaches `_read_console`")
    assert "(worked out from `b`)" in a.solutions[0].text and "until it holds" not in _all(a)
    # rating 7: an empty Prevention read as a placeholder; the check's own condition, in words, said of the
    # function no public call reaches (analyze/static/precondition.py)
    # rating 8: no claim that nothing public reaches it (a table of functions escapes errdex's call graph)
    assert len(a.prevention) == 1 and a.prevention[0].startswith("Wherever your code reaches `_read_console`")
    assert "which does not mean none does" in a.prevention[0]
    assert "from its `b` argument" in a.prevention[0]


# --------------------------------------------------------------------------- the message's context words


def test_eager_words_are_explained_from_the_table_of_eager_rules(jaxpages: Ctx) -> None:
    a = _page(jaxpages, "_ref_raise_valueerror")
    assert "inside the body of a `shard_map` that runs eagerly (not inside `jax.jit`)" in a.meaning
    assert "is in `eager_rules`" in a.meaning and "registered for `ref`" in a.meaning
    assert "when JAX applies the rule" not in a.meaning
    assert a.trigger.endswith("inside the body of a `shard_map` that runs eagerly (not inside `jax.jit`).")
    # rating 13 (abf6): Defensive was prose only; the check is on what the eagerly run body calls
    assert a.guard_note.startswith("What you can check before running a `shard_map` eagerly (not inside `jax.jit`): "
                                   "that the function it runs makes no `ref` operation (`eager_rules` refuses it); "
                                   "where it must, run the `shard_map` inside `jax.jit`, as the message says."), a.guard_note


def test_outside_of_x_is_explained_as_the_general_lowering(jaxpages: Ctx) -> None:
    a = _page(jaxpages, "_run_scoped_lowering_rule")
    assert "\"outside of Pallas\" in the message" in a.meaning
    assert "registered with `register_lowering` for `run_scoped`" in a.meaning


# --------------------------------------------------------------------------- an earlier raise of the same check


def test_an_entry_that_checks_first_is_not_this_raises_route(cli: Ctx) -> None:
    _cat, ctx = cli
    (site,) = [s for s in ctx.sites if s.qualname == "_trace"]
    assert ctx.public_path(site).entries == ("clilike.lower",)  # `jit` raises in its own check first
    a = _page(cli, "_trace")
    assert any(s.startswith("`jit` (`clilike/tracing.py:") and "makes the same check before it gets here" in s
               for s in a.situations)


def test_a_caller_with_the_same_check_is_named_and_the_direct_call_is_the_route(cli: Ctx) -> None:
    a = _page(cli, "ProgressBar.generator")
    (s,) = [s for s in a.situations if "makes the same check" in s]
    assert s.startswith("`ProgressBar.__iter__`") and "calling `clilike.core.ProgressBar.generator` directly" in s
    assert not any(s.startswith("The same message also comes from `ProgressBar.__iter__`") for s in a.situations)


def test_an_earlier_check_on_only_some_routes_keeps_the_entries_and_is_said(cli: Ctx) -> None:
    _cat, ctx = cli
    (site,) = [s for s in ctx.sites if s.qualname == "_build"]
    assert ctx.public_path(site).entries[0] == "clilike.run"  # `run` also calls `_build` without `_guarded`
    assert not ctx.rerouted(site)
    a = _page(cli, "_build")
    (s,) = [s for s in a.situations if s.startswith("`_guarded`")]
    assert "same check, with the same message, earlier on some of the routes here" in s
    assert "is reached by" not in s


def test_a_chain_through_the_earlier_check_is_replaced_and_what_enters_below_it_is_said(cli: Ctx) -> None:
    # ``stage`` -> ``_cpp_stage`` (the same check first: a call of ``stage`` raises there) -> ``_infer_stage``
    # -> here; ``_lowered_stage`` also calls ``_infer_stage`` (a returned object's method: jit(f).trace()).
    # The page names a call that gets here (``restage``: jax.lax.cond), says that ``stage`` raises at the
    # earlier check, and that it gets here only past it, through ``_lowered_stage``.
    _cat, ctx = cli
    (site,) = [s for s in ctx.sites if s.qualname == "_stage_body"]
    assert [e.qualname for e in ctx.earlier(site)] == ["_cpp_stage"]
    assert ctx.public_path(site).entries[0] == "clilike.restage" and not ctx.rerouted(site)
    a = _page(cli, "_stage_body")
    assert a.trigger.startswith("Calling `clilike.restage`") and "clilike.stage" not in a.trigger
    (s,) = [s for s in a.situations if s.startswith("`_cpp_stage`")]
    assert "first when the call is `clilike.stage`: that call raises there instead" in s
    assert "`clilike.stage` gets here only past that check, where `_infer_stage` is called by `_lowered_stage`" in s


def test_a_generic_condition_is_never_an_earlier_check(cli: Ctx) -> None:
    _cat, ctx = cli
    (site,) = [s for s in ctx.sites if s.qualname == "_fetch"]
    assert ctx.earlier(site) == () and ctx.public_path(site).entries == ("clilike.fetch",)


def test_a_parameter_the_message_names_is_the_one_to_look_at(cli: Ctx) -> None:
    a = _page(cli, "set_mode")
    assert a.solutions[0].text.startswith("Look at the `mode` you pass to `clilike.set_mode`: the check that fails "
                                          "reads it")
    assert a.solutions[0].text.endswith('says what it must be: "set_mode: mode must be one of the registered modes"')


def test_no_fact_beyond_the_message_gives_no_solution_rather_than_a_template(cli: Ctx) -> None:
    a = _page(cli, "Renderer2.render")
    assert a.solutions == () and "until it holds" not in _all(a)




def test_a_rule_registered_for_one_kind_of_kernel_is_not_the_general_rule(jaxpages: Ctx) -> None:
    a = _page(jaxpages, "_rev_lowering_rule")
    assert "This is not the operation's general rule" in a.meaning
    assert "`register_lowering_rule(rev_p, kernel_types=[CoreType.SC_VECTOR_SUBCORE])`" in a.meaning
    assert "_run_scoped" not in a.meaning
    # the trigger is scoped as the solution is (rating 4 on 5931: "overbroad, no SparseCore scope")
    assert " in a `SC_VECTOR_SUBCORE` kernel, while " in a.trigger


def test_a_comment_saying_when_it_happens_replaces_the_command_line_framing(cli: Ctx) -> None:
    a = _page(cli, "check_values")
    assert not a.meaning.startswith("Parsing a command line") and "reported to the person who ran it" not in a.meaning
    assert "a comment at the raise says when this one happens: \"This should only happen when passing in args " \
           "manually" in a.meaning


# --------------------------------------------------------------------------- arguments, not locals


def test_a_local_of_the_raising_function_is_never_an_argument(jaxpages: Ctx) -> None:
    a = _page(jaxpages, "reduce_scatter")
    assert not a.prevention or not any("output_shape" in p for p in a.prevention)
    # rating 12 (027b): the call picks `vec_size` itself when given None, which is the solution now
    assert [s.text.split(":")[0] for s in a.solutions] == ["Let `jax.experimental.mma.reduce_scatter` choose "
                                                            "`vec_size` itself"]
    assert "`math.prod(output_shape)` is not a multiple of `vec_size`" in a.meaning  # the condition is still said


def test_a_sentinel_check_or_the_messages_own_words_make_an_unseen_name_an_argument(jaxpages: Ctx) -> None:
    a = _page(jaxpages, "kernel")  # `body` is compared with a "not given" sentinel; the message names `mesh`
    assert a.solutions[0].text.startswith("Make sure that `body` is given or `mesh` is not")


def test_a_name_the_docstrings_args_list_is_an_argument(jaxpages: Ctx) -> None:
    a = _page(jaxpages, "format_metadata")  # the `def` is above the snippet; the docstring's Args lists `meta`
    assert a.solutions and a.solutions[0].text.startswith("Make sure that `meta.shape[-1]` equals `2`")


def test_a_both_or_neither_guard_over_two_parameters_of_a_long_signature(jaxpages: Ctx) -> None:
    a = _page(jaxpages, "mma")
    assert "Make sure that `a_scale` and `b_scale` are either both given or both None when you call " \
           "`jax.experimental.mma.mma`." in [s.text for s in a.solutions]
    assert any(p.startswith("Before calling `jax.experimental.mma.mma`, check that `a_scale` and `b_scale` are "
                            "either both given or both None") for p in a.prevention)


# --------------------------------------------------------------------------- names as the user reaches them


def test_a_class_imported_for_type_checkers_only_is_reached_through_its_factory(cli: Ctx) -> None:
    _cat, ctx = cli
    (init,) = [s for s in ctx.sites if s.qualname == "Bar.__init__"]
    assert ctx.public_path(init).entries == ("clilike.ui.bar",)  # never `clilike.ui.Bar`: not there at runtime
    a = _page(cli, "Bar.__init__")
    assert "clilike.ui.Bar" not in _all(a) and "`clilike.ui.bar`" in a.meaning
    assert "clilike.ui.Bar" not in _all(_page(cli, "Bar.steps"))


def test_arguments_of_the_factory_as_observed_are_the_ones_to_check(tmp_path: Path) -> None:
    """The ``def`` of ``Bar.__init__`` is above the snippet; the library's test called ``clilike.ui.bar(items=None,
    size=None)``: those are the arguments the solution names (the factory's, as the run recorded them)."""
    from errdex.model import Observation, ObservedArg, ObserveRun

    cat, ctx = load_fixture(tmp_path, "an_clilike", "example/clilike")
    (site,) = [s for s in ctx.sites if s.qualname == "Bar.__init__"]
    assert not _page((cat, ctx), "Bar.__init__").solutions  # the parameters are not in the snippet
    cat.replace_observations(ObserveRun(snapshot=ctx.snapshot.key), [Observation(
        snapshot=ctx.snapshot.key, kind="site", path=site.path, line=site.line, exception="TypeError",
        message="items or size is required for a bar", test="tests/test_ui.py::test_bar_init",
        error_id=site.error_id, test_path="tests/test_ui.py", test_line=3, entry="clilike.ui.bar",
        entry_args=(ObservedArg(name="items", type="NoneType", repr="None"),
                    ObservedArg(name="size", type="NoneType", repr="None")), escaped=True, count=1)])
    ctx = load_context(cat, ctx.snapshot)
    a = _page((cat, ctx), "Bar.__init__")
    assert [s.text for s in a.solutions] == ["Make sure that `items` is not None or `size` is not None when you call "
                                             "`clilike.ui.bar`."]
    cat.close()


def test_a_parameter_of_the_librarys_own_helper_is_not_the_users_even_when_it_shadows_a_builtin(cli: Ctx) -> None:
    # rating 4 on 951f: ``open`` of ``FloatRange._clamp(bound, dir, open)`` (reached from ``convert``) was read
    # first as the builtin (no name at all), then as the user's argument ("make sure `open` is false")
    cat, ctx = cli
    (site,) = [s for s in ctx.sites if s.qualname == "_clamp"]
    f = gather_facts(cat, ctx.snapshot, site, context=ctx)
    assert [g.names for g in f.guards] == [("open",)]  # the parameter, though `open` is also a builtin
    seen = Observation(snapshot=ctx.snapshot.key, kind="site", path=site.path, line=site.line,
                       exception="RuntimeError", message="Clamping is not supported for open bounds.",
                       test="tests/test_t.py::test_clamp", error_id=site.error_id, entry="clilike.convert_bound",
                       entry_args=(ObservedArg(name="value", type="int", repr="-1"),), escaped=True)
    a = analyze_static(replace(f, observed=(seen,)), ctx.all_symbols)
    assert "(what clilike passes to an internal helper on the way)" in a.meaning and "`_clamp`" not in a.meaning  # public names only
    assert not any("`open`" in p for p in a.prevention)
    # a comment that leaves it to the user is then the solution
    assert [s.text for s in a.solutions] == [
        "A comment at the raise says what is left to you: \"It's left up to the user to write a callback to do "
        "it if needed.\""]


def test_the_observed_tests_named_are_those_the_error_reached(cli: Ctx) -> None:
    # rating 4 on 809c/9161: a test where the library caught the error itself (an import-machinery probe, a
    # retry as a short option) was named first; a test the error reached is named, and only such tests then
    cat, ctx = cli
    (site,) = [s for s in ctx.sites if s.qualname == "_clamp"]
    f = gather_facts(cat, ctx.snapshot, site, context=ctx)

    def seen(test: str, escaped: bool) -> Observation:
        return Observation(snapshot=ctx.snapshot.key, kind="site", path=site.path, line=site.line,
                           exception="RuntimeError", message="Clamping is not supported for open bounds.",
                           test=f"tests/test_t.py::{test}", error_id=site.error_id, entry="clilike.convert_bound",
                           entry_args=(ObservedArg(name="value", type="int", repr="-1"),), escaped=escaped)

    a = analyze_static(replace(f, observed=(seen("test_incidental", False), seen("test_reaches", True))),
                       ctx.all_symbols)
    assert any("`test_reaches`" in s for s in a.situations)
    assert not any("test_incidental" in s for s in a.situations)
    assert "e.g. `test_reaches`" in a.meaning
    assert "clilike caught 1 of those 2 raises itself, and 1 reached the test" in a.meaning
    # counted in raises, as the total is (rating 7, 9161: "146 times ...; in 110 of those" counted rows), and
    # said with the total (rating 8, 916 and 5b54: "in each of those" read as a change of fact)
    both = replace(seen("test_incidental", False), count=3)
    a = analyze_static(replace(f, observed=(both, seen("test_other", False))), ctx.all_symbols)
    assert "raised it 4 times in 2 tests" in a.meaning
    assert "clilike caught it itself every time: none of the 4 raises reached the test" in a.meaning


def test_another_method_of_the_same_class_alone_is_no_relation(cli: Ctx) -> None:
    # rating 4 on 03ef: Related was empty; rating 5 graded the "another method of `ProgressBar`" entry that
    # filled it weak (a different misuse of the same object, not a sibling): an entry whose only relation is
    # where its code lives is not shown; the same method's errors still relate by their shared guard
    a = _page(cli, "ProgressBar.__init__")
    assert not any(r.reason.startswith("raised by another method of") for r in a.related)


def test_a_module_the_guards_call_through_is_no_shared_guard_variable() -> None:
    # rating 5 (a28d): "guarded by the same `utils`" for every check that calls `utils.bitwidth(...)`
    from types import SimpleNamespace

    from errdex.analyze.related import _only_called_through

    site = SimpleNamespace(guards=[SimpleNamespace(normalized="utils.bitwidth(dtype) < 32"),
                                   SimpleNamespace(normalized="not isinstance(reg_ty, ir.VectorType)")])
    assert _only_called_through("utils", site)  # type: ignore[arg-type]
    assert not _only_called_through("dtype", site)  # type: ignore[arg-type]  # a value: shared if another reads it
    both = SimpleNamespace(guards=[SimpleNamespace(normalized="cfg.check(x) and cfg is not None")])
    assert not _only_called_through("cfg", both)  # type: ignore[arg-type]  # also read as a value
