"""prove --env: NAME=VALUE pairs every example run gets (the sandboxed script sees them), recorded in
the proof so that verify --execute replays them."""

from __future__ import annotations

import sys
from pathlib import Path

from errdex.commands.prove import parse_env
from errdex.model import ProofAfter, ProofBefore, Snapshot
from errdex.prove.engine import Prover
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
    rc, out, _ = p._run("import os\nprint(os.environ.get('ERRDEX_T_DEVICES', 'unset'))\n", tmp_path, "s")
    assert (rc, out.strip()) == (0, "8")
    plain = _prover(tmp_path, ())
    rc, out, _ = plain._run("import os\nprint(os.environ.get('ERRDEX_T_DEVICES', 'unset'))\n", tmp_path, "t")
    assert (rc, out.strip()) == (0, "unset")
    proof = p._proof(ProofBefore(exception="ValueError", error_id="0" * 16, output=""), ProofAfter(exit=0), "test")
    assert proof.env == ("ERRDEX_T_DEVICES=8",)
    assert plain._proof(ProofBefore(exception="E", error_id="0" * 16, output=""), ProofAfter(exit=0), "x").env == ()
