"""A check that accepts one axis only (``prove/axis_slices.py``, ``search.confirm_axis``; rating 15, 5931): the
search's call that asks for nothing (``dimensions=[]``) becomes a call along another axis of a 2-D array, and the
after that keeps its result along the accepted axis is proven only when it runs clean and returns the same values.
On a small array library (tests/fixtures/prove_axislib) whose kernel, as jax's SparseCore lowering of ``lax.rev``,
reverses along axis 0 only and cannot transpose."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest

from errdex.model import Guard, Proof, ProofAfter, ProofBefore
from errdex.pagenotes import arguments_note, axis_note
from errdex.prove import search_adapters
from errdex.prove.axis_slices import accepted_value, axis_mark, axis_pairs
from errdex.prove.search import confirm_axis
from errdex.prove.search_adapters import AxisForms, SearchAdapter

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_axislib"
FORMS = AxisForms(move="axislib.moveaxis({x}, {source}, {destination})",
                  per_slice="axislib.stack([{call} for _s in axislib.unstack({x}, axis={axis})], axis={axis})",
                  distinct="axislib.arange({size}, dtype={dtype}).reshape({shape})",
                  same="axislib.array_equal({a}, {b})")
GUARD = Guard(kind="if", source="dimensions != (0,)", normalized="dimensions != (0,)", line=3)
NOOP = "import axislib\n\naxislib.lower(lambda: axislib.rev(operand=0, dimensions=[]))\n"
VECTOR = "axislib.zeros((8,), 'float32')"


def _run(code: str) -> tuple[int, str, str]:
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(FIXTURE)})
    return r.returncode, r.stdout, r.stderr


def test_the_accepted_value_is_read_from_a_guard_that_raises_unless_it_holds() -> None:
    sel = ("dimensions", "axis")
    assert accepted_value([GUARD], sel) == ("dimensions", (0,))
    assert accepted_value([Guard("if", "axis != -1", "axis != -1", 1)], sel) == ("axis", -1)
    assert accepted_value([Guard("if", "0 != axis", "0 != axis", 1)], sel) == ("axis", 0)
    assert accepted_value([Guard("if", "axis == 0", "axis == 0", 1, negated=True)], sel) == ("axis", 0)
    # one value refused (not the only one accepted), another axis than the first or last, or not a selector: none
    assert accepted_value([Guard("if", "axis == 0", "axis == 0", 1)], sel) is None
    assert accepted_value([Guard("if", "axis != 2", "axis != 2", 1)], sel) is None
    assert accepted_value([Guard("if", "mode != 0", "mode != 0", 1)], sel) is None
    assert accepted_value([Guard("if", "dimensions != x", "dimensions != x", 1)], sel) is None


def test_the_pair_along_another_axis_raises_and_the_per_slice_after_keeps_the_values() -> None:
    pairs = axis_pairs(NOOP, [GUARD], ("dimensions",), FORMS, ["axislib.zeros((2, 3))", VECTOR])
    assert len(pairs) == 1
    p = pairs[0]
    assert "axislib.rev(operand=axislib.zeros((2, 8), 'float32'), dimensions=(1,))" in p.before
    assert p.hows == ("moved", "per slice") and (p.wanted, p.accepted, p.spelt) == (1, 0, ("(1,)", "(0,)"))
    rc, _, err = _run(p.before)
    assert rc != 0 and "Invalid dimensions for kernel rev: (1,)" in err
    moved, sliced = (_run(a) for a in p.afters)
    assert moved[0] != 0 and "transpose" in moved[2]  # the kernel cannot move the axis
    assert sliced[0] == 0, sliced[2]
    for check in p.checks:  # outside the kernel both afters return the before's values
        assert _run(check)[0] == 0
    assert "arange(16, dtype='float32').reshape((2, 8))" in p.distinct
    # the check fails for an after that does not keep the values (the slices stacked unreversed)
    wrong = p.checks[1].replace("axislib.rev(operand=_s, dimensions=(0,))", "_s")
    assert wrong != p.checks[1] and _run(wrong)[0] != 0


def test_no_pair_without_a_single_accepted_axis_or_forms() -> None:
    assert axis_pairs(NOOP, [Guard("if", "dimensions == ()", "dimensions == ()", 1)], ("dimensions",), FORMS, [VECTOR]) == []
    assert axis_pairs(NOOP, [GUARD], ("dimensions",), None, [VECTOR]) == []
    assert axis_pairs("import axislib\naxislib.rev(dimensions=[])\n", [GUARD], ("dimensions",), FORMS, [VECTOR]) == []
    # the last axis accepted: the before asks for axis 0 of an (8, 2) array, the slices are taken along axis 1
    p = axis_pairs(NOOP, [Guard("if", "dimensions != (-1,)", "dimensions != (-1,)", 1)], ("dimensions",), FORMS,
                   [VECTOR])[0]
    assert "zeros((8, 2), 'float32'), dimensions=(0,)" in p.before and "axis=1)], axis=1)" in p.afters[1]


@dataclass
class _Runs:
    results: list[tuple[int, str, str]]
    count: int = 0

    def __getitem__(self, i: int) -> tuple[int, str, str]:
        return self.results[i]


@dataclass
class _Prover:  # runs the programs with this Python and the fixture; the matcher: the site's message
    package: str = "axislib"
    ran: list[str] = field(default_factory=list)

    def runs(self, codes: list[str], scratch: Path, name: str) -> _Runs:
        self.ran += codes
        return _Runs([_run(c) for c in codes], len(codes))

    def resolves_to(self, catalog: Any, err: str, error_id: str) -> tuple[str, str]:
        return ("e1", "NotImplementedError") if "Invalid dimensions for kernel rev" in err else ("", "")

    def _proof(self, before: ProofBefore, after: ProofAfter, candidate: str) -> Proof:
        return Proof(before, after, "axislib", "1.0", "3.13", "2026-12-06", candidate)


@dataclass
class _Site:
    error_id: str = "e1"
    path: str = "axislib/__init__.py"
    guards: tuple[Guard, ...] = (GUARD,)


def test_confirm_proves_the_per_slice_after_and_names_the_one_that_did_not_run(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(search_adapters.SEARCH_ADAPTERS, "axislib", SearchAdapter(
        values=(VECTOR,), selectors=("dimensions",), slices=FORMS))
    prover = _Prover()
    got, why, runs = confirm_axis(cast(Any, prover), cast(Any, None), cast(Any, _Site()), NOOP, tmp_path)
    assert got is not None, why
    assert runs == 6 and "stack([axislib.rev(operand=_s, dimensions=(0,))" in got.after
    # the accepted value spelt as a list: axislib's kernel compares the raw value with ``(0,)``, so ``[0]`` raises
    assert got.proof.clean_with == () and len(got.proof.raised_with) == 1 and "dimensions=[0]" in got.proof.raised_with[0]
    assert got.proof.before.exception == "NotImplementedError" and got.proof.candidate.startswith("search; after: per slice")
    note = arguments_note({"arguments": got.proof.arguments})
    assert note.startswith("The before asks for `dimensions=(1,)` on an array of two dimensions")
    assert "`dimensions=(0,)` (the one value the check accepts)" in note
    assert "the after returned the same values" in note
    assert "the after that moves the axis did not run here (`NotImplementedError: Unimplemented primitive" in note
    # an after whose values differ is not proven: here the check programs all fail
    monkeypatch.setitem(search_adapters.SEARCH_ADAPTERS, "axislib", SearchAdapter(
        values=(VECTOR,), selectors=("dimensions",), slices=AxisForms(FORMS.move, FORMS.per_slice, FORMS.distinct,
                                                                      "False")))
    got, why, _ = confirm_axis(cast(Any, prover), cast(Any, None), cast(Any, _Site()), NOOP, tmp_path)
    assert got is None and "per slice: not the same values" in why


def test_the_note_of_a_moved_axis() -> None:
    mark = axis_mark(axis_pairs(NOOP, [GUARD], ("dimensions",), FORMS, [VECTOR])[0], "moved", [])
    assert "moves that axis to where `dimensions=(0,)` works" in axis_note(mark) and "Tried first" not in axis_note(mark)
