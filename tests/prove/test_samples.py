"""The validate sample is proven on every value the proof ran (``prove/samples.py``), not only the before's
and the after's: a sample that says "go ahead" for a value the library wraps and then rejects
(rating 9, 4423: ``collective_axes=0`` becomes ``(0,)``) is not shown as proven.  Run on a tiny package
this test writes, in a plain subprocess."""

from __future__ import annotations

from pathlib import Path

from errdex.extract import extract_tree
from errdex.model import ErrorSite, Proof, ProofAfter, ProofBefore, Snapshot
from errdex.prove.samples import samples
from errdex.sources.base import SourceTree
from errdex.sources.files import walk_python_files

from .provekit import LocalRunner

LIB = '''\
def scoped(body, axes=()):
    if not isinstance(axes, tuple):
        axes = (axes,)
    return _lower(body, axes)


def _lower(body, axes):
    return body


def plain(body, axes=()):
    if axes:
        raise NotImplementedError(f"axes {axes} are not supported by the plain interpreter")
    return body


def interpret(body, axes=()):
    if not isinstance(axes, tuple):
        axes = (axes,)
    if axes:
        raise NotImplementedError(f"collective axes {axes} are not supported by the interpreter")
    return body


def wrapped(body, axes=()):
    axes = _as_tuple(axes)
    if axes:
        raise NotImplementedError(f"wrapped axes {axes} are not supported by the interpreter")
    return body


def _as_tuple(axes):
    return axes if isinstance(axes, tuple) else (axes,)


def rev(x, dims):
    dims = tuple(dims)
    if dims != (0,):
        raise NotImplementedError(f"reversing dims {dims} is not supported on the subcore")
    return x
'''


class _Runner(LocalRunner):
    def _proof(self, before: ProofBefore, after: ProofAfter, candidate: str) -> Proof:
        return Proof(before, after, "axlib", "0", "3", "today", candidate)


def _site(tmp: Path, text: str = "by the interpreter") -> ErrorSite:
    pkg = tmp / "axlib"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text(LIB)
    sites = extract_tree(SourceTree(Snapshot(repo="acme/axlib"), pkg, walk_python_files(pkg)), jobs=1).sites
    return next(s for s in sites if text in s.template.render())


def _script(axes: str, func: str = "interpret") -> str:
    return f"import axlib\naxlib.{func}(1, axes={axes})\n"


def _validate(tmp: Path, seen: dict[str, bool], func: str = "plain", after: str = "()") -> str:
    site = _site(tmp, {"interpret": "collective axes", "wrapped": "wrapped axes"}.get(func, "plain interpreter"))
    pb = ProofBefore(exception="NotImplementedError", error_id=site.error_id, output="")
    (_, _, val, proof), _ = samples(_Runner(tmp), site, [], _script("1", func), "test", _script(after, func), pb,
                                    tmp, seen=seen)
    assert (proof is None) == (val == "")
    return val


def test_a_validate_sample_right_on_every_value_is_proven(tmp_path: Path) -> None:
    # ``plain`` tests ``axes`` as given: ``()``, ``[]``, ``None`` and ``0`` all run clean, and the check lets them through
    assert _validate(tmp_path, {})


def test_a_validate_sample_wrong_on_another_spelling_of_the_after_is_not_proven(tmp_path: Path) -> None:
    # ``wrapped`` wraps a non-tuple (in a private helper the sample cannot call): ``[]``, ``None`` and ``0`` (what a
    # user passes to mean none) become ``([],)``, ``(None,)``, ``(0,)`` and raise, while the raw ``if axes:`` says go
    # ahead (rating 9, 4423)
    assert _validate(tmp_path, {}, "wrapped") == ""


def test_a_validate_sample_makes_of_the_arguments_what_the_function_makes_of_them(tmp_path: Path) -> None:
    # rating 12 (bce3): ``interpret`` wraps a non-tuple in its own body, with builtins only: the sample does the same
    # before its check (``rebuilt.py``), so it stops ``[]``, ``None`` and ``0`` as the library does, and is proven
    val = _validate(tmp_path, {}, "interpret")
    assert "    if not isinstance(axes, tuple):\n        axes = (axes,)\n    if axes:" in val


def test_a_validate_sample_wrong_on_a_value_the_proof_saw_is_not_proven(tmp_path: Path) -> None:
    assert _validate(tmp_path, {_script("tuple()", "plain"): False}) != ""  # ran clean, let through
    assert _validate(tmp_path, {_script("0", "plain"): True}) == ""  # seen raising, let through: wrong
    assert _validate(tmp_path, {_script("(1,)", "plain"): False}) == ""  # seen clean, stopped: wrong


def test_the_spellings_of_the_after_that_ran_clean_are_collected(tmp_path: Path) -> None:
    # rating 10 (5931): ``lax.rev`` makes ``dimensions=[0]`` a tuple, so it runs clean like the after's ``(0,)``;
    # the page's check must be said so that it passes too (``contradict.with_clean_spellings``)
    site = _site(tmp_path, "on the subcore")
    pb = ProofBefore(exception="NotImplementedError", error_id=site.error_id, output="")
    raised: list[str] = []
    clean: list[str] = []
    samples(_Runner(tmp_path), site, [], "import axlib\naxlib.rev(1, dims=(1,))\n", "test",
            "import axlib\naxlib.rev(1, dims=(0,))\n", pb, tmp_path, raised=raised, clean=clean)
    assert raised == []
    assert [c for c in clean if "dims=[0]" in c] == clean and clean


def test_the_validated_call_is_found_in_an_after_that_adds_statements_above_it(tmp_path: Path) -> None:
    # rating 12 (bce3): the after's ``import numpy`` shifted every node of the script, the calls were paired by
    # position and none matched, so no validate sample was built; they are paired by what they call
    site = _site(tmp_path, "plain interpreter")
    pb = ProofBefore(exception="NotImplementedError", error_id=site.error_id, output="")
    after = "import os\nimport axlib\naxlib.plain(1, axes=os.sep and ())\n"
    (_, _, val, proof), _ = samples(_Runner(tmp_path), site, [], _script("1", "plain"), "test", after, pb, tmp_path)
    assert proof is not None and "problem = plain_problem(1, axes=1)" in val
