"""Related errors do not depend on the hash seed (``analyze/related.py``).

The "similar message in another module" search looks up the two rarest words of the message; words equally
rare were taken in the order of a frozenset, which follows ``PYTHONHASHSEED``, so two analyses of one catalog
gave different Related sections (pages28 saw it on jax).  The word itself now breaks the tie."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PKG = {
    "woodlike/__init__.py": "",
    "woodlike/grain.py": "def check(x):\n    if x:\n        raise ValueError('amber birch cedar')\n",
    "woodlike/a.py": "def fa(x):\n    if x:\n        raise KeyError('amber')\n",
    "woodlike/b.py": "def fb(x):\n    if x:\n        raise KeyError('birch')\n",
    "woodlike/c.py": "def fc(x):\n    if x:\n        raise KeyError('cedar')\n",
}

SCRIPT = """
import sys
from errdex.analyze.context import load_context
from errdex.analyze.related import related_errors
from errdex.catalog import SqliteCatalog
cat = SqliteCatalog(sys.argv[1])
snap = cat.snapshots()[0]
ctx = load_context(cat, snap)
site = next(s for s in cat.sites(snap.key) if s.template.render() == 'amber birch cedar')
print(sorted(r.title for r in related_errors(site, ctx) if 'another module' in r.reason))
"""


def test_equally_rare_words_are_taken_in_the_same_order_under_any_hash_seed(tmp_path: Path) -> None:
    from errdex.catalog import SqliteCatalog
    from errdex.extract import extract_tree
    from errdex.sources import open_source

    for rel, text in PKG.items():
        (tmp_path / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / rel).write_text(text)
    db = tmp_path / "c.sqlite"
    cat = SqliteCatalog(db)
    with open_source(str(tmp_path / "src"), repo="example/woodlike", ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    outs = set()
    for seed in ("0", "1", "2", "3", "4", "5"):
        run = subprocess.run([sys.executable, "-c", SCRIPT, str(db)], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed})
        outs.add(run.stdout.strip())
    assert len(outs) == 1, outs
    (out,) = outs
    assert "amber" in out and "birch" in out and "cedar" not in out, out  # the two first words, by the word
