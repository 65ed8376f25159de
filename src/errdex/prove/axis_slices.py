"""A check that accepts one axis only: the same result along another axis (rating 15, 5931).

Some checks accept a single value of the parameter that says which axis the call works on: jax's SparseCore
lowering of ``lax.rev`` raises ``Invalid dimensions for SC lax.rev`` unless ``dimensions == (0,)``.  The search
reaches the raise most simply with a 1-D array and ``dimensions=[]`` (a reversal over no axis: no example,
``noop.py``).  The call a user writes is another one: a 2-D array reversed along axis 1, or ``x[:, ::-1]``.  Its fix
keeps the result and gets there along the accepted axis.  From the search's call and the guard (``NAME != VALUE``
raising: VALUE, one int or a tuple of one, 0 or -1, is the only one accepted), this module builds:

- the before: the same call on an array of one more dimension (the 1-D array's size kept: a kernel's vector width),
  asking for the other axis (``dimensions=(1,)`` on a ``(2, 8)`` array);
- afters that ask for the same result: the wanted axis moved to the accepted position, the call made there, and the
  axis moved back (the adapter's ``move``: ``jnp.moveaxis``); and the call made on each slice, whose only axis is
  the wanted one, with the accepted value, the results stacked (``per_slice``: ``jnp.unstack`` / ``jnp.stack``);
- for each after, a check program: the before's call and the after's expression on an array of distinct values of
  the same shape and dtype (``distinct``: ``jnp.arange``), made as plain calls on this machine (no kernel), and
  ``same`` asserted: the after keeps the result's values.

An after counts only when its program runs clean where the before raised and its check program passes
(``search.confirm_axis``); the afters that did not run are named on the page.  The library knowledge is the
adapter's (``SearchAdapter.slices``); parsing only here.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from errdex.model import Guard
from errdex.pagenotes import KEPT_AXIS
from errdex.prove.keep import _others
from errdex.prove.search_adapters import AxisForms


@dataclass(frozen=True, slots=True)
class AxisPair:
    before: str
    afters: tuple[str, ...]  # the moved-axis after, then the per-slice one
    checks: tuple[str, ...]  # one per after: exits 0 when the after's values are the before's call's
    hows: tuple[str, ...]  # one per after: "moved" or "per slice"
    selector: str
    wanted: int
    accepted: int
    spelt: tuple[str, str] = ("", "")  # the selector's value asking for the wanted axis, and the accepted one
    distinct: str = ""  # the array of distinct values the check programs use

    def respelt(self, after: str) -> list[str]:
        """``after`` with the accepted value spelt the other ways a user writes it (``keep._others``: ``[0]``)."""
        said = f"{self.selector}={self.spelt[1]}"
        return [after.replace(said, f"{self.selector}={alt}")
                for alt in _others(ast.parse(self.spelt[1], mode="eval").body) if said in after]


def accepted_value(guards: Sequence[Guard], selectors: Sequence[str]) -> tuple[str, object] | None:
    """(selector, the only value it is accepted with) when a raising guard reads ``SEL != VALUE`` (or ``VALUE != SEL``,
    or ``SEL == VALUE`` negated), VALUE an int 0 or -1 or a tuple of one of them; else None."""
    for g in guards:
        try:
            node = ast.parse(g.source.strip(), mode="eval").body
        except SyntaxError:
            continue
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
            continue
        if not ((isinstance(node.ops[0], ast.NotEq) and not g.negated) or (isinstance(node.ops[0], ast.Eq) and g.negated)):
            continue
        for name, lit in ((node.left, node.comparators[0]), (node.comparators[0], node.left)):
            if isinstance(name, ast.Name) and name.id in selectors:
                try:
                    value = ast.literal_eval(lit)
                except ValueError:
                    continue
                axis = value[0] if isinstance(value, tuple) and len(value) == 1 else value
                if type(axis) is int and axis in (0, -1):
                    return name.id, value
    return None


def _shape_of(node: ast.expr) -> tuple[int, str] | None:
    """(size, dtype source) of a 1-D array made as ``maker((n,), dtype)`` or ``maker((n,))``."""
    if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Tuple)):
        return None
    elts = node.args[0].elts
    if len(elts) != 1 or not (isinstance(elts[0], ast.Constant) and type(elts[0].value) is int):
        return None
    dtype = (ast.unparse(node.args[1]) if len(node.args) > 1 else
             next((ast.unparse(k.value) for k in node.keywords if k.arg == "dtype"), "None"))
    return elts[0].value, dtype


def _spelt(value: object, axis: int) -> str:
    return f"({axis},)" if isinstance(value, tuple) else str(axis)


def _imports(program: str) -> str:
    return "".join(ln + "\n" for ln in program.splitlines() if ln.startswith(("import ", "from ")))


def _vector(source: str) -> ast.expr | None:
    try:
        node = ast.parse(source, mode="eval").body
    except SyntaxError:
        return None
    return node if _shape_of(node) else None


def axis_pairs(program: str, guards: Sequence[Guard], selectors: Sequence[str], forms: AxisForms | None,
               vectors: Sequence[str] = ()) -> list[AxisPair]:
    """The before along another axis and its afters (module doc), from the search's ``program``; [] when the guard
    accepts no single axis, or no call in the program passes that selector beside another argument.  The call's
    1-D array (``maker((n,), dtype)``) is the one given another dimension; a call that passes none (the search's
    ``operand=0``) is given the first 1-D array of ``vectors`` (the kernel form's values: its vector width)."""
    acc = accepted_value(guards, selectors)
    if acc is None or forms is None:
        return []
    selector, value = acc
    accepted = value[0] if isinstance(value, tuple) else value
    assert isinstance(accepted, int)
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return []
    out: list[AxisPair] = []
    seen: set[str] = set()
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        if not any(k.arg == selector for k in call.keywords):
            continue
        old = ast.get_source_segment(program, call)
        others = [(i, k.value) for i, k in enumerate(call.keywords) if k.arg != selector]
        # the call's 1-D array, else its first other argument given the first 1-D array of ``vectors``
        fills = [v for v in (_vector(t) for t in vectors) if v is not None]
        arrays = [(i, v) for i, v in others if _shape_of(v)] or [(i, fills[0]) for i, _ in others[:1] if fills]
        if not old or old in seen or not arrays:
            continue
        seen.add(old)
        i, x = arrays[0]
        size, dtype = _shape_of(x) or (0, "None")
        shape = (2, size) if accepted == 0 else (size, 2)
        wanted, other = (1, 0) if accepted == 0 else (0, 1)
        x = ast.parse(ast.unparse(x), mode="eval").body
        assert isinstance(x, ast.Call)
        x.args[0] = ast.Tuple([ast.Constant(n) for n in shape], ast.Load())
        x_src = ast.unparse(x)

        def expressions(x_text: str, c: ast.Call = call, i: int = i, wanted: int = wanted, other: int = other
                        ) -> tuple[str, list[tuple[str, str]]]:
            moved = forms.move.format(
                x=_made(c, i, selector, _spelt(value, accepted),
                        forms.move.format(x=x_text, source=wanted, destination=accepted)),
                source=accepted, destination=wanted)
            sliced = forms.per_slice.format(call=_made(c, i, selector, _spelt(value, accepted), "_s"), x=x_text,
                                            axis=other)
            return _made(c, i, selector, _spelt(value, wanted), x_text), [("moved", moved), ("per slice", sliced)]

        before_call, afters = expressions(x_src)
        distinct = forms.distinct.format(size=shape[0] * shape[1], shape=shape, dtype=dtype)
        d_before, d_afters = expressions(distinct)
        head = _imports(program)
        module = ast.unparse(x.func).rpartition(".")[0]  # the array maker's module, imported when the program does not
        lead = f"import {module}\n" if module and f"import {module}\n" not in head else ""
        text = program
        if lead:
            head = head + lead
            last = max((j for j, ln in enumerate(program.splitlines()) if ln.startswith(("import ", "from "))),
                       default=-1)
            lines = program.splitlines(keepends=True)
            text = "".join([*lines[:last + 1], lead, *lines[last + 1:]])
        checks = tuple(f"{head}assert {forms.same.format(a=d_before, b=a)}, 'not the same values'\n"
                       f"print({a})\n" for _, a in d_afters)
        out.append(AxisPair(before=text.replace(old, before_call),
                            afters=tuple(text.replace(old, a) for _, a in afters), checks=checks,
                            hows=tuple(h for h, _ in afters), selector=selector, wanted=wanted, accepted=accepted,
                            spelt=(_spelt(value, wanted), _spelt(value, accepted)), distinct=distinct))
    return out


def _made(call: ast.Call, i: int, selector: str, spelt: str, operand: str) -> str:
    """``call`` with its ``i``-th keyword given ``operand`` and ``selector`` given ``spelt`` (source texts)."""
    c2 = ast.parse(ast.unparse(call), mode="eval").body
    assert isinstance(c2, ast.Call)
    c2.keywords[i].value = ast.parse(operand, mode="eval").body
    for k in c2.keywords:
        if k.arg == selector:
            k.value = ast.parse(spelt, mode="eval").body
    return ast.unparse(c2)


def axis_mark(pair: AxisPair, how: str, not_run: Sequence[tuple[str, str]]) -> str:
    """The proof's arguments mark: the selector, its wanted and accepted values, how the after gets there, the afters
    that did not run ("moved: NotImplementedError: ..."), and the array of distinct values the values were checked on."""
    skipped = "; ".join(f"{h}: {why}" for h, why in not_run)
    return f"{KEPT_AXIS}{pair.selector} | {pair.spelt[0]} | {pair.spelt[1]} | {how} | {skipped} | {pair.distinct}"
