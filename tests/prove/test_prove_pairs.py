"""observe, then prove, on a small library (tests/fixtures/prove_pairlib) whose errors need what single
edits of a plainly distilled test do not give: two edits at once (pairs.py), a test that expects the raise
through a ``partial(self.assertRaisesRegex, ...)`` alias or a ``check_raises(lambda: ...)`` helper
(distill), an empty container given one element (mutate's values no edit of the script's own gives), an
error only ever seen caught and raised again as another (proven by the origins the runs record)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from errdex.catalog import open_catalog

from .provekit import cli, observe_and_prove

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_pairlib"


@pytest.mark.network
@pytest.mark.slow
def test_two_edits_aliases_and_filled_values(tmp_path: Path) -> None:
    _home, db, _pkg, doc = observe_and_prove(FIXTURE, "pairlib", tmp_path)
    by_id = {e["error_id"]: e for e in doc["errors"]}
    cat = open_catalog(db)
    snap = cat.snapshots()[-1]
    sites = {s.template.render(): s for s in cat.sites(snap.key)}
    analyses = {t: cat.get_analysis(s.error_id, snap.key) for t, s in sites.items()}
    cat.close()
    got = {t: by_id[s.error_id].get("candidate") for t, s in sites.items() if s.error_id in by_id}
    # both arguments wrong: no single edit runs clean, the pair does
    assert got["size must be at least 1"] == "test; after: two edits: 0 -> 1, and 0 -> 1"
    pair = analyses["size must be at least 1"]
    assert pair is not None and pair.example_fix.proof is not None
    assert pair.example_fix.after.endswith("pairlib.window(size=1, step=1)\n")
    # the alias partial(self.assertRaisesRegex, TypeError, ...) called (pairlib.window, 3, '2')
    assert got["step must be an int"].startswith("test; after:")
    alias = analyses["step must be an int"]
    assert alias is not None and "pairlib.window(3, '2')" in alias.example_fix.before
    # check_raises(lambda: ..., ValueError, msg): the thunk's call
    assert got["size must be at most 100"] == "test; after: 500 -> 1"
    # {} where a non-empty container is expected
    assert got["stack needs at least one value"] == "test; after: {} -> one element"
    # caught by shape() and raised again ``from None``: the runs record that it raised, users see the ValueError
    caught = got["{x} is not an index"]
    assert caught is not None and caught.startswith("test, raised inside and caught by pairlib: users see ValueError")
    inner = analyses["{x} is not an index"]
    assert inner is not None and inner.example_fix.proof is not None
    assert "must be integers" in inner.example_fix.proof.before.output
    assert inner.try_sample == ""  # the user cannot catch what they never see
    r = cli("verify", "--artifact", str(_pkg), "--package", "pairlib", "--db", db, "--json", "--execute", home=_home)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["failed"] == []
