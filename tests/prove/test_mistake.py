"""A proven fix is said in the user's terms, and a set-up mistake is told apart from an input-driven error:
the page says to fix the former and offers no try / except for it (``prove/mistake.py``, ``prove/stored.py``).
The before/after pairs are ones errdex proved on click 8.5.1 (951f, 03ef, a9dd, 5b54, 809c)."""

from __future__ import annotations

from dataclasses import replace

from errdex.model import Analysis, CodeSample, ErrorSite, Proof, ProofAfter, ProofBefore, Solution
from errdex.pagenotes import SETUP_MISTAKE, arguments_note, defensive_note
from errdex.prove.mistake import change_sentence, input_driven, setup_note
from errdex.prove.stored import chosen_by_call, with_change

CLAMP = ("import click\nsneaky = click.FloatRange(0, 1, max_open={v})\nsneaky.clamp = True\n"
         "sneaky.convert('1.5', None, None)\n")
HELP = ("import click\n\n@click.command(context_settings={{'help_option_names': ('--my-help',)}})\ndef cli():\n"
        "    pass\ncli.make_context('example.py', {args})\n")
NARGS = ("import click\n\n@click.command()\n@click.argument('a', {nargs}type=int, default=True)\ndef cmd(a):\n"
         "    click.echo(repr(a))\nresult = cmd.main([], standalone_mode=False)\n")


def test_the_change_is_said_as_the_piece_that_changed() -> None:
    assert change_sentence(CLAMP.format(v=True), CLAMP.format(v=False)) == (
        "The proven example below changes one thing: `max_open=True` becomes `max_open=False` in the call of "
        "`click.FloatRange`.")
    assert change_sentence("import click\nclick.progressbar()\n", "import click\nclick.progressbar(iterable=[1])\n") \
        .endswith("`iterable=[1]` is passed in the call of `click.progressbar`.")
    assert change_sentence(NARGS.format(nargs="nargs=2, "), NARGS.format(nargs="")).endswith(
        "`nargs=2` is no longer passed in the call of `click.argument`.")
    # no call holds the change: the statement it is in says where
    assert change_sentence("import m\nx = m.F()\nx.on = True\nx.run()\n", "import m\nx = m.F()\nx.on = False\nx.run()\n") \
        .endswith("`True` becomes `False` in `x.on = True`.")
    assert "a try / except around `x.run`" in setup_note(
        "import m\nx = m.F()\nx.on = True\nx.run()\n", "import m\nx = m.F()\nx.on = False\nx.run()\n", "ValueError", False)
    assert change_sentence("import m\nm.F()\n", "import m\nm.F('x', 'y')\n").endswith(
        "`m.F()` becomes `m.F('x', 'y')`.")  # the call itself: not "in the call of `m.F`"
    assert change_sentence("import m\nwith m.strict():\n    m.run()\n", "import m\nm.run()\n").endswith(
        "the statement runs without `with m.strict():` around it.")


def test_set_up_mistakes_and_input_driven_errors() -> None:
    # the object is configured wrongly before the call: fix it, do not catch it
    assert not input_driven(CLAMP.format(v=True), CLAMP.format(v=False), "RuntimeError")
    # a decorator's argument (the command's definition)
    assert not input_driven(NARGS.format(nargs="nargs=2, "), NARGS.format(nargs=""), "click.exceptions.BadParameter")
    # a TypeError says the code is wrong whatever the data
    assert not input_driven("import click\nclick.progressbar()\n", "import click\nclick.progressbar(iterable=[1])\n",
                            "TypeError")
    # the command line a program is given: input it reads at run time
    assert input_driven(HELP.format(args="['--my-help']"), HELP.format(args="[]"), "click.exceptions.Exit")
    # the same change given to a constructor sets an object up
    assert not input_driven("import m\nm.Thing('a')\n", "import m\nm.Thing('b')\n", "ValueError")
    assert input_driven("import m\nm.parse('a')\n", "import m\nm.parse('b')\n", "ValueError")
    assert input_driven("import m\nm.span(3, step=0)\n", "import m\nm.span(3, step=1)\n", "ValueError")
    # a flag dropped or flipped is a setting
    assert not input_driven("import m\nm.span(3, 3, strict=True)\n", "import m\nm.span(3, 3)\n", "ValueError")
    assert not input_driven("import m\nm.span(3, strict=True)\n", "import m\nm.span(3, strict=False)\n", "ValueError")
    note = setup_note(CLAMP.format(v=True), CLAMP.format(v=False), "RuntimeError", False)
    assert "a try / except around `sneaky.convert`" in note  # the call that raises, not the set-up call
    assert note.startswith(SETUP_MISTAKE) and "(`max_open=True` becomes `max_open=False` in the call of `click.FloatRange`)" in note
    assert setup_note(HELP.format(args="['--my-help']"), HELP.format(args="[]"), "click.exceptions.Exit", False) == ""


