"""Early exits are guards; parameters are named as such, locals and modules are not."""

from __future__ import annotations

from errdex.analyze.earlyexit import early_exits, parameters
from errdex.model import ErrorSite, Segment, Template

SNIPPET = '''import numpy as np


def check(x, *, strict=False):
    if x is None:
        return None
    for item in x:
        if not strict:
            continue
    n = len(x)
    raise ValueError("bad")
'''


def _site(snippet: str, line: int, qualname: str = "check") -> ErrorSite:
    return ErrorSite(kind="error", exception="ValueError", exception_resolved="ValueError",
                     templates=(Template(segments=(Segment(text="bad"),)),),
                     path="m.py", line=line, end_line=line, qualname=qualname, module="m",
                     snippet=snippet, snippet_start=1)


def test_if_return_before_the_raise_is_a_guard() -> None:
    guards = early_exits(_site(SNIPPET, 11))
    assert [g.normalized for g in guards] == ["not (x is None)"]  # the loop's ``continue`` is not on the way


def test_parameters_are_the_functions_own() -> None:
    assert parameters(_site(SNIPPET, 11)) == ("x", "strict")  # not ``np`` (a module), not ``n`` (a local)


def test_no_def_in_the_snippet_means_no_claim() -> None:
    assert early_exits(_site("    raise ValueError('bad')\n", 1)) == ()
    assert parameters(_site("    raise ValueError('bad')\n", 1)) == ()
