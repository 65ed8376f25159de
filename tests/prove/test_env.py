"""prove --env: NAME=VALUE pairs every example run gets (the sandboxed script sees them), recorded in
the proof so that verify --execute replays them; a watched run records where its exceptions started."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from errdex.commands.prove import parse_env
from errdex.model import ProofAfter, ProofBefore, Snapshot
from errdex.prove.engine import Prover
from errdex.prove.runoutput import site_raised
from errdex.sandbox import Environment


def _prover(tmp_path: Path, extra: tuple[tuple[str, str], ...]) -> Prover:
    env = Environment(key="here", root=tmp_path, python=Path(sys.executable),
                      python_version=f"{sys.version_info.major}.{sys.version_info.minor}",
                      site_packages=(), requirement="none")
    snap = Snapshot(repo="acme/lib", commit=None, ref="1.0", date="", source_kind="dir", source="", url_base="",
                    version="1.0")
    return Prover(catalog_path="", snapshot=snap, env=env, package="lib", worker=False, extra_env=extra)


def test_parse_env() -> None:
    assert parse_env(["XLA_FLAGS=--xla_force_host_platform_device_count=8", "A="]) == (
        ("XLA_FLAGS", "--xla_force_host_platform_device_count=8"), ("A", ""))
    assert parse_env([]) == ()
    assert parse_env(["no-equals"]) is None
    assert parse_env(["BAD NAME=1"]) is None


def test_every_run_gets_the_pairs_and_the_proof_records_them(tmp_path: Path) -> None:
    p = _prover(tmp_path, (("ERRDEX_T_DEVICES", "8"),))
    rc, out, _, _ = p._run("import os\nprint(os.environ.get('ERRDEX_T_DEVICES', 'unset'))\n", tmp_path, "s")
    assert (rc, out.strip()) == (0, "8")
    plain = _prover(tmp_path, ())
    rc, out, _, _ = plain._run("import os\nprint(os.environ.get('ERRDEX_T_DEVICES', 'unset'))\n", tmp_path, "t")
    assert (rc, out.strip()) == (0, "unset")
    proof = p._proof(ProofBefore(exception="ValueError", error_id="0" * 16, output=""), ProofAfter(exit=0), "test")
    assert proof.env == ("ERRDEX_T_DEVICES=8",)
    assert plain._proof(ProofBefore(exception="E", error_id="0" * 16, output=""), ProofAfter(exit=0), "x").env == ()


def test_a_watched_run_records_that_the_site_raised_under_another_error(tmp_path: Path) -> None:
    """A site the library catches and raises again ``from None``: the traceback shows only the other
    error, the run's recorded origins show the site (``worker_script --one``); an input that does not
    reach it records nothing there."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "__init__.py").write_text(
        "def _index(x):\n    raise TypeError('not an index')\n\n\n"
        "def shape(x):\n    if isinstance(x, int):\n        return (x,)\n    try:\n        _index(x)\n"
        "    except TypeError:\n        raise ValueError('bad shape') from None\n")
    p = replace(_prover(tmp_path, ()), watch=("lib/__init__.py", 2, 2))
    head = f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\nimport lib\n"
    rc, _, err, raised = p._run(head + "lib.shape('a')\n", tmp_path, "bad")
    assert rc == 1 and "ValueError: bad shape" in err and "TypeError" not in err and raised == "under"
    rc, _, _, raised = p._run(head + "lib.shape(2)\n", tmp_path, "good")
    assert rc == 0 and raised == ""
    # raised and caught, then an unrelated error: the user's error was not raised because of it
    rc, _, _, raised = p._run(head + "try:\n    lib.shape('a')\nexcept ValueError:\n    pass\n1 / 0\n",
                              tmp_path, "other")
    assert rc == 1 and raised == "raised"
    assert not site_raised('["/x/lib/__init__.py", 2, "TypeError", "raised"]\n', "lib/__init__.py", 3, 4)
