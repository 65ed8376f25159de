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
from types import ModuleType

import pytest

from errdex.catalog import open_catalog
from errdex.model import ErrorSite
from errdex.prove import search_afters, search_plan
from errdex.prove.kernel_forms import (
    KERNEL_FORMS,
    KernelForm,
    kernel_entries,
    kernel_form,
    kernel_label,
    with_kernel,
)
from errdex.prove.search import SEARCH_SCRIPT, SearchTarget, targets_for
from errdex.prove.search_frame import FRAME, as_written, form_of, frame_for
from errdex.prove.search_strategies import OMIT

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
    return _search_target(pkg, tmp, target, table)


def _search_target(pkg: Path, tmp: Path, target: SearchTarget,
                   table: dict[str, tuple[KernelForm, ...]]) -> dict[str, object]:
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


# kernlib's GPU kernels: a body of operations on scratch refs of tile memory, lowered for GPU
TILES = {"kernlib": (KernelForm(
    prefixes=("kernlib/lowlevel.py",), form="def _kernel():\n    return {call}\nkernlib.lower(kernlib.kernel(_kernel), 'gpu')",
    label="in a kernel lowered for GPU", marker="kernlib.lower(kernlib.kernel(_kernel), 'gpu')", imports=("kernlib",),
    body="def _kernel(_tile):\n    {call}\nkernlib.lower(kernlib.kernel(_kernel, scratch=[kernlib.TILE((8, 8))]), 'gpu')",
    refs=("_tile.at[:, 0:4]", "_tile", "_tile.at[0]"), body_marker="def _kernel(_tile)", entries=("kernlib.",)),)}
TILE_TEXT = "can only be sliced, not indexed"


def test_a_check_of_a_kernels_refs_is_reached_by_the_kernels_operation_on_them(
        indexed: tuple[Path, str], tmp_path: Path) -> None:
    """``TileRef.slice`` raises only for a ``TileRef`` the GPU lowering makes (its ``Handle`` exists only then), so
    its own public name cannot be called; ``kernlib.load_tile`` reaches it (load_tile -> load_tile_p -> the GPU
    rule -> ``TileRef.slice``), given a ref of the kernel's scratch memory: the int index raises, the slice lowers
    clean."""
    pkg, db = indexed
    key, site = _site(db, TILE_TEXT)
    cat = open_catalog(db)
    try:
        [target] = targets_for(cat, key, [site.error_id], "kernlib", kernels=TILES)
        [without] = targets_for(cat, key, [site.error_id])  # no package: no kernel form, its own name only
    finally:
        cat.close()
    assert target.entries[0] == "kernlib.lowlevel.TileRef.slice" and "kernlib.load_tile" in target.entries
    assert "kernlib.load_tile" not in without.entries
    assert kernel_entries("kernlib", site.path, TILES) == ("kernlib.",) and kernel_entries("kernlib", site.path, TABLE) == ()
    got = _search_target(pkg, tmp_path, target, TILES)
    before, afters = str(got["before"]), [str(a) for a in got["afters"]]  # type: ignore[attr-defined]
    assert "kernlib.load_tile(src=_tile.at[0])" in before and "def _kernel(_tile)" in before, before
    r = _run(before, pkg, tmp_path)
    assert TILE_TEXT in r.stderr and "_load_tile_lowering_rule" in r.stderr  # raised while lowered for GPU
    assert afters and "def _kernel(_tile)" in afters[0] and "_tile.at[0]" not in afters[0]
    assert "_tile.at[:, 0:4]" in afters[0]  # the slice first: every axis a slice
    assert _run(afters[0], pkg, tmp_path).returncode == 0
    assert kernel_label("kernlib", before, TILES) == "in a kernel lowered for GPU"
    (tmp_path / "plain").mkdir()
    no_body = {"kernlib": (replace(TILES["kernlib"][0], body="", refs=()),)}
    assert not _search_target(pkg, tmp_path / "plain", target, no_body)["before"]  # no kernel gives it a ref