def _proof(exc: str) -> Proof:
    return Proof(before=ProofBefore(exception=exc, error_id="951f354e3407eaa9", output="..."),
                 after=ProofAfter(exit=0), library="click", version="8.5.1", python="3.13.0", date="2026-12-05")


def test_a_set_up_mistake_drops_the_try_sample_and_says_why() -> None:
    a = Analysis(error_id="951f354e3407eaa9", snapshot="pallets/click@v8.5.1", meaning="m",
                 solutions=(Solution(text="A comment at the raise says ..."),),
                 example_fix=CodeSample(CLAMP.format(v=True), CLAMP.format(v=False), _proof("RuntimeError")),
                 try_sample="def convert_or_fallback(...): ...", try_proof=_proof("RuntimeError"))
    b = with_change(replace(a, guard_note="What you can check before the call: `x`."))
    assert b.try_sample == "" and b.try_proof is None
    assert b.guard_note.startswith(SETUP_MISTAKE) and b.guard_note.endswith(" What you can check before the call: `x`.")
    assert with_change(b).guard_note.count(SETUP_MISTAKE) == 1
    # the advice to catch it is not kept beside a note that declines to offer a try / except
    c = with_change(replace(a, guard_note="What to do is under Prevention; to handle it, catch `RuntimeError`."))
    assert "catch" not in c.guard_note
    # a call under a context manager: the note names that call, not the context manager
    note = setup_note("import m\nwith m.strict():\n    m.run()\n", "import m\nm.run()\n", "RuntimeError", False)
    assert "around `m.run`" in note
    assert b.solutions[-1].text.startswith("The proven example below changes one thing: `max_open=True`")
    assert b.solutions[:-1] == a.solutions  # the analysis' own solutions lead
    note = defensive_note({"guard_note": b.guard_note, "try_proof": None, "validate_proof": {"x": 1}})
    assert note.startswith(SETUP_MISTAKE)  # shown even beside a proven validate sample
    assert with_change(b).solutions == b.solutions  # said once
    # an input-driven error keeps its proven try sample
    h = Analysis(error_id="5b5493a3f7061d65", snapshot="pallets/click@v8.5.1", meaning="m",
                 example_fix=CodeSample(HELP.format(args="['--my-help']"), HELP.format(args="[]"),
                                        _proof("click.exceptions.Exit")),
                 try_sample="def make_context_or_fallback(...): ...", try_proof=_proof("click.exceptions.Exit"))
    assert with_change(h).try_proof is not None and defensive_note({"try_proof": {"x": 1}}) == ""


def test_a_set_up_mistake_keeps_the_guard_the_static_note_states() -> None:
    # rating 13, 027b: the set-up-mistake note replaced "Guard it before the call ...: pass `vec_size=None` ... In
    # code, the call passes this check when `...`" whole, leaving Defensive prose only; the guard stays, its word on
    # try / except (which the set-up note says itself) does not
    guard = ("Guard it before the call rather than catching it: before calling `m.span`, pass `step=None`. In code, "
             "the call passes this check when `step is None or n % step == 0`.")
    a = Analysis(error_id="951f354e3407eaa9", snapshot="pallets/click@v8.5.1", meaning="m",
                 example_fix=CodeSample("import m\nm.span(3, strict=True)\n", "import m\nm.span(3, strict=False)\n",
                                        _proof("ValueError")),
                 guard_note=guard + " A try / except is no substitute for it: errdex knows no fallback for that call.")
    b = with_change(a)
    kept = guard.replace("Guard it before the call rather than catching it: ", "Guard it before the call: ")
    assert b.guard_note.startswith(SETUP_MISTAKE) and b.guard_note.endswith(" " + kept), b.guard_note
    assert "no substitute" not in b.guard_note
    # a proven validate sample is the check: no prose guard beside it
    v = with_change(replace(a, validate_sample="...", validate_proof=_proof("ValueError")))
    assert "In code" not in v.guard_note


NO_TRACING = ("import jax\n{setup}jax.lax.cond(0, lambda *a: None, lambda *a: None)\n")
DIAG_NOTE = ("What decides it is the `jax_no_tracing` option (the `jax_no_tracing` option is on): read it before the "
             "call rather than catching the error; it is a check you turned on, so satisfy it (Solutions) and keep it on.")


