"""Writes through a view: the before and after of a raise an earlier dispatch narrowed to views (parsing only).

A narrowed raise (``extract/narrowing.py``, ``analyze/narrowed.py``) is reached by an operation of an
object (``ref[...] = value``) on a view another method made (``ref.reshape(...)``): no public call with
other arguments gets there or away from it, the code's shape does.  So its example is a program: the
before does the operation on a view the maker made, the after does the maker on the value instead and
the operation on the object itself.  Both run in the proof environment as every candidate does: the
before must raise this error (its traceback resolves to the id), the after must exit 0.

The program and the values are a library's (``VIEW_FORMS``, the only one: jax's Pallas interpreter, where
a kernel's refs are written): ``program`` holds ``{write}``, the statement, with ``target`` the object
written (``o_ref``) and ``value`` what is written as is (``x_ref[...]``); ``makers`` give per method its
arguments, the value made the same way, and the value made to fit the target (``{v}`` the value, ``{o}``
the target).  The rule is general: the operation's syntax comes from its special method
(``__setitem__``: ``o[...] = v``), the makers from the call graph.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from errdex.analyze.narrowed import Narrowed

# an operation's statement, by its special method: ``{o}`` the object, ``{v}`` the value
_STATEMENT = {"__setitem__": "{o}[...] = {v}"}


@dataclass(frozen=True, slots=True)
class Maker:
    args: str  # the maker's arguments in the program ("64")
    made: str  # the value made the same way ("{v}.reshape(64)")
    fit: str  # a value made to fit the target ("{v}.reshape({o}.shape)")


@dataclass(frozen=True, slots=True)
class ViewForm:
    prefixes: tuple[str, ...]  # the site's file starts with one of these
    program: str  # format string with {write}
    target: str
    value: str
    makers: tuple[tuple[str, Maker], ...]
    label: str  # how the page says the proof ran


_PL = "jax.experimental.pallas"

VIEW_FORMS: dict[str, tuple[ViewForm, ...]] = {
    "jax": (
        ViewForm(
            prefixes=("jax/_src/state/",),
            program=("import jax\nimport jax.numpy as jnp\nimport jax.experimental.pallas\n\n\n"
                     "def kernel(x_ref, o_ref):\n    {write}\n\n\n"
                     "x = jnp.arange(64, dtype=jnp.float32).reshape(8, 8)\n"
                     f"out = {_PL}.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), "
                     "interpret=True)(x)\n"),
            target="o_ref", value="x_ref[...]",
            makers=(("reshape", Maker("64", "{v}.reshape(64)", "{v}.reshape({o}.shape)")),
                    ("bitcast", Maker("jnp.int32", "jax.lax.bitcast_convert_type({v}, jnp.int32)",
                                      "jax.lax.bitcast_convert_type({v}, {o}.dtype)"))),
            label="in a Pallas kernel run by Pallas' interpreter on a CPU"),
    ),
}


def view_form(package: str, path: str,
              table: Mapping[str, Sequence[ViewForm]] | None = None) -> ViewForm | None:
    forms = (VIEW_FORMS if table is None else table).get(package.split("[")[0].strip().lower().replace("_", "-"), ())
    return next((f for f in forms if any(path.startswith(p) for p in f.prefixes)), None)


def view_pairs(narrowed: Narrowed | None, form: ViewForm | None) -> list[tuple[str, str]]:
    """(before, after) programs, one per maker the form knows, for the first operation that is a statement."""
    if narrowed is None or form is None:
        return []
    op = next((o for o in narrowed.operations if o in _STATEMENT), None)
    if op is None:
        return []
    out: list[tuple[str, str]] = []
    for name, m in form.makers:  # in the form's order (the commoner view first)
        if name not in narrowed.makers:
            continue
        made = m.made.format(v=form.value, o=form.target)
        view = f"{form.target}.{name}({m.args})"
        before = _STATEMENT[op].format(o=view, v=made)
        after = _STATEMENT[op].format(o=form.target, v=m.fit.format(v=made, o=form.target))
        out.append((form.program.format(write=before), form.program.format(write=after)))
    return out
