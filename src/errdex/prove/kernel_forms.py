"""Kernel forms: how the search reaches a raise that runs only inside a kernel of another platform.

A library that compiles kernels for accelerators keeps some checks in code that runs only while a
kernel is lowered for its platform (jax: Pallas' Mosaic TPU and SparseCore lowering rules, Mosaic GPU,
Triton) or interpreted (Pallas' interpreter).  No CPU test reaches them, and a public call made as
written never gets there: ``jax.lax.rev`` raises ``Invalid dimensions for SC lax.rev`` only as a step of
a SparseCore kernel.  But lowering needs no hardware: jax lowers a function for another platform on a
CPU (``jax.jit(f).trace(...).lower(lowering_platforms=('tpu',))``) and runs that platform's lowering
rules there, which is where these checks are.  So a site in such code is searched with its public
call placed in a kernel body and the kernel lowered (or interpreted) as that platform would: the
before raises at the site, the after is the same program with one argument changed and lowers clean.

A ``KernelForm`` says which sites it is for (path prefixes of the site's file, relative to the
distribution's root), the program (a format string with ``{call}``: the search's call, used where the
kernel computes a value), and how the page says it ran (``label``: "lowered for TPU on a CPU");
``marker`` is a piece of the program's text by which a proof's before is known to use the form;
``values`` are values of the platform's own shapes, tried first for the call's arguments (a SparseCore
kernel computes on vectors of its lane width, which the adapter's everyday arrays are not).  The
library knowledge is the adapter's (``KERNEL_FORMS``, the only one: jax); the rule is general: a site
reached only under a platform's lowering is searched in that platform's lowering.

Some checks are reached only by a kernel's operations on its *refs*: a buffer of one of the platform's
memory spaces, which exists only inside a kernel body (Mosaic GPU's tensor memory: ``plgpu.async_load_tmem(
tmem.at[0])`` raises ``TMEM can only be sliced, not indexed`` while lowered, ``tmem.at[:, 0:64]`` lowers
clean).  The raising function's own public name (``TMEMRef.slice``) takes objects only the lowering makes,
so the search cannot build its arguments.  A form's ``body`` is then a second program: a kernel whose
parameters are scratch refs of the platform's memory spaces (``_tmem``, ``_smem``), with ``{call}`` a
statement of its body; ``refs`` are the values built from them (each ref whole, indexed with an int,
sliced), tried first for a parameter no guard names, so that one search tries the int index and its
slice; ``body_marker`` marks a before that uses it.  ``entries`` are the public modules whose calls a
kernel body makes (``jax.experimental.pallas.mosaic_gpu.``): the search also tries the public calls of
those modules that reach the site through the call graph past its own public name
(``analyze/public_path.entries_under``: ``async_load_tmem`` -> ``load_tmem_p`` -> its lowering rule ->
``TMEMRef.slice``).

A platform may have more than one kind of kernel whose body holds refs (``bodies``): Mosaic GPU's own functions
(``tcgen05.mma(d, a, b, a_scale=, b_scale=)``) take MLIR values and tensor-memory refs that only Mosaic GPU's own
kernel (``as_gpu_kernel``, built on a CPU in an MLIR context) holds, not Pallas' refs.  A call naming one of a
body's refs is made in that body; ``typed`` gives those refs by their class, tried for a parameter annotated with
it (5d88).

Parsing only: nothing here imports the library.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class KernelForm:
    prefixes: tuple[str, ...]  # the site's file starts with one of these (the longest match wins)
    form: str  # the program, a format string with {call}
    label: str  # how the page says the proof ran: "lowered for TPU on a CPU"
    marker: str  # text of ``form`` a proof's before contains when it uses it
    imports: tuple[str, ...] = ()  # modules the program names beside the search adapter's
    values: tuple[str, ...] = ()  # values a kernel of the platform takes, tried first (a vector of its width)
    body: str = ""  # a kernel whose parameters are scratch refs, {call} a statement of its body
    refs: tuple[str, ...] = ()  # values built from those refs (whole, indexed, sliced), tried first
    body_marker: str = ""  # text of ``body`` a proof's before contains when it uses it
    entries: tuple[str, ...] = ()  # public modules (dotted, with the dot) whose calls a kernel body makes
    named: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (parameter name suffix, values the form gives it first)
    device: str = ""  # the device its kernels run on, as a page names it ("a CUDA GPU"; ``passes.py``)
    # more kernels whose parameters are refs: (body, its refs' names, marker, label), a call naming one of its refs
    # made there; and the values of a class its refs are, tried for a parameter annotated with the class
    bodies: tuple[tuple[str, tuple[str, ...], str, str], ...] = ()
    typed: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (class qualified name, refs of ``bodies`` of that class)


# jax: the shape of the kernel's result is the call's own (``jax.eval_shape`` of it, outside the kernel);
# the kernel stores the call's value in a buffer of that shape, so the value is used and its lowering
# runs.  TPU lowering reads the chip's facts from the device; on a CPU an abstract device says which.
_OUT = "_out = jax.eval_shape(lambda: {call})\n"
_TPU = ("with jax.sharding.use_abstract_mesh(jax.sharding.AbstractMesh((), (), abstract_device="
        "jax.sharding.AbstractDevice('TPU v5p', 2, 'tpu'))):\n")
_BODY = "    def _kernel(_ref):\n        _ref[...] = {call}\n"
_PL = "jax.experimental.pallas"
_GPU = f"{_PL}.mosaic_gpu"
# a Mosaic GPU kernel whose scratch refs are one buffer of each memory space a kernel's operations take (tensor
# memory, shared memory in a 16-bit and an 8-bit dtype, a barrier the tensor core signals); its output unused
_GPU_BODY = (
    "if True:\n    def _kernel(_out, _tmem, _smem, _smem8, _barrier):\n        {call}\n\n"
    f"    jax.jit({_GPU}.kernel(_kernel, out_type=jax.ShapeDtypeStruct((128, 128), 'float32'), scratch_types=["
    f"{_GPU}.TMEM((128, 128), 'float32'), {_GPU}.SMEM((128, 128), 'float16'), {_GPU}.SMEM((128, 128), 'int8'), "
    f"{_GPU}.Barrier(orders_tensor_core=True)])).trace().lower(lowering_platforms=('cuda',))")

# Mosaic GPU's own kernel (``mgpu.as_gpu_kernel``), for its functions that take the MLIR values and tensor-memory
# refs only such a kernel's body holds (``tcgen05.mma(d, a, b, a_scale=, b_scale=)``): built on a CPU in an MLIR
# context (the kernel's module is made and verified, not compiled), its scratch made as jax's own tests make a
# block-scaled MMA's (tests/mosaic/gpu_test.py, ``test_mma_block_scaled_basic``): an f32 accumulator in tensor
# memory, one 128x128 float8 operand in shared memory tiled (8, 128), and its scales in tensor memory in
# ``tcgen05.scales_layout()`` (one per 32 of the 128 columns)
_MGPU = "jax.experimental.mosaic.gpu"
_MGPU_BODY = (
    "if True:\n    def _kernel(_ctx, _in, _result, _scratch):\n        _acc, _x, _scales = _scratch\n        {call}\n\n"
    "    with jax.interpreters.mlir.make_ir_context(), jax.interpreters.mlir.ir.Location.unknown():\n"
    f"        {_MGPU}.as_gpu_kernel(_kernel, (1, 1, 1), (128, 1, 1), jax.ShapeDtypeStruct((128,), 'float32'), "
    f"jax.ShapeDtypeStruct((128,), 'float32'), [{_MGPU}.TMEM((128, 128), 'float32'), "
    "jax.ShapeDtypeStruct((16, 1, 8, 128), 'float8_e5m2'), "
    f"{_MGPU}.TMEM((128, 4), 'float8_e8m0fnu', layout={_MGPU}.tcgen05.scales_layout())])")

KERNEL_FORMS: dict[str, tuple[KernelForm, ...]] = {
    "jax": (
        KernelForm(
            prefixes=("jax/_src/pallas/hlo_interpreter.py",),
            form=_OUT + "if True:\n" + _BODY
            + f"    {_PL}.pallas_call(_kernel, out_shape=_out, interpret=True)()",
            label="in a Pallas kernel run by Pallas' interpreter on a CPU", marker="interpret=True)()",
            imports=(_PL,)),
        KernelForm(
            prefixes=("jax/_src/pallas/mosaic/sc_",),
            form=_OUT + _TPU + _BODY
            + f"    jax.jit({_PL}.kernel(_kernel, out_type=(), mesh={_PL}.tpu_sc.VectorSubcoreMesh("
              "core_axis_name='c', subcore_axis_name='s'), scratch_types=["
              f"{_PL}.tpu.VMEM(_out.shape, _out.dtype)])).trace().lower(lowering_platforms=('tpu',))",
            label="in a SparseCore kernel lowered for TPU on a CPU", marker="tpu_sc.VectorSubcoreMesh(",
            imports=(_PL, f"{_PL}.tpu", f"{_PL}.tpu_sc"),
            # a SparseCore kernel computes on vectors of its lanes: 8 on the abstract device's chip (TPU v5p)
            values=("jax.numpy.zeros((8,), 'float32')", "jax.numpy.zeros((8,), 'int32')")),
        KernelForm(
            prefixes=("jax/_src/pallas/mosaic/", "jax/_src/tpu_custom_call.py"),
            form=_OUT + _TPU + _BODY
            + f"    jax.jit({_PL}.pallas_call(_kernel, out_shape=_out)).trace()"
              ".lower(lowering_platforms=('tpu',))",
            label="in a Pallas kernel lowered for TPU on a CPU", marker="lowering_platforms=('tpu',)",
            imports=(_PL,)),
        KernelForm(
            prefixes=("jax/_src/pallas/mosaic_gpu/", "jax/experimental/mosaic/gpu/"),
            # the kernel has an output (unwritten): ``jax.jit`` drops a kernel with none, and its lowering never runs
            form=_OUT + "if True:\n" + _BODY.replace("(_ref)", "(_o, _ref)")
            + f"    jax.jit({_GPU}.kernel(_kernel, out_type=jax.ShapeDtypeStruct((128,), 'float32'), scratch_types=["
              f"{_GPU}.SMEM(_out.shape, _out.dtype)])).trace().lower(lowering_platforms=('cuda',))",
            label="in a Mosaic GPU kernel lowered for CUDA on a CPU", marker="mosaic_gpu.kernel(_kernel", device="a CUDA GPU",
            imports=(_PL, f"{_PL}.mosaic_gpu", _MGPU, f"{_MGPU}.tcgen05", "jax.interpreters.mlir"),
            bodies=((_MGPU_BODY, ("_acc", "_x", "_scales"), f"{_MGPU}.as_gpu_kernel(_kernel",
                     "in a Mosaic GPU kernel built by `as_gpu_kernel` on a CPU"),),
            # the refs by their class (the accumulator first: a call's first tensor-memory argument is its output)
            typed=((f"{_MGPU}.tcgen05.TMEMRef", ("_acc", "_scales")),
                   ("jaxlib.mlir._mlir_libs._mlir.ir.Value", ("_x",))),
            body=_GPU_BODY, body_marker="def _kernel(_out, _tmem,", entries=(f"{_GPU}.", "jax.lax."),
            # a kernel computes on tiles of 128 rows, in 16- and 32-bit dtypes (a register holds two 16-bit values)
            values=("jax.numpy.zeros((128, 128), 'float16')", "jax.numpy.zeros((128, 128), 'float32')"),
            # each ref sliced (every axis a slice: what a kernel's operations take), whole, then indexed with an int
            refs=("_tmem.at[:, 0:64]", "_tmem", "_tmem.at[0]", "_smem.at[:, 0:64]", "_smem", "_smem.at[0]",
                  "_smem8", "_barrier"),
            # a block-scaled operation's scales (``a_scale``, ``b_scale``): the kernel's scales ref first
            named=(("scale", ("_scales",)),)),
        KernelForm(
            # the GPU kernels jax ships (``pallas.ops.gpu``): each function builds and calls its own Mosaic GPU kernel,
            # and a collective one reads its mesh axis (``lax.axis_size(axis_name)``): called under ``shard_map``
            # over an abstract mesh of 2 devices (no device needed), lowered for CUDA
            prefixes=("jax/experimental/pallas/ops/gpu/",),
            form="with jax.sharding.use_abstract_mesh(jax.sharding.AbstractMesh((2,), ('x',))):\n"
                 "    jax.jit(jax.shard_map(lambda: {call}, mesh=jax.sharding.get_abstract_mesh(), in_specs=(), "
                 "out_specs=jax.sharding.PartitionSpec(), check_vma=False)).trace().lower(lowering_platforms=('cuda',))",
            label="under shard_map over an abstract mesh of 2 devices, lowered for CUDA on a CPU",
            marker="jax.shard_map(lambda: ", named=(("axis_name", ("'x'",)),), device="a CUDA GPU",
            # a tile of 128 columns, its rows split over the mesh's 2 devices
            values=("jax.numpy.zeros((8, 128), 'float32')",)),
        KernelForm(
            prefixes=("jax/_src/pallas/triton/",),
            form=_OUT + "if True:\n" + _BODY
            + f"    jax.jit({_PL}.pallas_call(_kernel, out_shape=_out, compiler_params="
              f"{_PL}.triton.CompilerParams())).trace().lower(lowering_platforms=('cuda',))",
            label="in a Triton kernel lowered for CUDA on a CPU", marker="triton.CompilerParams()", device="a CUDA GPU",
            imports=(_PL, f"{_PL}.triton")),
    ),
}


def _forms(package: str, table: Mapping[str, Sequence[KernelForm]] | None = None) -> Sequence[KernelForm]:
    return (KERNEL_FORMS if table is None else table).get(package.split("[")[0].strip().lower().replace("_", "-"), ())


def kernel_form(package: str, path: str,
                table: Mapping[str, Sequence[KernelForm]] | None = None) -> KernelForm | None:
    """The kernel form of a site of ``package`` in file ``path`` (the longest matching prefix), or None."""
    best: tuple[int, KernelForm] | None = None
    for k in _forms(package, table):
        for p in k.prefixes:
            if path.startswith(p) and (best is None or len(p) > best[0]):
                best = (len(p), k)
    return best[1] if best else None


def kernel_label(package: str, before: str,
                 table: Mapping[str, Sequence[KernelForm]] | None = None) -> str:
    """How the page says a proof whose before is ``before`` ran: its kernel form's label, or ""."""
    for k in _forms(package, table):
        label = next((lb for _, _, mark, lb in k.bodies if mark and mark in before), "")
        if label or k.marker in before or (k.body_marker and k.body_marker in before):
            return label or k.label
    return ""


def with_kernel(request: dict[str, object], package: str, path: str,
                table: Mapping[str, Sequence[KernelForm]] | None = None) -> dict[str, object]:
    """A search target's request (``SearchTarget.request``) with the kernel form of its site, if any."""
    k = kernel_form(package, path, table)
    return request if k is None else {**request, "kernel": {"form": k.form, "imports": list(k.imports),
                                                                   "values": list(k.values), "body": k.body,
                                                                   "refs": list(k.refs),
                                                                   "named": {n: list(v) for n, v in k.named},
                                                                   "bodies": [{"body": b, "refs": list(r)}
                                                                              for b, r, _, _ in k.bodies],
                                                                   "typed": {c: list(v) for c, v in k.typed}}}


def kernel_entries(package: str, path: str,
                   table: Mapping[str, Sequence[KernelForm]] | None = None) -> tuple[str, ...]:
    """The public modules whose calls a kernel body of the site's platform makes (its form's ``entries``)."""
    k = kernel_form(package, path, table)
    return k.entries if k is not None and k.body else ()