def test_a_proven_change_that_only_turns_a_diagnostic_option_off_says_so() -> None:
    # rating 6 (fef1, 53c4): the guard note said "satisfy the check rather than turning it off" while the
    # proven after only dropped ``jax.config.update('jax_no_tracing', True)``
    before = NO_TRACING.format(setup="jax.config.update('jax_no_tracing', True)\n")
    after = NO_TRACING.format(setup="")
    a = Analysis(error_id="53c46e953344638a", snapshot="jax-ml/jax@jax-v0.10.2", meaning="m", guard_note=DIAG_NOTE,
                 example_fix=CodeSample(before, after, _proof("RuntimeError")))
    last = with_change(a).solutions[-1].text
    assert "only turns the `jax_no_tracing` option off" in last and "to keep the check" in last
    assert "Fix it as the example shows" not in with_change(a).guard_note
    assert with_change(with_change(a)).solutions == with_change(a).solutions  # said once
    # the same change with an option that is no check the user turned on: said as it is
    plain = with_change(replace(a, guard_note="What decides it is the `jax_x` option: read it before the call."))
    assert "only turns" not in plain.solutions[-1].text
    # a dropped ``with`` of the option's holder is turning it off too
    w_before = "import jax\nwith jax.no_tracing(True):\n    jax.lax.cond(0, f, f)\n"
    w = with_change(replace(a, example_fix=CodeSample(w_before, "import jax\njax.lax.cond(0, f, f)\n",
                                                      _proof("RuntimeError"))))
    assert "only turns the `jax_no_tracing` option off" in w.solutions[-1].text
    # proven afresh, the dropped ``with`` is marked "kept, reshaped": still labelled as turning the option off
    # (pages26: re-proving fef1 lost "The after only turns the `jax_no_execution` option off")
    from errdex.pagenotes import TURNS_OFF

    fresh = replace(_proof("RuntimeError"), arguments="kept, reshaped: the statement runs without `with ...` around it")
    w = with_change(replace(a, example_fix=CodeSample(w_before, "import jax\njax.lax.cond(0, f, f)\n", fresh)))
    assert w.example_fix.proof is not None and w.example_fix.proof.arguments == TURNS_OFF + "jax_no_tracing"


RUN_SCOPED = ("import jax\nfrom jax.experimental import pallas as pl\n"
              "jax.jit(lambda: pl.run_scoped(lambda r: r[...], pl.tpu.VMEM((8,), jax.numpy.float32){kw}))()\n")


def test_a_check_the_proven_failing_call_satisfies_is_dropped() -> None:
    # rating 6 (91c3): run_scoped turns collective_axes=None into (None,) before the check, so "check that
    # `collective_axes` is false or empty" passes the page's own failing call
    check = "Make sure that `collective_axes` is false or empty when you call `pl.run_scoped`."
    a = Analysis(error_id="91c31de04fd853b7", snapshot="jax-ml/jax@jax-v0.10.2", meaning="m",
                 solutions=(Solution(text=check), Solution(text="Or keep it inside Pallas.")),
                 prevention=("Before calling `pl.run_scoped`, check that `collective_axes` is false or empty.",),
                 guard_note="What you can check before calling `pl.run_scoped`: that `collective_axes` is false or empty.",
                 example_fix=CodeSample(RUN_SCOPED.format(kw=", collective_axes=None"), RUN_SCOPED.format(kw=""),
                                        _proof("ValueError")))
    b = with_change(a)
    shown = " ".join([b.guard_note, *b.prevention, *(s.text for s in b.solutions)])
    assert "is false or empty" not in shown
    assert "Do not pass `collective_axes=None` to mean none" in shown and "leave `collective_axes` out" in shown
    assert b.solutions[0].text == "Keep it inside Pallas."
    # a failing call that passes a true value does not contradict the check: it stays
    c = with_change(replace(a, example_fix=CodeSample(RUN_SCOPED.format(kw=", collective_axes='x'"),
                                                      RUN_SCOPED.format(kw=""), _proof("ValueError"))))
    assert any("is false or empty" in s.text for s in c.solutions)