def test_form_of_puts_a_call_given_a_ref_in_the_kernel_of_refs() -> None:
    adapter: dict[str, object] = {"forms": ["run({call})"]}
    frame_for({"kernel": {"form": "K({call})", "body": "B({call})", "refs": ["_tile.at[0]", "_tile"]}}, adapter, [])
    assert [w for w, _ in FRAME["wrappers"]] == ["{call}", "run({call})", "K({call})", "B({call})"]
    assert FRAME["kernel_values"][:2] == ["_tile.at[0]", "_tile"]
    assert form_of(["_tile.at[0]", "1"], 0) == 3 and form_of(["_tiles", "1"], 1) == 1  # a ref's name, whole words
    assert form_of(["1"], 3) == 2  # no ref given: never the kernel of refs (its refs are its only values)
    frame_for({"kernel": {"form": "K({call})"}}, adapter, [])
    assert FRAME["body_at"] == -1 and form_of(["_tile"], 2) == 2


def test_the_kernel_body_reaches_tmem_for_jax() -> None:
    gpu = kernel_form("jax", "jax/experimental/mosaic/gpu/tcgen05.py")
    assert gpu is not None and "{call}" in gpu.body and gpu.body_marker in gpu.body and "TMEM(" in gpu.body
    assert "_tmem.at[0]" in gpu.refs and gpu.refs.index("_tmem.at[:, 0:64]") < gpu.refs.index("_tmem.at[0]")
    assert kernel_entries("jax", "jax/experimental/mosaic/gpu/tcgen05.py") == ("jax.experimental.pallas.mosaic_gpu.", "jax.lax.")
    assert kernel_label("jax", gpu.body) == gpu.label
    # ``jax.jit`` drops a kernel with no output, and its lowering rules never run: both kernels have one
    assert "out_type=()" not in gpu.form and "out_type=()" not in gpu.body and "def _kernel(_o, _ref)" in gpu.form
    assert any("float16" in v for v in gpu.values)  # a 16-bit tile: two values a register


class _Runs:
    """A stand-in for the search's runner: a call given the 16-bit tile raises, any other runs clean."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def run(self, src: str) -> BaseException | None:
        self.ran.append(src)
        return NotImplementedError("f16") if "tile16" in src else None

    def got_past(self, exc: BaseException | None) -> bool:
        return False


def test_a_positional_kernel_value_is_varied_to_another_of_its_kind() -> None:
    """a28d: ``optimization_barrier(zeros(f16))`` in a Mosaic GPU kernel; the operand is given by position, and only
    an array the adapter made had variants, so the only clean calls were the same call outside the kernel.  Now a
    kernel's other value of the same kind (its 32-bit tile) is tried, never a ref (which would move the call)."""
    frame_for({"kernel": {"form": "K({call})", "body": "B({call})", "refs": ["_tile.at[0]"],
                          "values": ["lib.tile16()", "lib.tile32()"]}}, {}, [])
    plan = {"module": "lib", "call": "barrier", "ctor": None, "args": [("*operand", None, list(FRAME["kernel_values"]))]}
    runs = _Runs()
    out = search_afters.clean_variants(runs, {"plan": plan, "ctor": None, "args": [("*operand", "lib.tile16()")]},  # type: ignore[arg-type]
                                       0, {}, nearby=False)
    assert [c[0] for c in out] == ["import lib\n\nlib.barrier(lib.tile32())\n"]
    assert not any("_tile" in r for r in runs.ran)  # the ref is no variant of an array


class _Pair(_Runs):
    """``f(vec=5)`` raises here (any ``tile``); ``tile=5`` raises later; the rest runs clean."""

    def run(self, src: str) -> BaseException | None:
        self.ran.append(src)
        return ValueError("here") if "vec=5" in src else ValueError("later") if "tile=5" in src else None

    def at_site(self, exc: BaseException | None) -> bool:
        return str(exc) == "here"


def test_a_pair_that_differs_in_two_arguments_keeps_only_the_one_that_matters() -> None:
    """027b: the search's before gave ``tile_size=5, vec_size=5`` and the after left both out (dropping ``vec_size``
    alone got past the check, and ``tile_size=5`` stopped the call later); the before takes the after's
    ``tile_size`` (it still raises here), so the pair differs in ``vec_size`` only."""
    frame_for({}, {}, [])
    plan = {"module": "lib", "call": "f", "ctor": None, "args": []}
    bad = ("", None, [("n", "5"), ("tile", "5"), ("vec", "5")])
    good = ("", None, [("n", "5"), ("tile", OMIT), ("vec", OMIT)])
    b, g = search_afters.simplify(_Pair(), plan, bad, good)  # type: ignore[arg-type]
    assert b[0] == "import lib\n\nlib.f(vec=5)\n" and g[0] == "import lib\n\nlib.f()\n"  # ``n`` alike: left out


