"""A check Python's ``-O`` removes (an ``assert`` statement, a test of ``__debug__``) says so under When it
happens (rating 8, a1ee: click's ``convert_type`` checks ``if __debug__ and ...``; under ``python -O``
nothing is raised, so there is nothing to catch)."""

from __future__ import annotations

from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_static
from errdex.model import Analysis

from .pagekit import PageCtx


def _page(c: PageCtx, qualname: str) -> Analysis:
    cat, ctx = c
    (site,) = [s for s in ctx.sites if s.qualname == qualname]
    return analyze_static(gather_facts(cat, ctx.snapshot, site, context=ctx), ctx.all_symbols)


def test_a_check_under_debug_or_an_assert_happens_only_without_dash_o(cli: PageCtx) -> None:
    a = _page(cli, "convert_type")
    said = [s for s in a.situations if "python -O" in s]
    assert said == ["Only while Python runs without `-O` (the usual way): the check in `convert_type` runs only "
                    "under `__debug__`, which `python -O` leaves out; an optimised run does not raise it but goes on "
                    "with what it would have refused, so do not count on catching it."], a.situations
    # a fact of when it happens, never the fix (test_page_kinds: no "make `__debug__` false", no "use -O")
    fix = " ".join([a.meaning, *(s.text for s in a.solutions), *a.prevention, a.guard_note])
    assert "__debug__" not in fix and "-O" not in fix
    stmt = _page(cli, "Renderer.abstract_eval")  # ``assert False, "must override"``
    assert any("the check in `Renderer.abstract_eval` is an `assert` statement, which `python -O` leaves out" in s
               for s in stmt.situations), stmt.situations
    assert not any("python -O" in s for s in _page(cli, "Bar.steps").situations)  # an ordinary check