def test_a_related_errors_proof_corrects_a_check_on_the_same_name() -> None:
    # rating 7 (4423): the interpret rule of run_scoped states "`collective_axes` is false or empty" with no
    # proof of its own; the lowering rule of the same operation (91c3) proved collective_axes=None raises
    from errdex.model import RelatedError
    from errdex.prove.contradict import shared_contradictions, without_contradicted

    proven = with_change(Analysis(
        error_id="91c31de04fd853b7", snapshot="s", meaning="m",
        example_fix=CodeSample(RUN_SCOPED.format(kw=", collective_axes=None"), RUN_SCOPED.format(kw=""),
                               _proof("ValueError")),
        solutions=(Solution(text="Make sure that `collective_axes` is false or empty."),)))
    sibling = Analysis(
        error_id="44230afd71e8b100", snapshot="s", meaning="It raises when `collective_axes` is true (non-empty).",
        solutions=(Solution(text="Make sure that `collective_axes` is false or empty when you call `pl.run_scoped`."),
                   Solution(text="Or run it compiled.")),
        guard_note="None is shown. What you can check before calling `pl.run_scoped`: that `collective_axes` "
                   "is false or empty.",
        related=(RelatedError("91c31de04fd853b7", "t", "another rule of the same operation `run_scoped`, "
                              "checking the same `collective_axes`"),))
    shared = shared_contradictions([proven, sibling])
    assert shared == {"44230afd71e8b100": {"collective_axes": ("None", "91c31de04fd853b7")}}
    b = without_contradicted(sibling, shared["44230afd71e8b100"])
    shown = " ".join([b.meaning, b.guard_note, *b.prevention, *(s.text for s in b.solutions)])
    assert "is false or empty" not in shown and "true (non-empty)" not in shown
    assert "`collective_axes` is passed, even as `None`" in b.meaning
    assert "that `collective_axes` is left out" in b.guard_note
    assert b.solutions[0].text == "Run it compiled."
    assert any("/errors/91c31de04fd853b7" in p and "leave `collective_axes` out" in p for p in b.prevention)
    # a looser relation (the same variable name in another function) lends nothing
    other = replace(sibling, related=(RelatedError("91c31de04fd853b7", "t", "guarded by the same `collective_axes`"),))
    assert shared_contradictions([proven, other]) == {}
    # rating 9: a proof of its own that satisfies no stated check (`collective_axes=1` -> `()`) hides nothing
    own = replace(sibling, example_fix=CodeSample(RUN_SCOPED.format(kw=", collective_axes=1"),
                                                  RUN_SCOPED.format(kw=", collective_axes=()"), _proof("NotImplementedError")))
    assert shared_contradictions([proven, own]) == shared
    # one that does keeps its own word
    self_proven = replace(own, example_fix=replace(own.example_fix, before=RUN_SCOPED.format(kw=", collective_axes=0")))
    assert shared_contradictions([proven, self_proven]) == {}


def test_an_after_that_only_takes_the_trigger_away_is_no_fix_to_copy() -> None:
    # rating 7 (a9dd, 809c, 5b54): the proven after drops ``nargs=2``, empties the arguments, or reads
    # another attribute; the page's own solution is the fix, the example only shows where the error comes from
    from errdex.prove.mistake import only_drops

    assert only_drops(NARGS.format(nargs="nargs=2, "), NARGS.format(nargs=""))
    assert only_drops(HELP.format(args="['--my-help']"), HELP.format(args="[]"))
    assert only_drops("import click.core as m\n_ = m.no_such_attribute\n", "import click.core as m\n_ = m.Argument\n")
    assert only_drops("import k\nk.kernel(mesh=[m])\n", "import k\nk.kernel(mesh=None)\n")
    assert only_drops("import c\nc.argument('a', nargs=2, type=int, default=d)\n", "import c\nc.argument('a', default=d)\n")
    # a value changed, or an argument given: the call gets what it needs
    assert not only_drops(CLAMP.format(v=True), CLAMP.format(v=False))
    assert not only_drops("import click\nclick.progressbar()\n", "import click\nclick.progressbar(iterable=[1])\n")
    assert not only_drops("import j\nj.f(x=1)\n", "import j\nj.f(x=2)\n")
    # what it takes away asked for nothing (91c3: ``collective_axes=None`` left out is the fix)
    assert not only_drops(RUN_SCOPED.format(kw=", collective_axes=None"), RUN_SCOPED.format(kw=""))
    # but ``None`` passed for an argument the call was given is no fix (rating 8, 707f: ``mesh=[]`` ->
    # ``mesh=None`` only got past the decorator's check), whatever the old value asked for
    assert only_drops("import k\nk.kernel(mesh=[])\n", "import k\nk.kernel(mesh=None)\n")
    assert not only_drops("import k\nk.kernel(mesh=None)\n", "import k\nk.kernel(mesh=m)\n")
    # a value that asked for something replaced by an empty collection asks for nothing (rating 12, 4423:
    # ``collective_axes=1`` -> ``()`` drops the collective allocation; it was called "the fix")
    assert only_drops(RUN_SCOPED.format(kw=", collective_axes=1"), RUN_SCOPED.format(kw=", collective_axes=()"))
    assert only_drops("import j\nj.f(axes='x')\n", "import j\nj.f(axes=[])\n")
    # an empty value given something is a value changed, and a flag turned off is no empty collection
    assert not only_drops("import j\nj.f(axes=[])\n", "import j\nj.f(axes=(0,))\n")
    assert not only_drops("import j\nj.f(x=1)\n", "import j\nj.f(x=0)\n")
    a = Analysis(error_id="a9dd3621fab4d8a5", snapshot="s", meaning="m",
                 solutions=(Solution(text="Make the `default=` fit `type=` and `nargs=`."),),
                 example_fix=CodeSample(NARGS.format(nargs="nargs=2, "), NARGS.format(nargs=""), _proof("BadParameter")))
    b = with_change(a)
    last = b.solutions[-1].text
    assert last.startswith("The proven example below only shows where the error comes from")
    assert "`nargs=2` is no longer passed" in last and "no fix to copy" in last
    assert "That takes away what `cmd.main` was asked to do" in last  # the page's own call, not "the call"
    assert "Fix it as the example shows" not in b.guard_note and "the example only shows where" in b.guard_note
    assert with_change(b).solutions == b.solutions  # said once
    # without a solution of its own the page keeps the plain change
    assert with_change(replace(a, solutions=())).solutions[-1].text.startswith("The proven example below changes")


