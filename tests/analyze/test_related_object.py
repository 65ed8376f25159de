"""Related errors of the object an error is about (``analyze/related.object_raises``): rating 12 asked 03ef
(`ProgressBar.__init__`) to name the `ProgressBar`'s other raises and a1ee (`issubclass(guessed, ParamType)`)
to link the `BadParameter` that `ParamType.fail` raises; an unrelated class's raises stay out."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.context import load_context
from errdex.analyze.related import related_errors
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.sources import open_source

PKG = {
    "barlike/__init__.py": "from ._impl import Grid\nfrom .termui import progressbar\nfrom .types import ParamType, convert_type\n",
    "barlike/exceptions.py": "class BadParameter(ValueError):\n    pass\n",
    "barlike/_impl.py": (
        "class ProgressBar:\n"
        "    def __init__(self, iterable=None, length=None):\n"
        "        if iterable is None and length is None:\n"
        "            raise TypeError('iterable or length is required')\n"
        "        if length is not None and length < 0:\n"
        "            raise ValueError('length must be positive or zero')\n"
        "        self.entered = False\n\n"
        "    def __iter__(self):\n"
        "        if not self.entered:\n"
        "            raise RuntimeError('You need to use progress bars in a with block.')\n"
        "        return iter(())\n\n\n"
        "class Grid:\n"
        "    def __init__(self, n):\n"
        "        if n < 1:\n"
        "            raise ValueError('a grid needs at least one cell')\n\n"
        "    def __enter__(self):\n"
        "        raise RuntimeError('the grid context manager is disabled')\n\n\n"
        "class Other:\n"
        "    def run(self):\n"
        "        raise RuntimeError('the other object cannot run here')\n"),
    "barlike/termui.py": (
        "from ._impl import ProgressBar\n\n\n"
        "def progressbar(iterable=None, length=None):\n    return ProgressBar(iterable, length)\n"),
    "barlike/types.py": (
        "from .exceptions import BadParameter\n\n\n"
        "class ParamType:\n"
        "    def fail(self, message):\n"
        "        raise BadParameter(f'invalid value: {message}')\n\n\n"
        "def convert_type(ty):\n"
        "    if isinstance(ty, type) and issubclass(ty, ParamType):\n"
        "        raise AssertionError(f'Attempted to use an uninstantiated parameter type ({ty}).')\n"
        "    return ty\n\n\n"
        "def sort(ty):\n"
        "    if isinstance(ty, ParamType):\n"
        "        raise TypeError('an instance is sorted elsewhere, not by sort')\n"
        "    return ty\n\n\n"
        "def plain(ty):\n"
        "    if ty is None:\n"
        "        raise ValueError('a type is required for plain conversion')\n"
        "    return ty\n"),
}


def test_the_objects_other_raises_are_related_with_the_relation_said(tmp_path: Path) -> None:
    for rel, text in PKG.items():
        (tmp_path / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / rel).write_text(text)
    cat = SqliteCatalog(tmp_path / "c.sqlite")
    try:
        with open_source(str(tmp_path / "src"), repo="example/barlike", ref="v1") as tree:
            cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
        ctx = load_context(cat, cat.snapshots()[0])
        every = list(cat.sites(cat.snapshots()[0].key))

        def sites(text: str):  # type: ignore[no-untyped-def]
            return next(s for s in every if s.template.render().startswith(text))
        reasons = {r.title: r.reason for r in related_errors(sites("iterable or length is r"), ctx)}
        (reason,) = [v for k, v in reasons.items() if "with block" in k]
        assert reason.startswith("raised by `ProgressBar.__iter__` when the `ProgressBar` that "
                                 "`barlike.progressbar` makes is used"), reasons
        assert "another method of" not in reason, reason  # said once, as the object's use
        assert not any("other object" in k for k in reasons), reasons  # another class's raise
        assert not any("is used" in v for k, v in reasons.items() if "positive" in k), reasons  # the same __init__
        made = {r.title: r.reason for r in related_errors(sites("a grid needs at least on"), ctx)}
        assert not any("is used" in v for v in made.values()), made  # the class the user creates itself
        checked = {r.title: r.reason for r in related_errors(sites("Attempted to use an unin"), ctx)}
        (reason,) = [v for k, v in checked.items() if k.startswith("BadParameter")]
        assert reason.startswith("raised by `ParamType.fail`, a method of `ParamType`, the class this check is "
                                 "about (`issubclass(ty, ParamType)`)"), checked
        assert not any(r.title.startswith("BadParameter") for r in related_errors(sites("a type is required for p"), ctx))
        # a type check that sorts values (``isinstance``) is about the value, not the class: nothing of `ParamType`'s
        assert not any(r.title.startswith("BadParameter") for r in related_errors(sites("an instance is sorted"), ctx))
    finally:
        cat.close()
