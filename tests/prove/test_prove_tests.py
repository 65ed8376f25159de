"""observe, then prove, on the fixture package (tests/fixtures/prove_cfglib): the library's own tests
are recorded in the sandbox, distilled into scripts and proven (before raises this very error, after
makes the same call with other arguments and exits 0; try and validate samples run both ways)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from errdex.catalog import open_catalog

from .provekit import cli, observe_and_prove

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_cfglib"


@pytest.mark.network
@pytest.mark.slow
def test_observed_tests_distilled_and_proven(tmp_path: Path) -> None:
    home, db, pkg, doc = observe_and_prove(FIXTURE, "cfglib", tmp_path)
    by_id = {e["error_id"]: e for e in doc["errors"]}
    cat = open_catalog(db)
    snap = cat.snapshots()[-1]
    sites = {s.template.render(): s for s in cat.sites(snap.key)}
    required = next(s for t, s in sites.items() if "cannot have a default" in t)
    choice = next(s for t, s in sites.items() if "is not one of {" in t)
    integer = next(s for t, s in sites.items() if "is not an integer" in t)
    analyses = {s.error_id: cat.get_analysis(s.error_id, snap.key) for s in (required, choice, integer)}
    cat.close()
    # every error the fixture's tests raise escaping to the test is proven from its distilled test
    for s in (required, choice, integer):
        assert by_id[s.error_id]["proven"], by_id[s.error_id]["reason"]
        assert by_id[s.error_id]["candidate"].startswith("test; after: ")  # the variant that ran clean is named
    assert by_id[required.error_id]["candidate"] == "test; after: True -> False"
    a = analyses[required.error_id]
    assert a is not None and a.example_fix.proof is not None
    assert a.example_fix.before == ("from cfglib import Setting\n"
                                    "Setting('host', required=True, default='localhost')\n")
    assert a.example_fix.after.endswith("Setting('host', required=False, default='localhost')\n")
    assert a.example_fix.proof.before.error_id == required.error_id
    assert "TypeError: setting 'host': a required setting cannot have a default" in a.example_fix.proof.before.output
    # the validate sample checks the library's own guard on the call's arguments, before the call (the
    # constructor's ``self.required`` is its ``required`` argument)
    assert a.validate_proof is not None and "if required and default is not None:" in a.validate_sample
    assert "not calling Setting: setting" in a.validate_proof.before.output
    # a TypeError from a flag the code sets is a set-up mistake: fixed, not handled (no try sample)
    assert a.try_proof is None
    b = analyses[integer.error_id]
    assert b is not None and b.example_fix.proof is not None
    assert "text = 'port=eighty'" in b.example_fix.before and "text = 'port=80'" in b.example_fix.after
    assert doc["proven_pairs"] >= 3 and doc["proven_validate"] >= 1

    r = cli("verify", "--execute", "--artifact", str(pkg), "--package", "cfglib", "--db", db, "--json",
             home=home)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["failed"] == []
