"""A kernel form with more than one kernel of refs (``KernelForm.bodies``) and refs by their class
(``KernelForm.typed``): jax's Mosaic GPU functions that take the MLIR values only Mosaic GPU's own kernel
(``as_gpu_kernel``) holds (``tcgen05.mma``, 5d88), beside Pallas' kernel for the calls of ``plgpu``.  On kernlib:
``lowlevel.mma`` checks that its two scales are given together, and is reached only inside ``lowlevel.build``'s
body with refs of the right classes; the search finds the call with one scale, and the after that gives the
other (the sibling's value) runs clean."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from errdex.catalog import open_catalog
from errdex.prove.kernel_forms import kernel_form, kernel_label, with_kernel
from errdex.prove.search import targets_for
from errdex.prove.search_frame import FRAME, body_forms, form_of, frame_for
from errdex.prove.search_strategies import KERNEL_MADE, adapter_values, use_made

from .test_kernel_forms import TILES, _run, _search_target, _site, indexed  # noqa: F401 (a fixture)

_LOW = ("def _kernel(_acc, _x, _scales):\n    {call}\n"
        "kernlib.lowlevel.build(_kernel, [('tile', (8, 8), 'f32'), ('operand', (8, 8), 'f8'), ('tile', (8, 1), 'e8')])")
BOTH = {"kernlib": (replace(
    TILES["kernlib"][0], imports=("kernlib", "kernlib.lowlevel"),
    bodies=((_LOW, ("_acc", "_x", "_scales"), "kernlib.lowlevel.build(_kernel", "in a kernel built by build"),),
    typed=(("kernlib.lowlevel.TileRef", ("_acc", "_scales")), ("kernlib.lowlevel.Operand", ("_x",))),
    named=(("scale", ("_scales",)),)),)}
SCALES = "Either none or both scales should be provided"


def test_a_call_naming_a_ref_is_made_in_the_kernel_whose_ref_it_is() -> None:
    frame_for({"kernel": {"form": "K({call})", "body": "B({call})", "refs": ["_tile"],
                          "bodies": [{"body": "L({call})", "refs": ["_acc", "_x"]}], "typed": {"m.Acc": ["_acc"]}}},
              {}, [])
    assert [w for w, _ in FRAME["wrappers"]] == ["{call}", "K({call})", "B({call})", "L({call})"]
    assert body_forms() == {2, 3} and FRAME["typed"] == {"m.Acc": ["_acc"]}
    assert form_of(["_tile"], 0) == 2 and form_of(["1", "_x"], 0) == 3 and form_of(["1"], 3) == 1
    assert FRAME["kernel_values"] == ["_tile"]  # the other kernel's refs are tried only by their class


def test_a_kernels_refs_by_class_are_values_of_a_parameter_annotated_with_it() -> None:
    class Acc:
        pass

    key = f"{Acc.__module__}.{Acc.__qualname__}"
    use_made({}, [], {key: ["_acc"]})
    assert adapter_values(Acc) == ["_acc"]
    use_made({}, [], {})  # the next target's kernel has none: the last target's are gone
    assert adapter_values(Acc) == [] and not KERNEL_MADE


def test_jax_mosaic_gpu_sites_have_mosaic_gpus_own_kernel_beside_pallas() -> None:
    gpu = kernel_form("jax", "jax/experimental/mosaic/gpu/tcgen05.py")
    assert gpu is not None and gpu.body and len(gpu.bodies) == 1
    body, refs, marker, label = gpu.bodies[0]
    assert "as_gpu_kernel(_kernel" in body and marker in body and "make_ir_context()" in body
    assert "scales_layout()" in body and all(r in body for r in refs)
    assert kernel_label("jax", body) == label != gpu.label and kernel_label("jax", gpu.body) == gpu.label
    assert dict(gpu.typed)["jax.experimental.mosaic.gpu.tcgen05.TMEMRef"][0] == "_acc"  # the output first
    req = with_kernel({}, "jax", "jax/experimental/mosaic/gpu/tcgen05.py")["kernel"]
    assert isinstance(req, dict) and req["bodies"][0]["refs"] == list(refs) and req["typed"]


def test_the_search_gives_the_missing_one_of_a_pair_in_the_low_level_kernel(
        indexed: tuple[Path, str], tmp_path: Path) -> None:  # noqa: F811 (the fixture)
    pkg, db = indexed
    key, site = _site(db, SCALES)
    cat = open_catalog(db)
    try:
        [target] = targets_for(cat, key, [site.error_id], "kernlib", kernels=BOTH)
    finally:
        cat.close()
    assert target.entries[0] == "kernlib.lowlevel.mma"
    got = _search_target(pkg, tmp_path, target, BOTH)
    before, afters = str(got["before"]), [str(a) for a in got["afters"]]  # type: ignore[attr-defined]
    assert "kernlib.lowlevel.build(_kernel" in before and "a_scale=_scales" in before and "b_scale" not in before, json.dumps(got, indent=1)
    r = _run(before, pkg, tmp_path)
    assert SCALES in r.stderr
    assert afters and "a_scale=_scales, b_scale=_scales" in afters[0], afters  # the sibling's value, given
    assert _run(afters[0], pkg, tmp_path).returncode == 0
    assert kernel_label("kernlib", before, BOTH) == "in a kernel built by build"
    # without the refs by class, no call gets the kernel's refs where they are wanted: no clean after
    (tmp_path / "untyped").mkdir()
    untyped = {"kernlib": (replace(BOTH["kernlib"][0], typed=()),)}
    assert not _search_target(pkg, tmp_path / "untyped", target, untyped)["afters"]


def test_a_pair_given_together_is_asked_unset_each_and_the_after_gives_the_siblings_value() -> None:
    from errdex.model import Guard
    from errdex.prove.guard_values import unset_guards
    from errdex.prove.search_pairs import supplied_options

    cond = "(is_scaled := a_scale is not None) != (b_scale is not None)"
    g = Guard(kind="if", source=cond, normalized=cond, line=3)

    class _Site:
        guards = (g,)

    assert [u for u, _ in unset_guards(_Site())] == [("a_scale", "None"), ("b_scale", "None")]  # type: ignore[arg-type]
    assert unset_guards(_Site(), pairs=False) == []  # type: ignore[arg-type]
    plan = {"supply": {"a_scale": ["_acc", "_s"], "b_scale": ["_acc", "_s"]}}
    args = [("*d", "_acc"), ("a_scale", "_s"), ("b_scale", "@omit")]
    got = [a[2] for *_, a in supplied_options(plan, None, args, "@omit")]
    assert got == [("b_scale", "_s"), ("b_scale", "_acc")]  # the sibling's value first, then the type's
