"""``errdex prove`` end to end with the real fixes (``prove/fixes.py``, ``Prover.kept``): on a small command-line
package, observed calls as observe would store them; the first clean after only takes the trigger away, and the
proof keeps the after that gives the call what it needs: the count the message asks for, the exit signal caught.
``verify --execute`` re-runs both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from errdex.catalog import open_catalog
from errdex.model import Observation, ObservedArg, ObserveRun

from .provekit import cli, package

CORE = '''
class Exit(RuntimeError):
    """An exception that indicates that the application should exit with some status code."""

    def __init__(self, code=0):
        super().__init__(code)
        self.exit_code = code


def run(args):
    """Run the command line ``args``; ``--help`` ends it."""
    if "--help" in args:
        raise Exit(0)
    return list(args)


def option(name, kinds=None, nargs=1):
    """An option taking ``nargs`` values of the ``kinds`` given (a tuple: one kind per value)."""
    arity = len(kinds) if isinstance(kinds, tuple) else 1
    if isinstance(kinds, tuple) and nargs != arity:
        raise ValueError(f"'nargs' must be {arity} (or None) for kinds {kinds!r}, but it was {nargs}.")
    return (name, kinds, nargs)
'''


@pytest.mark.network
def test_prove_keeps_the_fix_over_the_non_fix(tmp_path: Path) -> None:
    home, db = tmp_path / "home", str(tmp_path / "c.sqlite")
    pkg = package(tmp_path, "runlib", "from runlib.core import Exit, option, run\n", CORE)
    r = cli("index", str(pkg), "--repo", "acme/runlib", "--ref", "1.0", "--db", db, home=home)
    assert r.returncode == 0, r.stderr
    cat = open_catalog(db)
    snap = cat.snapshots("acme/runlib")[-1]
    sites = list(cat.sites(snap.key))
    exit_site = next(s for s in sites if s.exception.endswith("Exit"))
    nargs_site = next(s for s in sites if "'nargs' must be" in s.template.render())
    help_call = Observation(snapshot=snap.key, kind="site", path=exit_site.path, line=exit_site.line,
                            exception="runlib.core.Exit", message="0", test="tests/t.py::test_help",
                            error_id=exit_site.error_id, entry="runlib.core.run", escaped=True,
                            entry_args=(ObservedArg("args", "list", "['--help']"),))
    kinds = "('a', 'b', 'c', 'd', 'e')"
    opt_call = Observation(snapshot=snap.key, kind="site", path=nargs_site.path, line=nargs_site.line,
                           exception="ValueError", message=f"'nargs' must be 5 (or None) for kinds {kinds}, but it was 2.",
                           test="tests/t.py::test_opt", error_id=nargs_site.error_id, entry="runlib.core.option",
                           escaped=True, entry_args=(ObservedArg("name", "str", "'--pt'"),
                                                     ObservedArg("kinds", "tuple", kinds),
                                                     ObservedArg("nargs", "int", "2")))
    cat.replace_observations(ObserveRun(snapshot=snap.key, python="3", mode="m", files=1, tests=2, events=2,
                                        sites=2, duration_s=0.1, date="2026-01-01"), [help_call, opt_call])
    cat.close()

    r = cli("prove", "--artifact", str(pkg), "--package", "runlib", "--db", db, "--json", home=home, timeout=600)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["proven_pairs"] == 2, r.stdout
    cat = open_catalog(db)
    signal = cat.get_analysis(exit_site.error_id, snap.key)
    count = cat.get_analysis(nargs_site.error_id, snap.key)
    cat.close()
    assert signal is not None and signal.example_fix.proof is not None
    assert "except runlib.core.Exit as signal:" in signal.example_fix.after  # not ``run([])``
    assert "runlib.run(['--help'])" in signal.example_fix.after
    assert signal.example_fix.proof.candidate.endswith("caught as the signal it is")
    assert signal.example_fix.proof.arguments == "kept, caught"
    assert count is not None and count.example_fix.proof is not None
    assert "nargs=5" in count.example_fix.after and "kinds=" in count.example_fix.after  # not ``kinds`` dropped
    assert count.example_fix.proof.arguments == "kept"

    r = cli("verify", "--execute", "--artifact", str(pkg), "--package", "runlib", "--db", db, "--json", home=home)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["failed"] == []


LAYOUT = '''
TILE_LAYOUT = ("tile", 64, 8)


def _tiled_layout(shape):
    """The tiled layout for ``shape``."""
    if len(shape) != 2:
        raise ValueError(f"Shape {shape} is not 2D")
    return TILE_LAYOUT
'''


@pytest.mark.network
def test_prove_takes_the_public_constant_in_place_of_the_private_call(tmp_path: Path) -> None:
    """``prove/direct.py`` through the engine: no variant of the private call's ``shape=()`` runs clean, and the fixes
    the error's facts give (``Prover.fixed``) start with the after that takes the public constant the function
    returns in place of the call (rating 11, 0480; ``Prover.kept`` tries it first where a value-only after ran)."""
    home, db = tmp_path / "home", str(tmp_path / "c.sqlite")
    pkg = package(tmp_path, "laylib", "from laylib.core import TILE_LAYOUT\n", LAYOUT)
    r = cli("index", str(pkg), "--repo", "acme/laylib", "--ref", "1.0", "--db", db, home=home)
    assert r.returncode == 0, r.stderr
    cat = open_catalog(db)
    snap = cat.snapshots("acme/laylib")[-1]
    site = next(s for s in cat.sites(snap.key) if "is not 2D" in s.template.render())
    call = Observation(snapshot=snap.key, kind="site", path=site.path, line=site.line, exception="ValueError",
                       message="Shape () is not 2D", test="tests/t.py::test_layout", error_id=site.error_id,
                       entry="laylib.core._tiled_layout", escaped=True, entry_args=(ObservedArg("shape", "tuple", "()"),))
    cat.replace_observations(ObserveRun(snapshot=snap.key, python="3", mode="m", files=1, tests=1, events=1,
                                        sites=1, duration_s=0.1, date="2026-01-01"), [call])
    cat.close()

    r = cli("prove", "--artifact", str(pkg), "--package", "laylib", "--db", db, "--json", home=home, timeout=600)
    assert r.returncode == 0, r.stderr
    cat = open_catalog(db)
    got = cat.get_analysis(site.error_id, snap.key)
    cat.close()
    assert got is not None and got.example_fix.proof is not None, r.stdout
    assert "tile_layout = laylib.TILE_LAYOUT" in got.example_fix.after
    assert "_tiled_layout" not in got.example_fix.after
    assert got.example_fix.proof.arguments == "kept, public: _tiled_layout -> laylib.TILE_LAYOUT"
