"""``errdex prove --search``'s environment: the search runs where the proof does, with ``--with``'s
requirements (jax's Mosaic GPU modules import absl: without it every entry there failed to import) and
with ``--env``'s variables and the library's own (``RUN_ENV``) on each of its calls."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import errdex.prove.search as search_mod
import errdex.sandbox as sandbox_mod
from errdex.commands.prove_search import run_search_stage
from errdex.prove.search import SearchTarget, run_search


def test_search_environment_has_the_with_requirements(monkeypatch: pytest.MonkeyPatch) -> None:
    specs: list[Any] = []
    monkeypatch.setattr(sandbox_mod, "ensure_environment", lambda spec: specs.append(spec) or "env")
    monkeypatch.setattr(search_mod, "search_all", lambda *a, **k: ([], {}))
    prover = SimpleNamespace(package="jax", snapshot=SimpleNamespace(version="0.10.2", ref="", repo="jax-ml/jax"))
    run_search_stage(prover, lambda: None, [], 1, 1.0, 0, quiet=True,  # type: ignore[arg-type,return-value]
                     with_requirements=("absl-py",))
    assert "absl-py" in specs[0].extra_requirements
    assert any(r.startswith("hypothesis") for r in specs[0].extra_requirements)


def test_search_calls_get_the_proof_run_variables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: list[Any] = []

    def fake_run(req: Any) -> None:
        seen.append(req)
        (tmp_path / "search-out.json").write_text(json.dumps({"results": []}))

    monkeypatch.setattr(search_mod, "run", fake_run)
    env = SimpleNamespace(python=Path("/usr/bin/python3"))
    target = SearchTarget("e" * 16, "jax/x.py", 1, 1, ("jax.x",), (), {}, ())
    run_search(env, "jax", [target], 1.0, 0, tmp_path,  # type: ignore[arg-type]
               {"JAX_TRACEBACK_FILTERING": "off", "XLA_FLAGS": "--xla_force_host_platform_device_count=8"})
    assert seen[0].env["XLA_FLAGS"] == "--xla_force_host_platform_device_count=8"
    req = json.loads((tmp_path / "search-in.json").read_text())
    assert req["adapter"]["array"] and req["call_timeout_s"] > 1.0  # jax's adapter goes with the request
