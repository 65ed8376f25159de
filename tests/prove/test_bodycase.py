"""A proof of a value the program's own function makes says that case and no more (``prove/bodycase.py``; rating
13, a28d: the page read as "float16 is unsupported", but float16 read from a ref lowers clean)."""

from __future__ import annotations

from errdex.model import Analysis, CodeSample, Proof, ProofAfter, ProofBefore, Solution
from errdex.pagenotes import SETUP_MISTAKE
from errdex.prove.bodycase import lowering_check, proven_case, scoped_solution
from errdex.prove.stored import with_change

BODY = ("import jax\nimport jax.numpy\nif True:\n    def _kernel(_o, _ref):\n"
        "        _ref[...] = jax.lax.optimization_barrier(jax.numpy.zeros((128, 128), '{dt}'))\n"
        "    jax.jit(jax.experimental.pallas.mosaic_gpu.kernel(_kernel, out_type=())).trace()"
        ".lower(lowering_platforms=('cuda',))\n")
BEFORE, AFTER = BODY.format(dt="float16"), BODY.format(dt="float32")
STATIC = ("`m.barrier` does not handle the value the message shows (`array.mlir_dtype`): pass data of a kind it "
          "supports instead, or ask for this one at https://example.org/issues.")


def test_the_kind_advice_is_narrowed_to_the_proven_case() -> None:
    text = scoped_solution(STATIC, BEFORE, AFTER)
    assert "pass data of a kind it supports" not in text
    assert ("in the case errdex proved: a value `jax.numpy.zeros` makes inside the function the program defines (its "
            "body), passed on from there; that is one case, not every value of its kind.") in text, text
    assert text.endswith(", or ask for this one at https://example.org/issues."), text
    # a value read from the body's parameter (a ref) is no such case: the advice stays
    ref = BEFORE.replace("jax.numpy.zeros((128, 128), 'float16')", "_ref[...].astype('float16')")
    assert scoped_solution(STATIC, ref, ref.replace("float16", "float32")) == STATIC


def test_prevention_says_the_proven_case_and_what_was_not_tried() -> None:
    line = proven_case(BEFORE, AFTER)
    assert line.startswith("Inside a function your program defines (a kernel body), do not pass "
                           "`jax.lax.optimization_barrier` a value `jax.numpy.zeros` makes there"), line
    assert "`_ref[...] = jax.lax.optimization_barrier(jax.numpy.zeros((128, 128), 'float16'))`" in line
    assert "`'float16'` becomes `'float32'`" in line and "says nothing of those" in line
    flat = "import m\nm.barrier(m.zeros(8, 'half'))\n"
    assert proven_case(flat, flat.replace("half", "single")) == ""


def test_a_program_lowered_on_a_cpu_names_the_lowering_as_the_check() -> None:
    check = lowering_check(BEFORE, "jax")
    assert check.startswith("What you can check before it runs: lower it in a test as the example does "
                            "(the `jax.jit(…).trace().lower(lowering_platforms=('cuda',))` statement that ends the program)"), check
    assert "traces the program and runs the CUDA lowering on a CPU, with no CUDA device" in check
    assert lowering_check("import m\nm.run()\n", "jax") == ""
    assert lowering_check(BEFORE, "click") == ""  # no kernel form of that library


def test_with_change_puts_the_three_lines_on_the_page() -> None:
    proof = Proof(before=ProofBefore(exception="NotImplementedError", error_id="a28d346fe48c1de6", output="f16"),
                  after=ProofAfter(exit=0), library="jax", version="0.10.2", python="3.13.0", date="2026-12-06")
    a = Analysis(error_id="a28d346fe48c1de6", snapshot="jax-ml/jax@jax-v0.10.2", meaning="m",
                 solutions=(Solution(text=STATIC),), example_fix=CodeSample(BEFORE, AFTER, proof))
    b = with_change(a)
    assert "pass data of a kind it supports" not in b.solutions[0].text
    assert b.prevention and b.prevention[0].startswith("Inside a function your program defines"), b.prevention
    assert b.guard_note.startswith(SETUP_MISTAKE) and "lower it in a test as the example does" in b.guard_note
    assert with_change(b) == b  # said once
