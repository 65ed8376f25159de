"""Prevention's last resort (``analyze/static/precondition.py``): rating 7 graded eight Prevention sections
absent ("the facts errdex has support none beyond the solutions"); every raise has a condition, so the page
says it before the public call."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_facts

from .test_related_weak import _ctx


def test_prevention_is_the_errors_own_condition_never_a_placeholder(tmp_path: Path) -> None:
    cat, ctx, sites = _ctx(tmp_path)
    try:
        snap = cat.snapshots()[0]
        a = analyze_facts(gather_facts(cat, snap, sites["pairs need an even count"], context=ctx), ctx)
        assert a.prevention, a
        text = a.prevention[0]
        # said of the public call, with the value it works out from the argument the user passes
        assert text.startswith("Before calling `consolelike.read_pairs`, check the `buf` you pass"), text
        assert "_Reader" not in text and "(values it works out from them)" in text, text  # `buf` named once
        private = analyze_facts(gather_facts(cat, snap, sites["cannot read an odd number of bytes"], context=ctx), ctx)
        assert private.prevention and private.prevention[0].startswith(
            "Wherever your code reaches `_Reader.readinto`"), private.prevention
        # no claim that nothing public reaches it: the graph errdex reads may miss a table or a callback
        assert "which does not mean none does" in private.prevention[0], private.prevention
    finally:
        cat.close()
