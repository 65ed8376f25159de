"""A module ``__getattr__``'s page names every name it still provides, with the replacement its deprecation
warning gives (``analyze/static/kinds.py``, ``Facts.siblings``): rating 7 found click's page naming only
`MultiCommand`, the branch its snippet showed, not `BaseCommand` above it, and neither replacement."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.context import load_context
from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_facts
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.sources import open_source

_BRANCH = (
    "    if name == {old!r}:\n"
    "        warnings.warn(\n"
    "            {msg!r},\n"
    "            DeprecationWarning,\n"
    "            stacklevel=2,\n"
    "        )\n"
    + "        # keep the old name working until the next major version\n" * 8
    + "        return {new}\n\n"
)
CORE = ("import warnings\n\n\nclass Command:\n    pass\n\n\nclass Group(Command):\n    pass\n\n\n"
        "def __getattr__(name):\n"
        + _BRANCH.format(old="BaseCommand", new="Command",
                         msg="'BaseCommand' is deprecated and will be removed. Use 'Command' instead.")
        + _BRANCH.format(old="MultiCommand", new="Group",
                         msg="'MultiCommand' is deprecated and will be removed. Use 'Group' instead.")
        + "    raise AttributeError(name)\n")


def test_every_provided_name_and_its_replacement(tmp_path: Path) -> None:
    (tmp_path / "src" / "cmdlike").mkdir(parents=True)
    (tmp_path / "src" / "cmdlike" / "__init__.py").write_text("from .core import Command, Group\n")
    (tmp_path / "src" / "cmdlike" / "core.py").write_text(CORE)
    cat = SqliteCatalog(tmp_path / "c.sqlite")
    try:
        with open_source(str(tmp_path / "src"), repo="example/cmdlike", ref="v1") as tree:
            cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
        snap = cat.snapshots()[0]
        ctx = load_context(cat, snap)
        (site,) = [s for s in cat.sites(snap.key) if s.exception_name == "AttributeError"]
        text = analyze_facts(gather_facts(cat, snap, site, context=ctx), ctx).solutions[0].text
        assert "`BaseCommand` (deprecated: use `Command`), `MultiCommand` (deprecated: use `Group`)" in text, text
    finally:
        cat.close()