def test_an_after_that_only_takes_away_is_not_marked_as_keeping_the_arguments() -> None:
    # rating 8 (809c, 916, 5b54): "The after keeps every argument of the call and changes values only" stood
    # over an example whose after only empties the command line; the line now says what it took away
    from errdex.pagenotes import arguments_note

    kept = replace(_proof("click.exceptions.Exit"), arguments="kept")
    a = Analysis(error_id="5b5493a3f7061d65", snapshot="s", meaning="m",
                 solutions=(Solution(text="Call it with `standalone_mode=False` to get the exit code back."),),
                 example_fix=CodeSample(HELP.format(args="['--my-help']"), HELP.format(args="[]"), kept))
    b = with_change(a)
    assert b.example_fix.proof is not None
    note = arguments_note({"arguments": b.example_fix.proof.arguments})
    assert note.startswith("The after only avoids what raised (`['--my-help']` becomes `[]`")
    assert "not a fix to copy" in note and "do what the solutions say" in note
    assert with_change(b).example_fix == b.example_fix  # marked once
    mesh = replace(a, example_fix=CodeSample("import k\nk.kernel(mesh=[])\n", "import k\nk.kernel(mesh=None)\n", kept))
    assert "`mesh=[]` becomes `mesh=None`" in arguments_note({"arguments": with_change(mesh).example_fix.proof.arguments})  # type: ignore[union-attr]
    # a value that gives the call what it needs keeps "kept"; a "drops" mark from the engine stays as it is
    clamp = replace(a, example_fix=CodeSample(CLAMP.format(v=True), CLAMP.format(v=False), kept))
    assert with_change(clamp).example_fix.proof.arguments == "kept"  # type: ignore[union-attr]
    nargs = replace(a, example_fix=CodeSample(NARGS.format(nargs="nargs=2, "), NARGS.format(nargs=""),
                                              replace(kept, arguments="drops nargs=")))
    assert with_change(nargs).example_fix.proof.arguments == "drops nargs="  # type: ignore[union-attr]


def test_an_option_turned_off_by_value_is_labelled_as_only_turning_it_off() -> None:
    # rating 9 (53c4): the after turned ``jax_no_tracing`` off (``True`` -> ``False``) instead of dropping the
    # line; the caveat and the label under the example went with it
    before = NO_TRACING.format(setup="jax.config.update('jax_no_tracing', True)\n")
    after = NO_TRACING.format(setup="jax.config.update('jax_no_tracing', False)\n")
    proof = replace(_proof("RuntimeError"), arguments="kept")
    a = with_change(Analysis(error_id="53c46e953344638a", snapshot="jax-ml/jax@jax-v0.10.2", meaning="m",
                             guard_note=DIAG_NOTE, example_fix=CodeSample(before, after, proof)))
    assert "only turns the `jax_no_tracing` option off" in a.solutions[-1].text
    assert "Fix it as the example shows" not in a.guard_note
    assert a.example_fix.proof is not None
    assert arguments_note({"arguments": a.example_fix.proof.arguments}).startswith(
        "The after only turns the `jax_no_tracing` option off")


