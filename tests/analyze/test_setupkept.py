"""A re-analysis keeps the static Defensive note where ``prove/stored.with_change``'s set-up-mistake note
misreads the error (rating 9: 916, click's ``NoSuchOption`` was called "a mistake to fix in the code ... not
data that varies from run to run", quoting a labelled non-fix as "the proven fix")."""

from __future__ import annotations

from dataclasses import replace

from errdex.analyze.setupkept import keep_static_notes
from errdex.analyze.static.guardnote import USAGE_NOTE
from errdex.model import Analysis, CodeSample, Proof, ProofAfter, ProofBefore, Solution, to_json
from errdex.pagenotes import SETUP_MISTAKE, arguments_note
from errdex.prove.stored import with_change

BEFORE = '''import click
unknown_flag = '--foo'

@click.command()
def cli():
    pass
result = cli.main([unknown_flag], standalone_mode=False)
'''
USAGE = (f"{USAGE_NOTE}: `click.NoSuchOption` is about the command line the program was run with, and click "
         "reports it to the person who ran it as a usage message; catch it only where your code runs the command "
         "itself and must carry on.")


def _proven(before: str, after: str, exception: str, note: str) -> tuple[Analysis, Analysis]:
    proof = Proof(before=ProofBefore(exception=exception), after=ProofAfter(), library="click", version="8.5.1",
                  python="3.13.0", date="2026-12-06")
    fresh = Analysis(error_id="e1", snapshot="s", meaning="m", guard_note=note,
                     solutions=(Solution("Fix the command line the program was run with."),),
                     example_fix=CodeSample(before=before, after=after, proof=proof))
    return fresh, with_change(fresh)


def test_a_usage_error_keeps_its_static_note() -> None:
    fresh, kept = _proven(BEFORE, BEFORE.replace("[unknown_flag]", "[]"), "click.exceptions.NoSuchOption", USAGE)
    assert kept.guard_note.startswith(SETUP_MISTAKE)  # what prove's note says of it
    [out] = keep_static_notes([fresh], [kept])
    assert out.guard_note == USAGE
    assert out.solutions == kept.solutions and out.example_fix == kept.example_fix


def test_a_labelled_non_fix_is_not_quoted_as_the_fix() -> None:
    before = "import acme\nflag = '--strict'\nacme.configure([flag])\n"
    fresh, kept = _proven(before, "import acme\nflag = '--strict'\nacme.configure([])\n", "acme.ConfigError",
                          "What you can check before calling `acme.load`: that the flag is known.")
    assert "the proven fix changes how the code sets the call up (`[flag]` becomes `[]`" in kept.guard_note
    [out] = keep_static_notes([fresh], [kept])
    assert out.guard_note.startswith(SETUP_MISTAKE) and "the proven fix" not in out.guard_note
    assert "`[flag]`" not in out.guard_note
    assert "how the code sets the call up decides it, not data that varies from run to run (the proven example only " \
           "takes the trigger away and is no fix)" in out.guard_note


def test_a_real_set_up_fix_keeps_the_set_up_note() -> None:
    before = "import click\n\n@click.command()\n@click.argument('a', nargs=2, type=int, default='Yo')\ndef cli(a):\n    print(a)\ncli.main([], standalone_mode=False)\n"
    fresh, kept = _proven(before, before.replace("'Yo'", "(1, 2)"), "click.exceptions.BadParameter",
                          "What you can check before calling `cli.main`: that the default is a tuple.")
    [out] = keep_static_notes([fresh], [kept])
    assert out.guard_note == kept.guard_note


TRY = '''import re
import logging
import jax.experimental.mosaic.gpu.fragmented_array
import jax
def tiled_wgmma_layout_or_fallback(*args, fallback, **kwargs):
    """doc"""
    try:
        return jax.experimental.mosaic.gpu.fragmented_array._tiled_wgmma_layout(*args, **kwargs)
    except ValueError as exc:
        if not re.match('^(?:Shape (?s:.*?) is not 2D)$', str(exc)):
            raise  # another error of the same call: not this one
        logging.getLogger(__name__).warning('%s refused its input: %s', 'tiled_wgmma_layout_or_fallback', exc)
        return fallback
print(tiled_wgmma_layout_or_fallback(shape=(), fallback=None))
'''


def test_no_fallback_try_around_a_private_call() -> None:
    # rating 9 (0480): a proven try that logs and returns None around the private `_tiled_wgmma_layout`
    proof = Proof(before=ProofBefore(exception="ValueError"), after=ProofAfter(), library="jax", version="0.10.2",
                  python="3.13.0", date="2026-12-06")
    sols = (Solution("Where your code needs what the private function `m._tiled_wgmma_layout` returns, use the public "
                     "`jax.experimental.mosaic.gpu.WGMMA_LAYOUT` instead: the function returns that constant."),
            Solution("The proven example below changes one thing: `shape=()` becomes `shape=[0, 0]`."))
    a = Analysis(error_id="e", snapshot="s", meaning="m", solutions=sols, try_sample=TRY, try_proof=proof,
                 guard_note="What you can check before calling it: that the length of `shape` equals `2`.")
    [b] = keep_static_notes([a], [a])
    assert b.try_sample == "" and b.try_proof is None
    assert b.guard_note.startswith(SETUP_MISTAKE) and "take the public `jax.experimental.mosaic.gpu.WGMMA_LAYOUT`" in b.guard_note
    assert b.solutions[0] == sols[0]
    assert b.solutions[1].text.endswith("the fix to copy is the public `jax.experimental.mosaic.gpu.WGMMA_LAYOUT`.")
    # a public call's try stays
    public = TRY.replace("fragmented_array._tiled_wgmma_layout(*args", "fragmented_array.tiled_layout(*args")
    [c] = keep_static_notes([a], [replace(a, try_sample=public)])
    assert c.try_sample == public and c.try_proof is proof


