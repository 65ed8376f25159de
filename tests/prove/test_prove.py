"""errdex prove end to end on a small fixture package: indexed, one observation stored as observe would
store it, then the CLI builds the sandbox environment, proves the pair and the try sample, stores them,
shows them on the page, and verify --execute re-runs them (and notices when one no longer holds)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from errdex.catalog import open_catalog
from errdex.model import Observation, ObservedArg, ObserveRun

from .provekit import cli, package

CORE = '''
def make_range(low, high, strict=False, step=1):
    """A range that refuses to be empty in strict mode."""
    if step == 0:
        raise ValueError("step must not be zero")
    if strict and low >= high:
        raise ValueError(f"low must be below high in strict mode, got {low} >= {high}")
    return list(range(low, high, step))
'''


def _package(root: Path) -> Path:
    return package(root, "rangelib", "from rangelib.core import make_range\n", CORE)


def _cli(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return cli(*args, home=home, timeout=600)


@pytest.mark.network
def test_prove_fixture_pair_try_page_and_verify(tmp_path: Path) -> None:
    home = tmp_path / "home"
    db = str(tmp_path / "c.sqlite")
    pkg = _package(tmp_path)
    r = _cli("index", str(pkg), "--repo", "acme/rangelib", "--ref", "1.0", "--db", db, home=home)
    assert r.returncode == 0, r.stderr
    cat = open_catalog(db)
    snap = cat.snapshots("acme/rangelib")[-1]
    site = next(s for s in cat.sites(snap.key) if "strict" in s.template.render())
    zero = next(s for s in cat.sites(snap.key) if "zero" in s.template.render())
    args = (ObservedArg("low", "int", "3"), ObservedArg("high", "int", "3"), ObservedArg("strict", "bool", "True"),
            ObservedArg("step", "int", "1"))
    o = Observation(snapshot=snap.key, kind="site", path=site.path, line=site.line, exception="ValueError",
                    message="low must be below high in strict mode, got 3 >= 3", test="tests/t.py::test_strict",
                    error_id=site.error_id, test_path="tests/t.py", test_line=3, entry="rangelib.core.make_range",
                    entry_args=args, escaped=True)
    # The same public call, but what the test passed is not a literal: no candidate can be restated.
    opaque = Observation(snapshot=snap.key, kind="site", path=zero.path, line=zero.line, exception="ValueError",
                         message="step must not be zero", test="tests/t.py::test_zero", error_id=zero.error_id,
                         entry="rangelib.core.make_range", escaped=True,
                         entry_args=(ObservedArg("low", "Thing", "<tests.t.Thing>"),))
    cat.replace_observations(ObserveRun(snapshot=snap.key, python="3", mode="m", files=1, tests=2, events=2,
                                        sites=2, duration_s=0.1, date="2026-01-01"), [o, opaque])
    cat.close()

    r = _cli("prove", "--artifact", str(pkg), "--package", "rangelib", "--db", db, "--json", home=home)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    # the proven fix drops the `strict=True` setting: a set-up mistake, so no try sample is built for it
    assert doc["observed_sites"] == 2 and doc["proven_pairs"] == 1 and doc["proven_try"] == 0
    reasons = {e["error_id"]: e for e in doc["errors"]}
    assert "not a literal" in reasons[zero.error_id]["reason"]

    cat = open_catalog(db)
    a = cat.get_analysis(site.error_id, snap.key)
    cat.close()
    assert a is not None and a.example_fix.proof is not None
    proof = a.example_fix.proof
    assert "rangelib.make_range(3, 3, strict=True)" in a.example_fix.before
    # the first clean after dropped ``strict=True``; one that keeps every argument runs clean too and wins
    # (prove/keep.py): the flag turned the other way, and the proof says so
    assert "rangelib.make_range(3, 3, strict=False)" in a.example_fix.after
    assert a.example_fix.proof.arguments == "kept" and "(keeps every argument)" in a.example_fix.proof.candidate
    assert proof.before.error_id == site.error_id and proof.before.exception.endswith("ValueError")
    assert "low must be below high in strict mode, got 3 >= 3" in proof.before.output
    assert proof.after.exit == 0 and proof.library == "rangelib" and proof.version == "1.0"
    assert a.try_proof is None

    page = _cli("show", site.error_id, "--db", db, home=home)
    assert "Proven on rangelib 1.0, Python" in page.stdout and "got 3 >= 3" in page.stdout
    shown = json.loads(_cli("show", site.error_id, "--db", db, "--json", home=home).stdout)
    assert shown["analysis"]["example_fix"]["proof"]["before"]["error_id"] == site.error_id

    # A later errdex analyze keeps the proven example (it would otherwise replace it with a static one).
    r = _cli("analyze", "--db", db, home=home)
    assert r.returncode == 0, r.stderr
    cat = open_catalog(db)
    again = cat.get_analysis(site.error_id, snap.key)
    cat.close()
    assert again is not None and again.backend == "static" and again.example_fix == a.example_fix
    assert again.try_proof is None and again.try_sample == ""
    assert again.guard_note.startswith("This is a mistake to fix in the code, not an error to handle")
    # the after keeps the argument and changes its value: said as the change, a fix to copy
    assert again.solutions[-1].text == ("The proven example below changes one thing: `strict=True` becomes "
                                        "`strict=False` in the call of `rangelib.make_range`.")

    r = _cli("export", str(tmp_path / "site"), "--db", db, home=home)
    assert r.returncode == 0, r.stderr
    pages = {p.read_text() for p in (tmp_path / "site").rglob("*.html") if site.error_id in p.read_text()}
    html = next(p for p in pages if f'data-error-id="{site.error_id}"' in p)
    assert "Proven on rangelib 1.0, Python 3." in html and "got 3 &gt;= 3" in html
    other = next(p for p in {q.read_text() for q in (tmp_path / "site").rglob("*.html")}
                 if f'data-error-id="{zero.error_id}"' in p)
    assert "No example could be proven. The library&#39;s own test <code>test_zero</code> raises this error" in other

    r = _cli("verify", "--execute", "--artifact", str(pkg), "--package", "rangelib", "--db", db, "--json", home=home)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout) == {"snapshot": snap.key, "proofs": 1, "failed": []}

    # The library changes under the stored proof: strict mode no longer refuses; verify --execute says so.
    (pkg / "rangelib" / "core.py").write_text(CORE.replace("if strict and low >= high", "if strict and low > high"))
    r = _cli("verify", "--execute", "--artifact", str(pkg), "--package", "rangelib", "--db", db, "--json",
             home=tmp_path / "home2", )
    assert r.returncode == 1
    assert json.loads(r.stdout)["failed"][0]["reason"] == "before no longer raises"


@pytest.mark.network
@pytest.mark.slow
def test_prove_on_click_from_pypi(tmp_path: Path) -> None:
    """click 8.1.8 from PyPI: the observation observe records for test_float_range_no_clamp_open is proven
    (click.FloatRange restated from the recorded reprs, its traceback matched back to the site)."""
    home = tmp_path / "home"
    db = str(tmp_path / "c.sqlite")
    r = _cli("index", "pypi:click==8.1.8", "--db", db, home=home)
    assert r.returncode == 0, r.stderr
    cat = open_catalog(db)
    snap = cat.snapshots()[-1]
    site = next(s for s in cat.sites(snap.key) if "Clamping is not supported" in s.template.render())
    args = tuple(ObservedArg(n, t, v) for n, t, v in (
        ("self", "click.types.FloatRange", "<click.types.FloatRange>"), ("min", "int", "0"), ("max", "int", "1"),
        ("min_open", "bool", "False"), ("max_open", "bool", "True"), ("clamp", "bool", "True")))
    o = Observation(snapshot=snap.key, kind="site", path=site.path, line=site.line, exception="TypeError",
                    message="Clamping is not supported for open bounds.",
                    test="tests/test_types.py::test_float_range_no_clamp_open", error_id=site.error_id,
                    entry="click.types.FloatRange.__init__", entry_args=args, escaped=True)
    cat.replace_observations(ObserveRun(snapshot=snap.key, python="3", mode="m", files=1, tests=1, events=1,
                                        sites=1, duration_s=0.1, date="2026-01-01"), [o])
    cat.close()
    r = _cli("prove", "--db", db, "--json", home=home)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["proven_pairs"] == 1
    cat = open_catalog(db)
    a = cat.get_analysis(site.error_id, snap.key)
    cat.close()
    assert a is not None and a.example_fix.proof is not None
    assert "click.FloatRange(min=0, max=1, max_open=True, clamp=True)" in a.example_fix.before
    assert a.example_fix.proof.version == "8.1.8" and a.example_fix.proof.before.error_id == site.error_id
    assert a.example_fix.proof.before.output.endswith("TypeError: Clamping is not supported for open bounds.")
