"""A before that asks the call to do nothing is no example (``prove/noop.py``; rating 12, 5931: the search's before
reversed an ``(8,)`` array over no axes, ``lax.rev(x, dimensions=[])``, which returns ``x``)."""

from __future__ import annotations

from errdex.documents import shown_example
from errdex.model import Analysis, CodeSample, Proof, ProofAfter, ProofBefore, Solution
from errdex.prove.noop import no_op, no_op_before, selectors_of
from errdex.prove.stored import with_change

REV = ("import jax\nimport jax.numpy\n_out = jax.eval_shape(lambda: jax.lax.rev(operand=jax.numpy.zeros((8,)), "
       "dimensions={d}))\n")


def test_an_empty_selection_is_a_call_that_does_nothing() -> None:
    jax = selectors_of("jax")
    assert "dimensions" in jax and "axes" in jax
    assert no_op(REV.format(d="[]"), jax) == "`dimensions=[]`"
    assert no_op(REV.format(d="()"), jax) == "`dimensions=()`"
    # a selection of something, or a library without the adapter's selectors: an example
    assert no_op(REV.format(d="(0,)"), jax) == "" and no_op(REV.format(d="[]"), ()) == ""
    assert selectors_of("click") == ()
    # an empty value of another parameter is a value like any other (``click.Choice([])`` is the user's mistake)
    assert no_op("import j\nj.f(choices=[])\n", jax) == ""
    assert no_op_before(REV.format(d="[]"), "jax-ml/jax@jax-v0.10.2") == "`dimensions=[]`"
    assert no_op("def (:\n", jax) == ""


def _analysis(before: str, after: str) -> Analysis:
    proof = Proof(ProofBefore("NotImplementedError", "59318410719c94fc", "x"), ProofAfter(0, ""), "jax", "0.10.2", "3.13",
                  "2026-12-06", "search", clean_with=(after.replace("(0,)", "[0]"),))
    return Analysis(error_id="59318410719c94fc", snapshot="jax-ml/jax@jax-v0.10.2", meaning="m",
                    solutions=(Solution(text="Make sure that `dimensions` equals `(0,)` when you call `jax.lax.rev`."),),
                    example_fix=CodeSample(before, after, proof))


def test_a_stored_no_op_example_is_not_shown_and_still_words_the_check() -> None:
    a = with_change(_analysis(REV.format(d="[]"), REV.format(d="(0,)")))
    texts = [s.text for s in a.solutions]
    # no "The proven example below ..." over an example the page does not show; the run still says `[0]` passes
    assert not any(t.startswith("The proven example") for t in texts)
    assert "`dimensions` is `(0,)` or `[0]`" in texts[0]
    shown, note = shown_example({"snapshot": a.snapshot, "example_fix": {"before": a.example_fix.before,
                                                                         "after": a.example_fix.after, "proof": {"x": 1}}})
    assert shown["example_fix"]["proof"] is None and shown["example_fix"]["before"] == ""
    assert note.startswith("No example is shown: the only failing call errdex proved passes `dimensions=[]`")
    # one that does something is shown, and explained
    b = with_change(_analysis(REV.format(d="(1,)"), REV.format(d="(0,)")))
    assert any(s.text.startswith("The proven example") for s in b.solutions)
    fix = {"before": REV.format(d="(1,)"), "after": REV.format(d="(0,)"), "proof": {"x": 1}}
    assert shown_example({"snapshot": b.snapshot, "example_fix": fix}) == ({"snapshot": b.snapshot, "example_fix": fix}, "")
