"""Related errors through exception classes of one family (rating 8, 5b54): click's `Exit` relates to `Abort`,
the leaf class defined next to it on the same base (`RuntimeError`)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.classfamily import class_siblings
from errdex.analyze.context import load_context
from errdex.analyze.related import related_errors
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.sources import open_source

PKG = {
    "signals/__init__.py": "from .exceptions import Abort, Exit, UsageError, BadOption\nfrom .core import Context\n",
    "signals/exceptions.py": (
        "class UsageError(Exception):\n    \"\"\"The command line is wrong.\"\"\"\n\n\n"
        "class BadOption(UsageError):\n    \"\"\"An option is wrong.\"\"\"\n\n\n"
        "class Abort(RuntimeError):\n    \"\"\"Signals the program to abort.\"\"\"\n\n\n"
        "class Exit(RuntimeError):\n    \"\"\"Signals the program to exit with a code.\"\"\"\n\n"
        "    def __init__(self, code=0):\n        self.exit_code = code\n\n\n"
        "class Lonely(ValueError):\n    \"\"\"Another base.\"\"\"\n"),
    "signals/core.py": (
        "from .exceptions import Abort, BadOption, Exit, Lonely, UsageError\n\n\n"
        "class Context:\n"
        "    def exit(self, code=0):\n        raise Exit(code)\n\n"
        "    def abort(self):\n        raise Abort()\n\n"
        "    def fail(self, message):\n        raise UsageError(message)\n\n"
        "    def bad(self, name):\n        raise BadOption(f'no such option {name}')\n\n"
        "    def lonely(self, value):\n        if value < 0:\n            raise Lonely('value must not be negative')\n"),
}


def test_leaf_classes_defined_side_by_side_on_one_base_relate_their_raises(tmp_path: Path) -> None:
    for rel, text in PKG.items():
        (tmp_path / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / rel).write_text(text)
    cat = SqliteCatalog(tmp_path / "c.sqlite")
    with open_source(str(tmp_path / "src"), repo="example/signals", ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    snap = cat.snapshots()[0]
    ctx = load_context(cat, snap)
    try:
        assert [c.qualname for c in class_siblings("signals.exceptions.Exit", ctx.classes)] == [
            "signals.exceptions.Abort"]
        assert class_siblings("signals.exceptions.UsageError", ctx.classes) == ()  # a base: a hierarchy, not kin
        assert class_siblings("signals.exceptions.Lonely", ctx.classes) == ()  # next to Exit, another base
        by_qual = {s.qualname: s for s in ctx.sites}
        rel = related_errors(by_qual["Context.exit"], ctx)
        assert [r.error_id for r in rel] == [by_qual["Context.abort"].error_id], rel
        assert rel[0].reason == ("raises `Abort` (`signals.exceptions.Abort`), the class defined next to `Exit` on "
                                 "the same base `RuntimeError`, in `Context.abort`")
        assert not any(r.error_id == by_qual["Context.exit"].error_id
                       for r in related_errors(by_qual["Context.lonely"], ctx))
    finally:
        cat.close()
