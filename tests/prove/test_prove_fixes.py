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
