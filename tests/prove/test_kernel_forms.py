"""The search's kernel forms (prove/kernel_forms.py) on a small kernel library (tests/fixtures/prove_kernlib):
a raise in a platform's lowering rule is reached by no call made as written (the operation runs its host
implementation), only by the same call inside a kernel lowered for that platform; the search finds it
there, and the after is the same kernel with one argument changed, which lowers clean."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from errdex.catalog import open_catalog
from errdex.model import ErrorSite
from errdex.prove.kernel_forms import KERNEL_FORMS, KernelForm, kernel_form, kernel_label, with_kernel
from errdex.prove.search import SEARCH_SCRIPT, targets_for

from .provekit import cli

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_kernlib"

TABLE = {"kernlib": (KernelForm(  # kernlib's, as jax's is jax's: how a kernel is lowered for TPU
    prefixes=("kernlib/_lowering/tpu.py",), form="def _kernel():\n    return {call}\nkernlib.lower(kernlib.kernel(_kernel), 'tpu')",
    label="in a kernel lowered for TPU", marker="kernlib.lower(", imports=("kernlib",)),)}
TEXT = "Invalid dimensions for TPU rev"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("kern")
    shutil.copytree(FIXTURE, root / "kernlib")
    db = str(root / "c.sqlite")
    r = cli("index", str(root / "kernlib"), "--repo", "acme/kernlib", "--ref", "1.0", "--db", db, home=root / "home")
    assert r.returncode == 0, r.stderr
    return root / "kernlib", db


def _site(db: str, text: str = TEXT) -> tuple[str, ErrorSite]:
    cat = open_catalog(db)
    try:
        key = cat.snapshots("acme/kernlib")[-1].key
        return key, next(s for s in cat.sites(key) if text in s.template.render())
    finally:
        cat.close()


def _search(pkg: Path, db: str, tmp: Path, table: dict[str, tuple[KernelForm, ...]], text: str = TEXT,
            entry: str = "kernlib.rev") -> dict[str, object]:
    key, site = _site(db, text)
    cat = open_catalog(db)
    try:
        [target] = targets_for(cat, key, [site.error_id])
    finally:
        cat.close()
    assert target.entries == (entry,)  # rev -> rev_p -> the rule registered for it
    req, out = tmp / "in.json", tmp / "out.json"
    req.write_text(json.dumps({"package": "kernlib", "budget_s": 5.0, "seed": 0, "adapter": {},
                               "targets": [with_kernel(target.request(), "kernlib", target.path, table)]}))
    (tmp / "work").mkdir(exist_ok=True)
    r = subprocess.run([sys.executable, str(SEARCH_SCRIPT), str(req), str(out)], cwd=tmp / "work",
                       env={**os.environ, "PYTHONPATH": str(pkg)}, capture_output=True, text=True, timeout=300,
                       check=False)
    assert r.returncode == 0, r.stderr
    [res] = json.loads(out.read_text())["results"]
    return dict(res)


def _run(src: str, pkg: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    (tmp / "s.py").write_text(src)
    return subprocess.run([sys.executable, str(tmp / "s.py")], env={**os.environ, "PYTHONPATH": str(pkg)},
                          capture_output=True, text=True, timeout=60, check=False)


def test_the_search_finds_the_lowering_rules_raise_in_a_kernel(indexed: tuple[Path, str], tmp_path: Path) -> None:
    pkg, db = indexed
    got = _search(pkg, db, tmp_path, TABLE)
    before, afters = str(got["before"]), [str(a) for a in got["afters"]]  # type: ignore[attr-defined]
    assert "kernlib.lower(kernlib.kernel(_kernel), 'tpu')" in before and "kernlib.rev(" in before
    r = _run(before, pkg, tmp_path)
    assert TEXT in r.stderr and "_rev_lowering_rule" in r.stderr  # raised by the rule, while lowering
    assert afters and all("kernlib.lower(" in a for a in afters)  # the same kernel, one argument changed
    assert _run(afters[0], pkg, tmp_path).returncode == 0
    assert kernel_label("kernlib", before, TABLE) == "in a kernel lowered for TPU"


def test_a_plain_check_in_a_kernels_files_is_proven_as_written(indexed: tuple[Path, str], tmp_path: Path) -> None:
    """``Launch(threads=1)`` raises as written; the kernel form covers its file too, but a ``Launch`` is no value a
    kernel stores, so only a call as written runs clean: the kernel form is one form of the call, not the only one."""
    pkg, db = indexed
    wide = {"kernlib": (replace(TABLE["kernlib"][0], prefixes=("kernlib/_lowering/",)),)}
    got = _search(pkg, db, tmp_path, wide, "both set or both None", "kernlib.Launch")
    before, afters = str(got["before"]), [str(a) for a in got["afters"]]  # type: ignore[attr-defined]
    assert "kernlib.Launch(" in before and "kernlib.lower(" not in before, before
    assert afters and "kernlib.lower(" not in afters[0] and _run(afters[0], pkg, tmp_path).returncode == 0
    (tmp_path / "rev").mkdir()
    rev = _search(pkg, db, tmp_path / "rev", wide)  # the lowering rule's raise is still found in the kernel
    assert "kernlib.lower(kernlib.kernel(_kernel), 'tpu')" in str(rev["before"]) and rev["afters"]


def test_without_the_kernel_form_the_search_finds_nothing(indexed: tuple[Path, str], tmp_path: Path) -> None:
    pkg, db = indexed
    assert not _search(pkg, db, tmp_path, {})["before"]  # rev as written runs its host implementation


def test_jax_sites_get_their_platforms_lowering() -> None:
    sc = kernel_form("jax", "jax/_src/pallas/mosaic/sc_lowering.py")
    tpu = kernel_form("jax", "jax/_src/pallas/mosaic/lowering.py")
    gpu = kernel_form("jax", "jax/experimental/mosaic/gpu/tcgen05.py")
    assert sc is not None and "tpu_sc.VectorSubcoreMesh(" in sc.form and "'tpu'" in sc.form  # longest prefix
    assert tpu is not None and tpu is not sc and "lowering_platforms=('tpu',)" in tpu.form
    assert gpu is not None and "lowering_platforms=('cuda',)" in gpu.form
    assert kernel_form("jax", "jax/_src/lax/lax.py") is None and kernel_form("click", "click/core.py") is None
    assert all("{call}" in k.form and k.marker in k.form for k in KERNEL_FORMS["jax"])
    assert kernel_label("jax", sc.form) == sc.label and kernel_label("jax", "import jax\njax.lax.rev(x, (1,))") == ""
    assert with_kernel({"a": 1}, "jax", "jax/_src/lax/lax.py") == {"a": 1}