def test_every_change_of_one_call_is_said() -> None:
    # rating 9 (b806): the metadata's shape and the operand dtype changed in the same call (twice: the shape
    # computed, then the kernel); the page said neither
    call = "lib.fmt(meta=lib.zeros((128, 128, {n}), 'uint2'), operand_dtype=lib.{t})"
    body = "import lib\n_out = lib.shape_of(lambda: {c})\nif True:\n    r = {c}\n    lib.run(r)\n"
    said = change_sentence(body.format(c=call.format(n=128, t="float32")), body.format(c=call.format(n=2, t="float16")))
    assert said.startswith("The proven example below changes two things:")
    assert "`meta=lib.zeros((128, 128, 128), 'uint2')` becomes `meta=lib.zeros((128, 128, 2), 'uint2')`" in said
    assert "`operand_dtype=lib.float32` becomes `operand_dtype=lib.float16`" in said


def test_a_stored_kept_mark_is_corrected_on_re_analysis() -> None:
    # a proof stored before ``keep.values_only`` says "kept" over an after that added arguments (rating 9: 669a)
    proof = replace(_proof("ValueError"), arguments="kept")
    a = with_change(Analysis(error_id="669a69c654614ac2", snapshot="jax-ml/jax@jax-v0.10.2", meaning="m",
                             example_fix=CodeSample("import lib\nlib.Factor()\n", "import lib\nlib.Factor('x', 'x')\n",
                                                    proof)))
    assert a.example_fix.proof is not None and a.example_fix.proof.arguments.startswith("kept, reshaped: ")
    # and a mark the rule no longer gives is said afresh
    again = with_change(replace(a, example_fix=replace(a.example_fix, before="import lib\nlib.Factor(n=1)\n",
                                                       after="import lib\nlib.Factor(n=2)\n")))
    assert again.example_fix.proof is not None and again.example_fix.proof.arguments == "kept"


def test_a_check_an_other_spelling_the_proof_ran_satisfies_is_dropped() -> None:
    # rating 9 (4423): the before passed a true ``collective_axes=1``; the proof ran the after's ``()`` spelt
    # ``0`` and ``None`` (``keep.spellings``), and both raised: "false or empty" is wrong there too
    check = "Make sure that `collective_axes` is false or empty when you call `pl.run_scoped`."
    proof = replace(_proof("NotImplementedError"), raised_with=(RUN_SCOPED.format(kw=", collective_axes=0"),
                                                                RUN_SCOPED.format(kw=", collective_axes=None")))
    a = Analysis(error_id="44230afd71e8b100", snapshot="jax-ml/jax@jax-v0.10.2", meaning="m",
                 solutions=(Solution(text=check), Solution(text="Or run it compiled.")),
                 prevention=("Before calling `pl.run_scoped`, check that `collective_axes` is false or empty.",),
                 example_fix=CodeSample(RUN_SCOPED.format(kw=", collective_axes=1"),
                                        RUN_SCOPED.format(kw=", collective_axes=()"), proof))
    b = with_change(a)
    shown = " ".join([b.guard_note, *b.prevention, *(s.text for s in b.solutions)])
    assert "is false or empty" not in shown
    assert "Do not pass `collective_axes=0` to mean none: errdex ran the proven example's call with it" in shown
    assert with_change(replace(a, example_fix=replace(a.example_fix, proof=_proof("E")))).solutions[0].text == check