def test_a_pair_that_keeps_what_raised_keeps_the_names_the_guards_read() -> None:
    """An after that keeps what raised (``keep``: the names the guards read) shows it: ``n``, read by a guard, is not
    left out of both sides though the pair still holds without it; ``tile``, read by none, is."""
    frame_for({}, {}, [])
    plan = {"module": "lib", "call": "f", "ctor": None, "args": []}
    bad = ("", None, [("n", "5"), ("m", "1"), ("vec", "5")])
    good = ("", None, [("n", "5"), ("m", "1"), ("vec", OMIT)])
    b, g = search_afters.simplify(_Pair(), plan, bad, good, {"n"})  # type: ignore[arg-type]
    assert b[0] == "import lib\n\nlib.f(n=5, vec=5)\n" and g[0] == "import lib\n\nlib.f(n=5)\n"


def test_a_kernel_form_names_its_mesh_axis_and_keeps_its_values_from_plain_typed_parameters() -> None:
    """027b: ``reduce_scatter(x, *, axis_name, num_blocks: int | None, ...)`` under ``shard_map`` over a mesh with
    axis ``'x'``: ``axis_name`` gets the form's axis first; ``num_blocks`` (an int) none of the form's arrays."""
    def reduce_scatter(x: object, *, axis_name: object, num_blocks: int | None = None) -> None: ...

    frame_for({"kernel": {"form": "K({call})", "values": ["lib.tile()"], "named": {"axis_name": ["'x'"]}}}, {}, [])
    lib = ModuleType("scatterlib")
    lib.reduce_scatter = reduce_scatter  # type: ignore[attr-defined]
    sys.modules["scatterlib"] = lib
    try:
        plan = search_plan.signature_plan("scatterlib.reduce_scatter", [], {}, {}, {})
    finally:
        del sys.modules["scatterlib"]
    assert plan is not None
    mine = {name: values for name, _, values in plan["args"]}
    assert mine["x"] == ["lib.tile()"] and mine["axis_name"] == ["'x'"] and mine["num_blocks"] == []
    jax = kernel_form("jax", "jax/experimental/pallas/ops/gpu/reduce_scatter_mgpu.py")
    assert jax is not None and "jax.shard_map(" in jax.form and "lowering_platforms=('cuda',)" in jax.form
    assert dict(jax.named)["axis_name"] == ("'x'",) and "'x'" in jax.form and "CUDA on a CPU" in jax.label


class _Written(_Pair):
    """``meta(x=3)`` raises here in any form; the kernel's hit is the one the search made."""

    def __init__(self) -> None:
        super().__init__()
        self.hits: list[tuple[int, str, dict[str, object]]] = []

    def run(self, src: str) -> BaseException | None:
        self.ran.append(src)
        return ValueError("here") if "x=3" in src else None


def test_a_hit_made_in_a_kernel_is_made_again_as_written() -> None:
    """b806: ``format_tcgen05_sparse_metadata`` is a plain check in Mosaic GPU's files, hit in the kernel too; its
    result is no value a kernel lowers (a uint2 ``transpose``), so the kernel's hit has no clean variant, and the
    same call made as written is tried as a hit of its own (it raises here that way too)."""
    frame_for({"kernel": {"form": "K({call})"}}, {}, [])
    plan = {"module": "lib", "call": "meta", "ctor": None, "args": []}
    s = _Written()
    kernel_hit = search_plan.render("lib", "meta", None, [("x", "3"), ("@wrap", "1")])
    assert kernel_hit == "import lib\n\nK(lib.meta(x=3))\n"
    s.hits = [(len(kernel_hit), kernel_hit, {"plan": plan, "ctor": None, "args": (("x", "3"), ("@wrap", "1"))})]
    [(_, src, how)] = as_written(s, search_plan.render)  # type: ignore[arg-type]
    assert src == "import lib\n\nlib.meta(x=3)\n" and dict(how["args"])["@wrap"] == "0"  # type: ignore[call-overload]
    s.hits = [(1, "import lib\n\nlib.meta(x=3)\n", {"plan": plan, "ctor": None, "args": (("x", "3"), ("@wrap", "0"))})]
    assert as_written(s, search_plan.render) == []  # a hit made as written already: nothing to add  # type: ignore[arg-type]
