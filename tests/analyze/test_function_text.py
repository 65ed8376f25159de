"""The raising function pieced together from the file's snippets (``SnapshotContext.function_text``): rating 12
on a28d found its condition said as "values it works out inside the call", though `dtype = array.mlir_dtype`
for each of the `arrays` passed sits above the raise's own snippet, in the window of a nested helper's raise."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.context import load_context
from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_facts
from errdex.analyze.static.words import inputs_of
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.sources import open_source

FILLER = "".join(f"        regs.append({k})\n" for k in range(22))
PKG = {
    "barrierlike/__init__.py": "from .barrier import barrier as barrier\n",
    "barrierlike/barrier.py": (
        "def barrier(*arrays):\n"
        "    \"\"\"Keeps the arrays computed before what follows.\"\"\"\n\n"
        "    def _repack(regs, reg_ty):\n"
        "        if not regs:\n"
        "            raise AssertionError(f'no registers to repack for {reg_ty}')\n"
        "        return regs\n\n"
        "    regs = []\n"
        "    for array in arrays:\n"
        "        reg_ty = array.registers[0].type\n"
        "        dtype = array.mlir_dtype\n"
        + FILLER +
        "        if dtype.bits < 32:\n"
        "            raise NotImplementedError(array.mlir_dtype)\n"
        "    return _repack(regs, None)\n"),
}


def test_an_assignment_above_the_raises_snippet_is_read_from_another_raises_window(tmp_path: Path) -> None:
    for rel, text in PKG.items():
        (tmp_path / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / rel).write_text(text)
    cat = SqliteCatalog(tmp_path / "c.sqlite")
    try:
        with open_source(str(tmp_path / "src"), repo="example/barrierlike", ref="v1") as tree:
            cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
        snap = cat.snapshots()[0]
        ctx = load_context(cat, snap)
        (site,) = [s for s in ctx.sites if s.exception_name == "NotImplementedError"]
        assert "dtype = array.mlir_dtype" not in site.snippet  # the premise: out of its own window
        text = ctx.function_text(site)
        assert text.startswith("def barrier(*arrays):") and "dtype = array.mlir_dtype" in text, text
        assert text.rstrip().endswith("raise NotImplementedError(array.mlir_dtype)"), text
        f = gather_facts(cat, snap, site, context=ctx)
        assert inputs_of(f, "dtype") == ["arrays"]
        a = analyze_facts(f, ctx)
        # the locals said as what they are of the user's arrays (`dtype` is each array's `mlir_dtype`)
        assert "`array.mlir_dtype.bits` is less than `32` (for each `array` of the `arrays` you pass)" in a.meaning, \
            a.meaning
        assert "inside the call" not in a.meaning, a.meaning
        sol = a.solutions[0].text
        assert sol.startswith("`barrierlike.barrier` does not handle the value the message shows (`array.mlir_dtype`), "
                              "which it refuses when "), sol
        assert "for each `array` of the `arrays` you pass" in sol, sol
    finally:
        cat.close()
