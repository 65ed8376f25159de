"""An after that passes the check (prove/passes.py): its traceback runs the raising function below the site and
ends on what the library's adapter names as a thing the machine lacks (jax: a device's attribute), said on the
page with where it stopped (pagenotes.passes_note); one stopped at the site, or by another check, does not count."""

from __future__ import annotations

from errdex.model import ErrorSite, Template
from errdex.pagenotes import arguments_note, passes_note
from errdex.prove.passes import exception_name, machine_stop, parse_mark, passed_check

PATH = "jax/experimental/pallas/ops/gpu/hopper_mixed_type_matmul_mgpu.py"
SITE = ErrorSite(kind="error", exception="ValueError", exception_resolved="ValueError", templates=(Template(),),
                 path=PATH, line=66, end_line=69, qualname="mixed_matmul_kernel",
                 module="jax.experimental.pallas.ops.gpu.hopper_mixed_type_matmul_mgpu", error_id="f" * 16)
ENV = "/sandbox/lib/python3.13/site-packages/"


def _tb(line: int, src: str, last: str, func: str = "mixed_matmul_kernel") -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/tmp/x/example.py", line 5, in <module>\n'
            "    m.mixed_matmul_kernel(a, b, out_dtype=jnp.float16, config=cfg)\n"
            f'  File "{ENV}{PATH}", line {line}, in {func}\n'
            f"    {src}\n"
            "              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
            f"{last}\n")


AFTER = _tb(243, "num_sms = backend.get_default_device().core_count", "AttributeError")


def test_an_after_that_passed_the_check_and_stopped_on_the_device() -> None:
    assert passed_check(SITE, AFTER) and exception_name(AFTER) == "AttributeError"
    stop = machine_stop("jax", SITE, AFTER)
    assert stop is not None
    assert stop.needs == "a CUDA GPU (reads the device's `core_count`)"  # the kernel form's device (ops/gpu)
    assert stop.where == f"{PATH}:243"
    assert parse_mark(stop.mark()) == stop


def test_stopped_at_the_site_by_another_check_or_another_library_does_not_count() -> None:
    at_site = _tb(66, "raise ValueError(", "ValueError: Mixed matmul LHS and RHS have the same dtype float32.")
    assert not passed_check(SITE, at_site) and machine_stop("jax", SITE, at_site) is None
    other = _tb(84, "raise ValueError(", "ValueError: Matmul LHS and RHS have incompatible shapes")
    assert passed_check(SITE, other) and machine_stop("jax", SITE, other) is None  # its arguments, not the machine
    wrong_func = _tb(243, "num_sms = backend.get_default_device().core_count", "AttributeError", func="other")
    assert machine_stop("jax", SITE, wrong_func) is None
    assert machine_stop("click", SITE, AFTER) is None  # no adapter, no lacks


def test_the_page_says_it_passes_the_check_and_what_it_needs() -> None:
    stop = machine_stop("jax", SITE, AFTER)
    assert stop is not None
    note = passes_note({"passes": stop.mark()})
    assert note.startswith("The after passes this check but does not run to the end here")
    assert "it needs a CUDA GPU (reads the device's `core_count`)" in note and f"`{PATH}:243`" in note
    both = arguments_note({"passes": stop.mark(), "arguments": "kept"})
    assert both.startswith(note) and both.endswith("The after keeps every argument of the call and changes values only.")
    assert passes_note({"arguments": "kept"}) == "" and arguments_note({"arguments": "kept"}).startswith("The after keeps")
