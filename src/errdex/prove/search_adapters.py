"""What the argument search (``search_script.py``) needs to know about a library whose calls take its own
values (one entry per library; the only one: jax).  Parsing only: nothing here imports the library.

``imports``: modules the values below need.  ``values``: sources of the library's everyday values, tried
for an argument whose type hint the search cannot build (jax: arrays of a few shapes and dtypes, a
scalar).  ``array``: how to build an array of a shape and dtype, for an argument the guards read the
shape or dtype of (``len(x.shape) == 0``, ``a.dtype == b.dtype``: ``guard_values.shaped``), with
``dims`` the sizes of a dimension to draw from, first the one Hypothesis shrinks towards (at most
2**22 elements: larger shapes have their sizes cut to 8), and ``dtypes`` the dtype names beside the
guard's own.
``forms``: other ways the call is made (jax: traced only, ``jax.eval_shape``: the checks that run while
tracing run, no kernel is compiled or run, so a kernel for another platform gets as far as its Python
checks; and under ``jax.jit``, compiled for this machine: a primitive's lowering rule runs).
``callables``: functions to hand to a parameter that takes one, beside ``lambda *a, **k: None`` (jax:
one that reads its first argument, as a kernel body reads its ref).  ``option``: the statement that turns on an option a guard reads
(``guard_values.options``: ``config.no_tracing.value`` -> ``no_tracing``), and off again.  ``named``:
values first tried for a parameter whose name ends so (jax: ``dtype``, ``operand_dtype``: a dtype).
``selectors``: parameters an empty tuple or list of which makes the call do nothing (``noop.py``).
``made``: values of a class the library's top level does not export, by the class's qualified name (jax: a
kernel's ``Mesh``, a protocol, built as Mosaic GPU's, which a CPU constructs): (class, module, source).
``lacks``: what a call that passed a check stops on because the machine lacks it (``search_climb.py``, ``passes.py``).
``slices``: how to write the same call along another axis when a check accepts one axis only (``axis_slices.py``):
the wanted axis moved to the accepted one and back, the call applied per slice and the slices stacked, an array of
distinct values of a shape and dtype, and the test that two results hold the same values.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AxisForms:
    """Format strings (source text) for ``axis_slices.py``: ``move`` ({x}, {source}, {destination}); ``per_slice``
    ({call} of one slice named ``_s``, {x}, {axis}); ``distinct`` ({size}, {shape}, {dtype}: the array's elements
    0, 1, 2, ...); ``same`` ({a}, {b}: true when they hold the same values)."""

    move: str
    per_slice: str
    distinct: str
    same: str


@dataclass(frozen=True, slots=True)
class SearchAdapter:
    imports: tuple[str, ...] = ()
    values: tuple[str, ...] = ()
    array: str = ""  # format string with {shape} and {dtype} (source text of each)
    dims: tuple[int, ...] = (1, 2, 3)
    dtypes: tuple[str, ...] = ()
    forms: tuple[str, ...] = ()  # format strings with {call}
    callables: tuple[str, ...] = ()
    option: str = ""  # format string with {name}
    option_off: str = ""  # the search runs its calls in one process: turns the option off after each
    named: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (parameter name suffix, values first tried for it)
    call_timeout_s: float = 1.0  # one call of the search (jax compiles what it runs: slower than 1 s under load)
    # parameters that select what the call works on: an empty tuple or list selects nothing, and the call returns its
    # input unchanged: a before that passes one is no example (``noop.py``)
    selectors: tuple[str, ...] = ()
    # what a call that passed a check can stop on because this machine lacks it, not because of its arguments
    # (docs/prove.md, "Passes the check"): (exception class name, regex over its raising line, what it needs, a
    # format string with the regex's groups and {device}, the kernel form's device: "a CUDA GPU")
    lacks: tuple[tuple[str, str, str], ...] = ()
    made: tuple[tuple[str, str, str], ...] = ()
    slices: AxisForms | None = None

    def request(self) -> dict[str, object]:
        return {"lacks": [list(x) for x in self.lacks], "made": [list(x) for x in self.made], "call_timeout_s": self.call_timeout_s, "imports": list(self.imports), "values": list(self.values), "array": self.array,
                "dims": list(self.dims), "dtypes": list(self.dtypes), "forms": list(self.forms),
                "callables": list(self.callables), "option": self.option,
                "option_off": self.option_off, "named": {k: list(v) for k, v in self.named}}


_JNP = "jax.numpy"

SEARCH_ADAPTERS: dict[str, SearchAdapter] = {
    "jax": SearchAdapter(
        imports=("jax", "jax.numpy", "jax.experimental.pallas.tpu"),
        values=(f"{_JNP}.float32(1.0)", f"{_JNP}.zeros((4,))", f"{_JNP}.zeros((2, 4))", f"{_JNP}.zeros((4,), 'int32')",
                f"{_JNP}.zeros((8, 128))", f"{_JNP}.float32", f"{_JNP}.int8", f"{_JNP}.float16",
                f"jax.experimental.pallas.tpu.VMEM((8,), {_JNP}.float32)"),  # a scratch buffer of a kernel
        array=f"{_JNP}.zeros({{shape}}, {{dtype}})",
        # the tile sizes TPU and GPU kernels ask of a dimension first (a shrunk example keeps them, and
        # an after that changes one size is then a shape a kernel takes), then small and odd ones
        dims=(128, 32, 8, 2, 1, 3),
        dtypes=("'float32'", "'int32'", "'float16'", "'int8'"),
        forms=("jax.eval_shape(lambda: {call})", "jax.jit(lambda: {call})()"),
        callables=("lambda *a, **k: a[0][...]",),
        option="jax.config.update('jax_{name}', True)",
        option_off="jax.config.update('jax_{name}', False)",
        named=(("dtype", (f"{_JNP}.float16", f"{_JNP}.float32", f"{_JNP}.int8")),),
        call_timeout_s=5.0,
        selectors=("dimensions", "axes", "axis", "dims"),  # ``lax.rev(x, dimensions=())``, ``jnp.flip(x, axis=())``
        # an attribute a CPU device has not: ``backend.get_default_device().core_count``, ``jax.devices()[0].x``
        lacks=(("AttributeError", r"device\w*\([^)]*\)(?:\[\d+\])?\.(?P<attr>\w+)",
                "{device} (reads the device's `{attr}`)"),),
        # a kernel's mesh (``pl.kernel(..., mesh=)``): the Mosaic GPU one builds on any machine
        made=(("jax._src.pallas.core.Mesh", "jax.experimental.pallas.mosaic_gpu",
               "jax.experimental.pallas.mosaic_gpu.Mesh()"),),
        slices=AxisForms(move=f"{_JNP}.moveaxis({{x}}, {{source}}, {{destination}})",
                         per_slice=f"{_JNP}.stack([{{call}} for _s in {_JNP}.unstack({{x}}, axis={{axis}})], axis={{axis}})",
                         distinct=f"{_JNP}.arange({{size}}, dtype={{dtype}}).reshape({{shape}})",
                         same=f"bool({_JNP}.array_equal({{a}}, {{b}}))"),
    ),
}


def search_adapter(package: str) -> SearchAdapter | None:
    """The adapter of ``package`` (its distribution name); None for a library that needs none."""
    return SEARCH_ADAPTERS.get(package.split("[")[0].strip().lower().replace("_", "-"))


# how a library writes text to a standard stream, the fallback a validate sample of a raise on the stream's binary
# layer takes where there is none (``streams.stream_checked``; rating 13, ad70): {text} and {err} (True for stderr)
TEXT_WRITERS: dict[str, str] = {"click": "click.echo({text}, err={err})"}


def text_writer(package: str, stream: str, text: str) -> str:
    """The statement that writes ``text`` (source) to ``stream`` as text: the library's own writer, else ``print``
    (which writes nothing where the stream is None, as under pythonw)."""
    form = TEXT_WRITERS.get(package.split(".", 1)[0])
    if form and stream in ("sys.stdout", "sys.stderr"):
        return form.format(text=text, err=stream == "sys.stderr")
    return f"print({text}, file={stream})"

