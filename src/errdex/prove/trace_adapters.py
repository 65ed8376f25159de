"""What ``tracing.py`` needs to know about a library that traces its users' functions (one entry per library).

``keywords``: per transform (the callee's last name), keyword arguments to try, each a fix the library
documents for an error raised while tracing (jax: ``static_argnums`` makes an argument a Python value,
so ``int(x)`` works; ``holomorphic=True`` lets ``grad`` take complex inputs; ``smap``'s ``in_axes`` and
``shard_map``'s ``mesh``, which its errors ask for when there is no mesh context).  ``modules``: a module
whose functions a traced function must not call on a traced value, and the library's module of
traceable twins (``numpy`` -> ``jax.numpy``).  ``where``: the library's elementwise select, for a Python
``if`` on a traced value.  ``wrap``: the transform a function may be handed through instead of as it is
(jax: an eager ``shard_map`` of ``jax.jit(f)`` traces ``f`` once, so a ``Ref`` made inside never
escapes).  ``names``: the usual local name of a module the variant imports.

Values no edit of the script's own values produces (``mutate.py``'s value edits; each ``(module, expression
after it)``, the module imported under its usual name when the script has none): ``arrays``, what an empty
container argument becomes where the library wants an array (``vmap(f)({})`` -> ``vmap(f)(jnp.ones(2))``);
``nones``, what a ``None`` argument becomes (a dtype: ``ShapeDtypeStruct(shape=(), dtype=None)`` ->
``dtype='float32'``); ``converters``, the calls that turn a user's object into an array the library takes
(``f(masked)`` -> ``f(np.asarray(masked))``, as jax's message says).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class TraceAdapter:
    keywords: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    modules: Mapping[str, str] = field(default_factory=dict)
    where: str = ""
    wrap: str = ""
    names: Mapping[str, str] = field(default_factory=dict)
    arrays: tuple[tuple[str, str], ...] = ()
    nones: tuple[tuple[str, str], ...] = ()
    converters: tuple[tuple[str, str], ...] = ()


_GRAD = ("holomorphic=True", "allow_int=True")

TRACE_ADAPTERS: dict[str, TraceAdapter] = {
    "jax": TraceAdapter(
        keywords={"jit": ("static_argnums=0",), "pmap": ("static_broadcasted_argnums=0",),
                  "grad": _GRAD, "value_and_grad": _GRAD, "jacfwd": ("holomorphic=True",),
                  "jacrev": _GRAD,
                  # a mapped function with nothing to map it over: the axes and the mesh its message names
                  "smap": ("in_axes=0",), "shard_map": ("mesh=jax.make_mesh((1,), ('x',))",)},
        modules={"numpy": "jax.numpy", "math": "jax.numpy"},
        where="jax.numpy.where",
        wrap="jax.jit",
        names={"jax.numpy": "jnp", "numpy": "np"},
        arrays=(("jax.numpy", "ones(2)"),),
        nones=(("", "'float32'"),),
        converters=(("numpy", "asarray"), ("jax.numpy", "asarray")),
    ),
}


def trace_adapter(package: str) -> TraceAdapter | None:
    """The adapter of ``package`` (its distribution name), None for a library that traces nothing."""
    return TRACE_ADAPTERS.get(package.split("[")[0].strip().lower().replace("_", "-"))
