"""Related errors by the exception class the package defines (``analyze/related.py``): rating 6 found
click's ``Exit`` page with no related errors, though ``Context.exit`` raises the same class elsewhere."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.context import load_context
from errdex.analyze.related import related_errors
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.sources import open_source

PKG = {
    "exitlike/__init__.py": "from .exceptions import Exit\nfrom .core import Context, make_context\n",
    "exitlike/exceptions.py": "class Exit(RuntimeError):\n    def __init__(self, code=0):\n        self.code = code\n",
    "exitlike/core.py": (
        "from .exceptions import Exit\n\n\nclass Context:\n    def exit(self, code=0):\n        raise Exit(code)\n\n\n"
        "def make_context(args):\n    if '--help' in args:\n        raise Exit(0)\n    if not args:\n"
        "        raise TypeError('args are required')\n    return Context()\n"),
    "exitlike/other.py": "def parse(x):\n    if not x:\n        raise TypeError('x is required here')\n",
}


def test_raisers_of_the_same_package_class_are_related_and_builtins_are_not(tmp_path: Path) -> None:
    for rel, text in PKG.items():
        (tmp_path / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / rel).write_text(text)
    cat = SqliteCatalog(tmp_path / "c.sqlite")
    try:
        with open_source(str(tmp_path / "src"), repo="example/exitlike", ref="v1") as tree:
            cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
        snap = cat.snapshots()[0]
        ctx = load_context(cat, snap)
        sites = {(s.qualname, s.exception_name): s for s in cat.sites(snap.key)}
        in_make = sites[("make_context", "Exit")]
        reasons = [r.reason for r in related_errors(in_make, ctx)]
        assert any(r.startswith("raises the same `Exit` (`exitlike.exceptions.Exit`), in `Context.exit`")
                   for r in reasons), reasons
        type_error = sites[("parse", "TypeError")]
        assert not any("raises the same" in r.reason for r in related_errors(type_error, ctx))
    finally:
        cat.close()


def test_the_class_is_named_where_it_is_defined_between_names_of_equal_length(tmp_path: Path) -> None:
    from errdex.analyze.facts import exception_fact

    files = {**PKG, "exitlike/__init__.py": "from .core import Context, make_context\n"}  # Exit not re-exported
    for rel, text in files.items():
        (tmp_path / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / rel).write_text(text)
    cat = SqliteCatalog(tmp_path / "c.sqlite")
    try:
        with open_source(str(tmp_path / "src"), repo="example/exitlike", ref="v1") as tree:
            cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
        snap = cat.snapshots()[0]
        ctx = load_context(cat, snap)
        site = next(s for s in cat.sites(snap.key) if s.qualname == "Context.exit")
        # `exitlike.core.Exit` (core imports it) and `exitlike.exceptions.Exit` are equally short
        assert exception_fact(site, ctx).public_name == "exitlike.exceptions.Exit"
    finally:
        cat.close()
