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
from collections.abc import Mapping, Sequence

from errdex.model import Analysis

_FALSY = re.compile(r"`(\w+)` is false or empty")
_SAME_CHECK = re.compile(r"another rule of the same operation `\w+`, checking the same `(\w+)`")


def _keywords(code: str, in_source_order: bool = False) -> dict[str, object]:
    """Every keyword argument of the code's calls whose value is a literal: name -> value.  With
    ``in_source_order``, each name's value in the last call (in the source) that passes it: the call the
    script ends on, not one that only computes a shape for it (the spellings change one slot at a time,
    rating 10: 4423's ``collective_axes=None`` in ``eval_shape`` ran clean, in the kernel it raises)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return {}
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    if in_source_order:
        calls.sort(key=lambda n: (n.lineno, n.col_offset))
    out: dict[str, object] = {}
    for node in calls:
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
    names = _stated(a)
    passed = _keywords(fix.before)
    out = {n: repr(passed[n]) for n in sorted(names) if n in passed and not passed[n]}
    return out or spelt_contradicted(a)


def spelt_contradicted(a: Analysis) -> dict[str, str]:
    """As ``contradicted``, from the after's other spellings the proof ran and saw raise (``Proof.raised_with``,
    ``keep.spellings``: ``collective_axes=0``, ``None``): rating 9, 4423's before passed a true ``1``."""
    proof = a.example_fix.proof
    if proof is None:
        return {}
    names = _stated(a)
    out: dict[str, str] = {}
    for src in proof.raised_with:
        for n, v in _keywords(src).items():
            if n in names and not v:
                out.setdefault(n, repr(v))
    return out


def _stated(a: Analysis) -> set[str]:
    """The names of the "`name` is false or empty" checks the page states (note, prevention, solutions)."""
    return {m.group(1) for t in (a.guard_note, *a.prevention, *(s.text for s in a.solutions))
            for m in _FALSY.finditer(t)}


def shared_contradictions(analyses: Sequence[Analysis]) -> dict[str, dict[str, tuple[str, str]]]:
    """error id -> {name: (literal, proving error id)} for the pages that state "`name` is false or empty"
    without a proof of their own that contradicts it, when a related error that checks the same `name` (another rule of the
    same operation, the same guard) has a proven failing call passing that false literal: the public call
    normalises the argument before any of its rules sees it (rating 7: 4423 from 91c3's proof)."""
    proven = {a.error_id: {n: repr(v) for n, v in _keywords(a.example_fix.before).items() if not v}
              for a in analyses if a.example_fix.proof is not None and a.example_fix.before}
    out: dict[str, dict[str, tuple[str, str]]] = {}
    for a in analyses:
        if contradicted(a):  # its own proof says it; a proof that satisfies no stated check says nothing
            continue  # (rating 9: 4423's own proof, `collective_axes=1` -> `()`, had hidden 91c3's)
        stated = _stated(a)
        for r in a.related:
            same = {n for m in _SAME_CHECK.finditer(r.reason) for n in m.groups() if n}
            for n, v in proven.get(r.error_id, {}).items():
                if n in stated and n in same:
                    out.setdefault(a.error_id, {}).setdefault(n, (v, r.error_id))
    return out


