"""A check the page states that its own proven failing call satisfies is wrong: drop it.

The static rules read a guard in the raising function and say what must hold for the call not to raise
("`collective_axes` is false or empty").  When the public call normalises the argument before the guard
sees it (jax's ``run_scoped`` turns ``collective_axes=None`` into ``(None,)``, which is true), that check
passes the very call the proven example shows raising.  Parsing only: the proven ``before``'s keyword
arguments are read as literals and tested against the stated check.
"""

from __future__ import annotations

import ast
import dataclasses
import re

from errdex.model import Analysis

_FALSY = re.compile(r"`(\w+)` is false or empty")


def _keywords(code: str) -> dict[str, object]:
    """Every keyword argument of the code's calls whose value is a literal: name -> value."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return {}
    out: dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg is None:
                    continue
                try:
                    out[kw.arg] = ast.literal_eval(kw.value)
                except ValueError:
                    continue
    return out


def contradicted(a: Analysis) -> dict[str, str]:
    """name -> the literal the proven failing call passes it, for each "`name` is false or empty" check
    the page states that this literal satisfies (the call still raised)."""
    fix = a.example_fix
    if fix.proof is None or not fix.before:
        return {}
    texts = [a.guard_note, *a.prevention, *(s.text for s in a.solutions)]
    names = {m.group(1) for t in texts for m in _FALSY.finditer(t)}
    passed = _keywords(fix.before)
    return {n: repr(passed[n]) for n in sorted(names) if n in passed and not passed[n]}


def without_contradicted(a: Analysis) -> Analysis:
    """The page without the checks its proven failing call satisfies; Prevention says instead what the
    proof shows (the false value does not pass; leave the argument out when the after does)."""
    wrong = contradicted(a)
    if not wrong:
        return a
    after = _keywords(a.example_fix.after) if a.example_fix.after else {}

    def bad(text: str) -> bool:
        return any(f"`{n}` is false or empty" in text for n in wrong)

    said = [f"Do not pass `{n}={v}` to mean none: the proven example raises with it, because the call turns "
            f"the value into something else before the check sees it (`{v}` is false, what is checked is not); "
            + (f"leave `{n}` out, as the example's after does." if n not in after else
               "pass it as the example's after does.") for n, v in wrong.items()]
    note = " ".join(s for s in re.split(r"(?<=\.)\s+(?=[A-Z])", a.guard_note) if not bad(s))
    kept = [s for s in a.solutions if not bad(s.text)]
    if kept and kept[0].text.startswith("Or "):  # an alternative to the dropped one now leads
        kept[0] = dataclasses.replace(kept[0], text=kept[0].text[3].upper() + kept[0].text[4:])
    return dataclasses.replace(
        a, solutions=tuple(kept),
        prevention=(*(p for p in a.prevention if not bad(p)), *said), guard_note=note)
