"""``errdex prove`` storing its outcomes: a run that proves nothing keeps a stored proof that still holds
(rating 8: 5739 lost its proven example when a later search, under another load, found no clean call)."""

from __future__ import annotations

from pathlib import Path

from errdex.catalog import open_catalog
from errdex.commands.prove import _store
from errdex.model import Analysis, CodeSample, ErrorSite, Proof, ProofAfter, ProofBefore
from errdex.prove.engine import Outcome

from .provekit import cli, package

CORE = '''
def make_mesh(num_threads=None, thread_name=None):
    """A mesh of threads: a count and the axis name go together."""
    if (num_threads is None) != (thread_name is None):
        raise ValueError("num_threads and thread_name must be either both set or both None")
    return (num_threads, thread_name)
'''


def _proven(tmp_path: Path) -> tuple[str, str, str]:
    home, db = tmp_path / "home", str(tmp_path / "c.sqlite")
    pkg = package(tmp_path, "meshlib", "from meshlib.core import make_mesh\n", CORE)
    r = cli("index", str(pkg), "--repo", "acme/meshlib", "--ref", "1.0", "--db", db, home=home)
    assert r.returncode == 0, r.stderr
    cat = open_catalog(db)
    snap = cat.snapshots("acme/meshlib")[-1]
    site = next(iter(cat.sites(snap.key)))
    proof = Proof(before=ProofBefore("ValueError", site.error_id, "ValueError: num_threads"), after=ProofAfter(0),
                  library="meshlib", version="1.0", python="3.13", date="2026-12-05", candidate="search")
    fix = CodeSample("import meshlib\nmeshlib.make_mesh(num_threads=3)\n",
                     "import meshlib\nmeshlib.make_mesh(num_threads=3, thread_name='x')\n", proof)
    cat.put_analyses([Analysis(error_id=site.error_id, snapshot=snap.key, meaning="m", backend="prove",
                               example_fix=fix)])
    cat.close()
    return db, snap.key, site.error_id


def test_a_run_that_proves_nothing_keeps_a_proof_that_still_holds(tmp_path: Path) -> None:
    db, key, eid = _proven(tmp_path)
    seen: list[str] = []

    def holds(site: ErrorSite, a: Analysis) -> str:
        seen.append(site.error_id)
        assert a.example_fix.proof is not None
        return ""

    cat = open_catalog(db)
    snap = cat.snapshots("acme/meshlib")[-1]
    _store(cat, snap, [Outcome(eid, None, "the search found a raising call, no variant ran clean", 5, 1.0)], holds)
    a = cat.get_analysis(eid, key)
    cat.close()
    assert seen == [eid]
    assert a is not None and a.example_fix.proof is not None and "thread_name='x'" in a.example_fix.after


def test_a_stored_proof_that_no_longer_holds_is_dropped(tmp_path: Path) -> None:
    db, key, eid = _proven(tmp_path)
    cat = open_catalog(db)
    snap = cat.snapshots("acme/meshlib")[-1]
    _store(cat, snap, [Outcome(eid, None, "no variant ran clean", 5, 1.0)], lambda s, a: "before no longer raises")
    a = cat.get_analysis(eid, key)
    cat.close()
    assert a is not None and a.example_fix.proof is None and a.example_fix.before  # the sample stays, not proven