def without_contradicted(a: Analysis, shared: Mapping[str, tuple[str, str]] | None = None) -> Analysis:
    """The page without the checks its proven failing call (or, ``shared``, a related error's that checks
    the same name) satisfies; Prevention says instead what the proof shows (the false value does not pass;
    leave the argument out when the after does), and "`name` is true (non-empty)" says the value as passed."""
    own = contradicted(a)
    given = _keywords(a.example_fix.before)
    ran = bool(own) and not any(n in given and not given[n] for n in own)  # seen raise in a run, not the before
    wrong = {n: (v, "") for n, v in own.items()} if own else dict(shared or {})
    if not wrong:
        return a
    after = _keywords(a.example_fix.after) if own and a.example_fix.after else {}

    def bad(text: str) -> bool:
        return any(f"`{n}` is false or empty" in text for n in wrong)

    clean = ran_clean(a) if own else {}  # the values the proof ran clean: what "passed" means (rating 10)

    def passed(text: str) -> str:
        for n, (v, _) in wrong.items():
            but = " or ".join(f"`{c}`" for c in clean.get(n, ()))
            text = text.replace(f"`{n}` is true (non-empty)", f"`{n}` is anything but {but} (even `{v}`: the "
                                "call turns the value into a true one before the check sees it)" if but else
                                f"`{n}` is passed, even as `{v}` (the call turns "
                                "the value into a true one before the check sees it)")
        return text

    said = [f"Do not pass `{n}={v}` to mean none: "
            + ("errdex ran the proven example's call with it, and it raises" if not by and ran else
               "the proven example raises with it" if not by else
               f"the proven example of the same check's other error (/errors/{by}) raises with it")
            + f", because the call turns the value into something else before the check sees it (`{v}` is "
            "false, what is checked is not); "
            + (f"leave `{n}` out, as the example's after does." if own and n not in after else
               "pass it as the example's after does." if own else f"leave `{n}` out.")
            for n, (v, by) in wrong.items()]
    def left_out(text: str) -> str:  # the check to make before the call, on the value as the call sees it
        for n, (v, _) in wrong.items():
            ok = "".join(f" or `{c}`" for c in clean.get(n, ()))
            text = text.replace(f"`{n}` is false or empty", f"`{n}` is left out{ok} (passing `{v}` does not do: "
                                "the call turns it into a true value before the check)")
        return text

    note = passed(left_out(a.guard_note))
    kept = [dataclasses.replace(s, text=passed(s.text)) for s in a.solutions if not bad(s.text)]
    if kept and kept[0].text.startswith("Or "):  # an alternative to the dropped one now leads
        kept[0] = dataclasses.replace(kept[0], text=kept[0].text[3].upper() + kept[0].text[4:])
    return dataclasses.replace(
        a, solutions=tuple(kept), meaning=passed(a.meaning), trigger=passed(a.trigger),
        situations=tuple(passed(t) for t in a.situations),
        prevention=(*(passed(p) for p in a.prevention if not bad(p)), *said), guard_note=note)


def ran_clean(a: Analysis) -> dict[str, tuple[str, ...]]:
    """name -> the literals the proof ran clean with for it: the after's own, then the after's other spellings
    that ran clean (``Proof.clean_with``, ``keep.spellings``: ``dimensions=[0]`` for ``(0,)``)."""
    fix = a.example_fix
    if fix.proof is None or not fix.after:
        return {}
    out = {n: [repr(v)] for n, v in _keywords(fix.after, in_source_order=True).items()}
    for src in fix.proof.clean_with:
        for n, v in _keywords(src, in_source_order=True).items():
            if n in out and repr(v) not in out[n]:
                out[n].append(repr(v))
    return {n: tuple(vs) for n, vs in out.items()}


def with_clean_spellings(a: Analysis) -> Analysis:
    """A stated "`name` equals `V`" check, V the after's value, said so that every spelling the proof ran
    clean passes it: "`dimensions` is `(0,)` or `[0]`" (rating 10, 5931: `lax.rev` makes the list a tuple,
    and "equals `(0,)`", read literally, rejects `[0]`)."""
    more = {n: vs for n, vs in ran_clean(a).items() if len(vs) > 1}
    if not more:
        return a

    def said(text: str) -> str:
        for n, vs in more.items():
            text = text.replace(f"`{n}` equals `{vs[0]}`", f"`{n}` is " + " or ".join(f"`{v}`" for v in vs))
        return text

    return dataclasses.replace(
        a, solutions=tuple(dataclasses.replace(s, text=said(s.text)) for s in a.solutions),
        meaning=said(a.meaning), trigger=said(a.trigger), situations=tuple(said(t) for t in a.situations),
        prevention=tuple(said(p) for p in a.prevention), guard_note=said(a.guard_note))