def test_a_check_is_said_so_that_the_spellings_that_ran_clean_pass_it() -> None:
    # rating 10: 5931's "`dimensions` equals `(0,)`" rejects `[0]`, which ran clean (``Proof.clean_with``);
    # 4423's "passed, even as `None`" is said as "anything but `()`", the value its own after ran clean with
    rev = "import jax\njax.lax.rev(x, dimensions={d})\n"
    check = "Make sure that `dimensions` equals `(0,)` when you call `jax.lax.rev`."
    proof = replace(_proof("NotImplementedError"), clean_with=(rev.format(d="[0]"),))
    a = Analysis(error_id="59318410719c94fc", snapshot="jax-ml/jax@jax-v0.10.2", meaning="m",
                 solutions=(Solution(text=check),),
                 prevention=("Before calling `jax.lax.rev`, check that `dimensions` equals `(0,)`.",),
                 example_fix=CodeSample(rev.format(d="(1,)"), rev.format(d="(0,)"), proof))
    b = with_change(a)
    assert b.solutions[0].text == "Make sure that `dimensions` is `(0,)` or `[0]` when you call `jax.lax.rev`."
    assert b.prevention[0] == "Before calling `jax.lax.rev`, check that `dimensions` is `(0,)` or `[0]`."
    plain = with_change(replace(a, example_fix=replace(a.example_fix, proof=_proof("NotImplementedError"))))
    assert plain.solutions[0].text == check  # nothing else ran clean: the check stays as stated

    shape = "s = jax.eval_shape(lambda: pl.run_scoped(f, collective_axes=None))\n"  # ran clean, not the raising call
    axes = replace(_proof("NotImplementedError"), raised_with=(RUN_SCOPED.format(kw=", collective_axes=None"),),
                   clean_with=(shape + RUN_SCOPED.format(kw=", collective_axes=()"),))
    c = Analysis(error_id="44230afd71e8b100", snapshot="jax-ml/jax@jax-v0.10.2",
                 meaning="It raises when `collective_axes` is true (non-empty).",
                 prevention=("Before calling `pl.run_scoped`, check that `collective_axes` is false or empty.",),
                 example_fix=CodeSample(RUN_SCOPED.format(kw=", collective_axes=1"),
                                        RUN_SCOPED.format(kw=", collective_axes=()"), axes))
    d = with_change(c)
    assert "when `collective_axes` is anything but `()` (even `None`: the call turns" in d.meaning
    assert "passed, even as" not in " ".join([d.meaning, *d.prevention])


STDERR = ("import click\nimport contextlib\nimport io\n{open}"
          "click.get_binary_stream(name='stderr')\n")


def test_a_raise_that_depends_on_the_process_stream_is_no_set_up_mistake() -> None:
    """The after of a stream proof runs the same call with the process's own ``sys.stderr`` (``streams.py``):
    which stream a program has depends on how it is started (pythonw, a notebook, a capture), so the page keeps
    its check on the stream and does not call the error a mistake in the code (rating 11, ad70)."""
    before = STDERR.format(open="with contextlib.redirect_stderr(io.StringIO()):\n    ")
    after = STDERR.format(open="")
    proof = replace(_proof("RuntimeError"), arguments="kept, own stream: sys.stderr")
    a = Analysis(error_id="ad7044d9ef339023", snapshot="pallets/click@v8.5.1", meaning="m",
                 example_fix=CodeSample(before, after, proof),
                 guard_note="What you can check before calling `click.get_binary_stream`: `sys.stderr` ...")
    assert with_change(a).guard_note == a.guard_note
    # the same pair without the stream mark reads as a set-up change
    plain = replace(a, example_fix=CodeSample(before, after, _proof("RuntimeError")))
    assert with_change(plain).guard_note.startswith(SETUP_MISTAKE)


SCATTER = "import lib\n\nlib.scatter(x, vec_size={v})\n"
FILLS = ("def scatter(x, vec_size=None):\n    if vec_size is None:\n        vec_size = pick(x)\n"
         "    if len(x) % vec_size:\n        raise ValueError('must be divisible by the vec_size')\n")


def test_none_for_a_value_the_call_works_out_itself_is_the_fix() -> None:
    """027b: the after passes ``vec_size=None`` and the raising function fills ``vec_size`` itself when it is ``None``
    (above the raise): the call then chooses one that passes, a fix, not a trigger taken away."""
    site = ErrorSite(kind="error", exception="ValueError", exception_resolved="ValueError", templates=(), path="lib.py",
                     line=5, end_line=5, qualname="scatter", module="lib", snippet=FILLS, snippet_start=1)
    a = Analysis(error_id="027bcf2c36e2a598", snapshot="s", meaning="m", solutions=(Solution(text="Pass a divisor."),),
                 example_fix=CodeSample(SCATTER.format(v=5), SCATTER.format(v=None),
                                        replace(_proof("ValueError"), arguments="takes away: `vec_size=5` ...")))
    assert chosen_by_call(SCATTER.format(v=5), SCATTER.format(v=None), site) == "vec_size"
    b = with_change(a, site)
    last = b.solutions[-1].text
    assert "works out a `vec_size` itself" in last and "no fix to copy" not in last
    assert b.example_fix.proof is not None and b.example_fix.proof.arguments == "kept"
    plain = with_change(a)  # no site: nothing says the call fills it in, so ``None`` takes the trigger away
    assert "no fix to copy" in plain.solutions[-1].text
    other = replace(site, snippet=FILLS.replace("vec_size = pick(x)", "raise TypeError('needs one')"))
    assert chosen_by_call(SCATTER.format(v=5), SCATTER.format(v=None), other) == ""
    assert chosen_by_call(SCATTER.format(v=5), SCATTER.format(v=2), site) == ""  # a value given: not this rule


