"""Version inference on real tracebacks: JAX 0.10.2's own test failures against 0.9.2, 0.10.1 and 0.10.2.

The three wheels come from PyPI and are indexed with ``errdex index``; the
truth is read from the wheels themselves, not from errdex: a version fits an
event when, at every frame of the exception object inside ``jax/`` (the
captured ``frames``), its file has the line that 0.10.2's file has.  The top
match must name only versions that fit, and exactly 0.10.2 where only it fits.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from reviewkit import ROOT, errdex, make_env

from errdex.catalog import open_catalog
from errdex.match import explain

VERSIONS = ("0.9.2", "0.10.1", "0.10.2")
DATA = ROOT / "bench" / "data" / "jax-0.10.2.jsonl"
pytestmark = [pytest.mark.network, pytest.mark.slow]


def _wheel_lines(wheel: Path) -> dict[str, list[str]]:
    with zipfile.ZipFile(wheel) as z:
        return {n: z.read(n).decode("utf-8", "replace").replace("\r\n", "\n").split("\n")
                for n in z.namelist() if n.startswith("jax/") and n.endswith(".py")}


@pytest.fixture(scope="module")
def jax3(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, dict[str, list[str]]]]:
    base = tmp_path_factory.mktemp("jax3")
    env = make_env(base / "home")
    db = str(base / "catalog.sqlite")
    files = {}
    for v in VERSIONS:
        proc = subprocess.run([sys.executable, "-m", "pip", "download", f"jax=={v}", "--no-deps", "--only-binary",
                               ":all:", "-q", "-d", str(base / v)], capture_output=True, text=True, timeout=600)
        wheels = list((base / v).glob(f"jax-{v}-*.whl"))
        if not wheels:
            pytest.skip(f"cannot download jax=={v}: {proc.stderr.strip()[-300:]}")
        files[v] = _wheel_lines(wheels[0])
        done = errdex("index", str(wheels[0]), "--repo", "jax-ml/jax", "--ref", f"jax-v{v}", "--db", db,
                      "-j", "2", "--json", env=env, timeout=900)
        assert done.returncode == 0, done.stderr
    return db, files


def _fitting(frames: list[list[object]], files: dict[str, dict[str, list[str]]]) -> set[str]:
    ref = files["0.10.2"]
    out = set()
    for v, lines in files.items():
        ok = True
        for path, line, _ in frames:
            if not str(path).startswith("jax/"):
                continue
            n = int(str(line))
            want, have = ref.get(str(path)), lines.get(str(path))
            if want is None or have is None or n > len(have) or have[n - 1].strip() != want[n - 1].strip():
                ok = False
                break
        if ok:
            out.add(v)
    return out


def test_the_top_match_names_only_the_versions_whose_files_fit(
        jax3: tuple[str, dict[str, dict[str, list[str]]]]) -> None:
    db, files = jax3
    catalog = open_catalog(db)
    checked = only = several = 0
    wrong: list[str] = []
    try:
        for raw in DATA.read_text().splitlines():
            ev = json.loads(raw)
            lib = ev.get("innermost_lib")
            if not lib or lib != ev.get("innermost") or "removed its internal frames" in ev["traceback"]:
                continue  # raised outside jax, or frames filtered away: the truth is unknown
            result = explain(catalog, ev["traceback"], top=1)
            if not result.matches or result.matches[0].method == "fuzzy":
                continue
            want = _fitting(ev["frames"], files)
            got = {v.version for v in result.matches[0].versions}
            checked += 1
            if not got or not got <= want or (want == {"0.10.2"} and got != want):
                wrong.append(f"{lib}: fits {sorted(want)}, named {sorted(got)}")
            only += want == {"0.10.2"}
            several += len(want) > 1
    finally:
        catalog.close()
    assert checked >= 300 and only >= 250 and several >= 20, (checked, only, several)
    assert wrong == []
