"""observe, then prove, on a toy tracing library (tests/fixtures/prove_tinytrace): the fix is in the
function the test hands to ``jit`` (tracing.py's generic edits; tinytrace has no trace adapter)."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.catalog import open_catalog

from .provekit import observe_and_prove

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_tinytrace"


@pytest.mark.network
@pytest.mark.slow
def test_traced_function_edited_into_a_clean_after(tmp_path: Path) -> None:
    _home, db, _pkg, doc = observe_and_prove(FIXTURE, "tinytrace", tmp_path)
    by_id = {e["error_id"]: e for e in doc["errors"]}
    cat = open_catalog(db)
    snap = cat.snapshots()[-1]
    sites = {s.exception: s for s in cat.sites(snap.key)}
    conc, gen = sites["ConcretizationError"], sites["TypeError"]
    a = cat.get_analysis(conc.error_id, snap.key)
    cat.close()
    assert by_id[conc.error_id]["candidate"] == "test; after: int(x) -> x in the traced function"
    assert by_id[gen.error_id]["candidate"] == "test; after: yield -> return in the traced function"
    assert a is not None and a.example_fix.proof is not None
    assert a.example_fix.after.endswith("def f(x):\n    return x + 1\ntinytrace.jit(f)(3)\n")  # same call
    assert "ConcretizationError: int() was called on a traced argument" in a.example_fix.proof.before.output