def test_the_raising_call_of_a_kernel_form_program_is_the_statement_that_lowers_it() -> None:
    # rating 13 on a28d: the program is a block (``if True:``) holding the kernel's ``def`` and the statement that
    # lowers it; the note named the value's call (``jax.numpy.zeros``), which never raises, as the one to wrap
    from errdex.prove.mistake import raising_call, setup_note

    before = ("import kern\n\n_out = kern.shape_of(kern.zeros(8, 'half'))\nif True:\n    def _kernel(_o, _ref):\n"
              "        _ref[...] = kern.barrier(kern.zeros(8, 'half'))\n"
              "    kern.jit(kern.experimental.gpu.kernel(_kernel, out_type=kern.Struct((8,), 'single'), scratch=[_out]))"
              ".trace().lower(lowering_platforms=('cuda',))\n")
    # the whole statement, not its last method: rating 14 on 027b, whose raise comes in ``.trace()``
    said = "the `kern.jit(…).trace().lower(lowering_platforms=('cuda',))` statement that ends the program"
    assert raising_call(before) == said
    note = setup_note(before, before.replace("'half'", "'single'"), "NotImplementedError", False)
    assert f"a try / except around {said}" in note
    assert "`kern.zeros`" not in note
    # a short call in the block is named as written; a ``with`` block as before
    assert raising_call("import p\nif True:\n    def f():\n        pass\n    p.run(f)\n") == "`p.run`"
    assert raising_call("import p\nwith p.ctx():\n    p.go(1)\n") == "`p.go`"


def test_a_value_the_kernel_body_makes_itself_is_said_as_one_case_not_the_whole_kind() -> None:
    # rating 13 on a28d: the proof changed `'float16'` -> `'float32'` in `jnp.zeros` made inside the kernel body, and
    # the page read as "float16 is unsupported"; float16 data read from a ref lowers clean
    from errdex.prove.mistake import change_sentence

    before = ("import kern\nif True:\n    def _kernel(_o, _ref):\n        _ref[...] = kern.barrier(kern.zeros(8, 'half'))\n"
              "    kern.lower(_kernel)\n")
    said = change_sentence(before, before.replace("'half'", "'single'"))
    assert said.startswith("The proven example below changes one thing: `'half'` becomes `'single'` in the call of "
                           "`kern.zeros`."), said
    assert "one `kern.zeros` makes inside the function the program defines" in said
    assert "not that every value of that kind is refused" in said
    # the value read from the body's own parameter is no value the body makes: said as before
    ref = ("import kern\nif True:\n    def _kernel(_o, _ref):\n        _ref[...] = kern.barrier(kern.cast(_ref, 'half'))\n"
           "    kern.lower(_kernel)\n")
    assert "inside the function" not in change_sentence(ref, ref.replace("'half'", "'single'"))
    # no function defined: as before
    flat = "import kern\nkern.barrier(kern.zeros(8, 'half'))\n"
    assert change_sentence(flat, flat.replace("'half'", "'single'")).endswith("in the call of `kern.zeros`.")
    # the body's own call, its argument changed (not a value passed on): the proof is about that call, said as before
    own = ("import kern\nif True:\n    def _kernel(_o, _ref):\n        kern.scoped(lambda r: None, axes=1)\n"
           "    kern.lower(_kernel)\n")
    assert "inside the function" not in change_sentence(own, own.replace("axes=1", "axes=()"))


def test_the_call_s_other_form_is_said_as_such() -> None:
    """707f: an after marked "kept, given" (``keep.given_mark``) is said as the call's other form, the function passed
    in the call instead of using the call as a decorator, not as the trigger taken away."""
    from errdex.pagenotes import KEPT_GIVEN

    before, after = "import m\nm.kernel(mesh=[1])\n", "import m\nm.kernel(body=[lambda *a, **k: None], mesh=[1])\n"
    proof = replace(_proof("ValueError"), arguments=f"{KEPT_GIVEN}body | isinstance(body, NotSpecified) | function")
    a = Analysis(error_id="707f9131000e14ed", snapshot="acme/m@1", meaning="m",
                 solutions=(Solution(text="Make sure that `mesh` is not a list."),),
                 example_fix=CodeSample(before, after, proof))
    last = with_change(a).solutions[-1].text
    assert last.startswith("The proven example below changes one thing: `body=[lambda *a, **k: None]` is passed")
    assert "the call's other form, the function passed in the call instead of using the call as a decorator" in last
    assert "no fix to copy" not in last
