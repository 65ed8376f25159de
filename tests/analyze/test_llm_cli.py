"""``errdex analyze --backend openai`` run as a program against the local server."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.catalog import open_catalog

from .fake_llm_server import FakeLLMServer, fake_llm_server
from .llm_helpers import FIXTURES


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with fake_llm_server() as s:
        yield s


def errdex(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "errdex", *args], env=env, capture_output=True, text=True,
                          timeout=120)


def test_analyze_openai_cli(tmp_path: Path, server: FakeLLMServer) -> None:
    repo = tmp_path / "llm_injlib"
    shutil.copytree(FIXTURES / "llm_injlib", repo)
    db = tmp_path / "cat" / "catalog.sqlite"
    env = {**os.environ, "ERRDEX_HOME": str(tmp_path / "home"), "ERRDEX_DB": str(db),
           "ERRDEX_LLM_BASE_URL": server.base_url, "ERRDEX_LLM_API_KEY": "k", "ERRDEX_LLM_BACKOFF": "0.01"}
    env.pop("ERRDEX_LLM_CACHE", None)
    done = errdex(["index", str(repo), "--repo", "acme/injlib", "--ref", "0.3.1"], env)
    assert done.returncode == 0, done.stderr

    dry = errdex(["analyze", "--backend", "openai", "--model", "fake-model", "--dry-run"], env)
    assert dry.returncode == 0, dry.stderr
    assert "would send 4 requests" in dry.stdout and "prompt tokens ~" in dry.stdout
    assert server.requests == []
    assert not (db.parent / "llm_cache.sqlite").exists()  # a dry run writes nothing, not even the cache

    run = errdex(["analyze", "--backend", "openai", "--model", "fake-model"], env)
    assert run.returncode == 0, run.stderr
    assert "requests 4 for 4 errors" in run.stdout and "pages: 4 model-written" in run.stdout
    assert len(server.requests) == 4 and all(r["model"] == "fake-model" for r in server.requests)
    assert (db.parent / "llm_cache.sqlite").is_file()  # the cache sits next to the catalog

    cat = open_catalog(str(db))
    try:
        (snap,) = cat.snapshots()
        for site in cat.sites(snap.key):
            a = cat.get_analysis(site.error_id, snap.key)
            assert a is not None and a.backend == "openai:fake-model" and a.model_sections
    finally:
        cat.close()

    verify = errdex(["verify"], env)  # the model's samples pass the same check as the static ones
    assert verify.returncode == 0 and " 0 failure(s)" in verify.stdout, verify.stdout

    again = errdex(["analyze", "--backend", "openai", "--model", "fake-model"], env)
    assert again.returncode == 0 and "cache hits 4 (100%)" in again.stdout
    assert len(server.requests) == 4
