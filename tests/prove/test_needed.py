"""Each change of a two-change proven after is run taken back (``prove/needed.py``): one without which the call
raises another error is said to be needed (rating 9, b806: the metadata's shape and ``float32`` -> ``float16``).
Run on a tiny package this test writes, in a plain subprocess."""

from __future__ import annotations

from pathlib import Path

from errdex.model import Analysis, CodeSample, Proof, ProofAfter, ProofBefore
from errdex.prove.needed import needs, undone
from errdex.prove.stored import with_change

from .provekit import LocalRunner

LIB = '''\
def fmt(meta, dtype="float32"):
    if meta[-1] != 2:
        raise ValueError(f"Expected the trailing dimension of the metadata to be 2, got: {meta[-1]}")
    if dtype not in ("float16", "int8"):
        raise NotImplementedError("Sparse metadata format not implemented")
    return meta
'''
BEFORE = "import splib\nsplib.fmt((128, 128, 128), dtype='float32')\n"
AFTER = "import splib\nsplib.fmt((128, 128, 2), dtype='float16')\n"


_Runner = LocalRunner


def test_a_change_without_which_the_call_raises_is_said_to_be_needed(tmp_path: Path) -> None:
    (tmp_path / "splib.py").write_text(LIB)
    raised = "ValueError: Expected the trailing dimension of the metadata to be 2, got: 128"
    why, runs = needs(_Runner(tmp_path), BEFORE, AFTER, tmp_path, raised)
    assert runs == 2  # the shape taken back brings the before's own error back: the fix itself, not said
    assert why == ("without `dtype='float16'` the call raises "
                   "`NotImplementedError: Sparse metadata format not implemented`")  # the shape alone is not enough
    # one change: nothing to say, nothing run
    assert needs(_Runner(tmp_path), BEFORE, BEFORE.replace("128)", "2)"), tmp_path) == ("", 0)
    assert len(undone(BEFORE, AFTER)) == 2
    twice = "import splib\nm = splib.fmt((4, 2), dtype='{t}')\nsplib.fmt((4, 2), dtype='{t}')\n"
    got = undone(twice.format(t="int8").replace("2)", "3)"), twice.format(t="float16"))
    assert [new for new, _ in got] == ["2", "dtype='float16'"]  # the same change in two statements, back in both
    assert got[1][1] == twice.format(t="int8")


def test_the_page_says_each_change_is_needed() -> None:
    proof = Proof(ProofBefore(exception="ValueError", error_id="b80660ab500c05c9", output="..."), ProofAfter(exit=0),
                  "splib", "1", "3.13.0", "2026-12-06", needs="without `dtype='float16'` the call raises `E: x`")
    a = with_change(Analysis(error_id="b80660ab500c05c9", snapshot="acme/splib@1", meaning="m",
                             example_fix=CodeSample(BEFORE, AFTER, proof)))
    last = a.solutions[-1].text
    assert last.startswith("The proven example below changes two things:")
    assert last.endswith("Each is needed: without `dtype='float16'` the call raises `E: x`.")
