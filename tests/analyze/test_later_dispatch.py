"""What the call handles of another argument, from a later dispatch of the same function
(``analyze/static/nextchecks.later_dispatch``): rating 12 on b806 asked Solutions to say "`operand_dtype` must be
an 8- or 16-bit type", which the function's later ``if bitsize == 8: ... elif bitsize == 16: ... else: raise``
proves, where the proven example changed `operand_dtype` and Solutions did not say why."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.context import load_context
from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_facts
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.sources import open_source

PKG = {
    "metalike/__init__.py": "from .meta import format_meta as format_meta, format_other as format_other\n",
    "metalike/meta.py": (
        "def itemsize_bits(dtype):\n    return 8 * dtype.itemsize\n\n\n"
        "def format_meta(meta, operand_dtype):\n"
        "    \"\"\"Formats the metadata.\"\"\"\n"
        "    m, k, _2 = meta.shape\n"
        "    if _2 != 2:\n"
        "        raise ValueError(f'Expected the trailing dimension of the metadata to be 2, got: {_2}')\n"
        "    bitsize = itemsize_bits(operand_dtype)\n"
        "    if bitsize == 8:\n"
        "        out = meta.reshape(m, k)\n"
        "    elif bitsize == 16:\n"
        "        out = meta.reshape(k, m)\n"
        "    else:\n"
        "        raise NotImplementedError(f'Sparse metadata format not implemented for {operand_dtype=}')\n"
        "    return out\n\n\n"
        "def format_other(meta, scale):\n"
        "    \"\"\"Formats other metadata.\"\"\"\n"
        "    if meta.ndim != 3:\n"
        "        raise ValueError(f'Expected metadata to be 3-dimensional, got {meta.ndim}')\n"
        "    mode = pick(scale)\n"
        "    if mode == 1:\n"
        "        return meta\n"
        "    elif mode == 2 and scale > 4:\n"
        "        return meta\n"
        "    else:\n"
        "        raise NotImplementedError(f'no format for mode {mode} of the metadata')\n\n\n"
        "def pick(scale):\n    return scale\n"),
}


def _pages(tmp_path: Path) -> dict[str, object]:
    for rel, text in PKG.items():
        (tmp_path / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / rel).write_text(text)
    cat = SqliteCatalog(tmp_path / "c.sqlite")
    with open_source(str(tmp_path / "src"), repo="example/metalike", ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    snap = cat.snapshots()[0]
    ctx = load_context(cat, snap)
    out = {s.template.render()[:16]: analyze_facts(gather_facts(cat, snap, s, context=ctx), ctx) for s in ctx.sites}
    cat.close()
    return out


def test_a_later_dispatch_on_another_argument_is_what_the_call_also_needs(tmp_path: Path) -> None:
    pages = _pages(tmp_path)
    texts = [s.text for s in pages["Expected the tra"].solutions]  # type: ignore[attr-defined]
    assert any(t.startswith("Once that holds, `metalike.format_meta` also needs `operand_dtype` to be one it handles: "
                            "`itemsize_bits(operand_dtype)` is `8` or `16` (else it raises `NotImplementedError` at "
                            "line ") for t in texts), texts
    # a dispatch that also tests something else (`scale > 4`) proves no list of handled values: nothing said
    other = [s.text for s in pages["Expected metadat"].solutions]  # type: ignore[attr-defined]
    assert not any(t.startswith("Once that holds") for t in other), other