VALIDATE = '''import inspect
import jax.experimental.pallas


def run_scoped_problem(*args, **kwargs):
    given = inspect.signature(jax.experimental.pallas.run_scoped).bind(*args, **kwargs)
    given.apply_defaults()
    collective_axes = given.arguments['collective_axes']
    if collective_axes:
        return 'run_scoped interpret rule does not support collective axes'
    return ''
'''


def test_no_truth_check_on_a_value_the_call_rebuilds() -> None:
    # rating 9 (4423): the proven validate sample tested `if collective_axes:` on the raw argument; run_scoped
    # wraps any non-tuple first, so 0 and None pass the sample and the call raises
    proof = Proof(before=ProofBefore(exception="NotImplementedError"), after=ProofAfter(), library="jax",
                  version="0.10.2", python="3.13.0", date="2026-12-06")
    a = Analysis(error_id="e", snapshot="s", validate_sample=VALIDATE, validate_proof=proof,
                 meaning="It raises when `collective_axes` is passed, even as `None` (the call turns the value into a "
                         "true one before the check sees it).")
    a = replace(a, guard_note=f"{SETUP_MISTAKE}: `NotImplementedError` here means the code is wrong. Fix it as the "
                              "example shows and check it with the validate sample; a try / except would hide it.")
    [b] = keep_static_notes([a], [a])
    assert b.validate_sample == "" and b.validate_proof is None
    assert "validate sample" not in b.guard_note
    assert "The check is on `collective_axes` as the call rebuilds it, not as passed: `None` is false" in b.guard_note
    assert keep_static_notes([a], [b]) == [b]
    # without the page saying the value is rebuilt, the sample stands
    plain = replace(a, meaning="It raises when `collective_axes` is true (non-empty).")
    assert keep_static_notes([plain], [plain]) == [plain]


def test_a_re_analysis_says_it_again_without_the_try() -> None:
    # the try sample is gone from the catalog after the first pass: the proven example's private call decides
    proof = Proof(before=ProofBefore(exception="ValueError"), after=ProofAfter(), library="jax", version="0.10.2",
                  python="3.13.0", date="2026-12-06")
    before = "import jax.experimental.mosaic.gpu.fragmented_array\nimport jax\n" \
             "jax.experimental.mosaic.gpu.fragmented_array._tiled_wgmma_layout(shape=())\n"
    a = Analysis(error_id="e", snapshot="s", meaning="m",
                 example_fix=CodeSample(before, before.replace("()", "[0, 0]"), proof),
                 guard_note="What you can check before calling it: that the length of `shape` equals `2`.")
    [b] = keep_static_notes([a], [a])
    assert b.guard_note.startswith(SETUP_MISTAKE) and "private `_tiled_wgmma_layout`" in b.guard_note
    assert b.guard_note.endswith(a.guard_note)  # the check, as no validate sample is proven
    assert keep_static_notes([a], [b]) == [b]
    public = replace(a, example_fix=CodeSample("import jax\njax.numpy.zeros(())\n", "import jax\n", proof))
    assert keep_static_notes([public], [public]) == [public]


def test_the_example_itself_says_it_calls_a_private_function_and_names_the_public_one() -> None:
    # rating 10 (0480): the label sat in Solutions only; the line under the example read as a fix to copy
    proof = Proof(before=ProofBefore(exception="ValueError"), after=ProofAfter(), library="jax", version="0.10.2",
                  python="3.13.0", date="2026-12-06", arguments="kept")
    before = "import jax.experimental.mosaic.gpu.fragmented_array\nimport jax\n" \
             "jax.experimental.mosaic.gpu.fragmented_array._tiled_wgmma_layout(shape=())\n"
    sols = (Solution("Where your code needs what the private function `m._tiled_wgmma_layout` returns, use the public "
                     "`jax.experimental.mosaic.gpu.WGMMA_LAYOUT` instead: the function returns that constant."),)
    a = Analysis(error_id="e", snapshot="s", meaning="m", solutions=sols,
                 example_fix=CodeSample(before, before.replace("()", "[0, 0]"), proof))
    [b] = keep_static_notes([a], [a])
    assert b.example_fix.proof is not None
    line = arguments_note(to_json(b.example_fix.proof))
    assert line == ("The after keeps every argument of the call and changes values only; but the example calls the "
                    "private `_tiled_wgmma_layout` only to show where the error comes from: the fix to copy is the "
                    "public `jax.experimental.mosaic.gpu.WGMMA_LAYOUT`, as the solutions say.")
    assert keep_static_notes([a], [b]) == [b]  # said once
    # no public replacement named: no label; a public call: no label
    [c] = keep_static_notes([a], [replace(a, solutions=())])
    assert c.example_fix.proof is not None and c.example_fix.proof.arguments == "kept"
    public = replace(a, example_fix=CodeSample("import jax\njax.numpy.zeros(())\n", "import jax\n", proof))
    [d] = keep_static_notes([public], [public])
    assert d.example_fix.proof is not None and d.example_fix.proof.arguments == "kept"
