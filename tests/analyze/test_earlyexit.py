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


KERNEL_TAIL = '''      debug=debug,
      name=name,
  )

  if isinstance(body, NotSpecified):
    # Decorator mode.
    if isinstance(mesh, Sequence):
      raise ValueError("mesh cannot be a sequence when using kernel as a decorator.")
    return lambda fun: make([(mesh, fun)])
  elif isinstance(body, Sequence):
    if not isinstance(mesh, Sequence):
      raise ValueError("mesh must be a sequence when body is a sequence of callables.")
    return make(list(zip(mesh, body)))
  # Single kernel.
  if isinstance(mesh, Sequence):
    raise ValueError("mesh cannot be a sequence when body is a single callable.")
  return make([(mesh, body)])


def with_scoped(
'''


def test_a_chain_of_leaving_branches_before_the_raise_is_read_without_the_def() -> None:
    # rating 8 (707f): jax's ``pl.kernel`` is long, its snippet starts inside a call; the if/elif chain above the
    # single-callable raise takes a sequence ``mesh`` when ``body`` is a sequence (the MPMD form)
    from errdex.analyze.earlyexit import passed_chains

    site = _site(KERNEL_TAIL, 16, qualname="kernel")
    assert [g.source for g in passed_chains(site)] == ["isinstance(body, NotSpecified)", "isinstance(body, Sequence)"]
    assert passed_chains(_site(KERNEL_TAIL, 8, qualname="kernel")) == ()  # inside the chain: none passed
    # the single-callable raise's own snippet may start below the chain: read it in the decorator raise's snippet
    decorator = _site(KERNEL_TAIL, 8, qualname="kernel")
    assert [g.source for g in passed_chains(decorator, 16)] == ["isinstance(body, NotSpecified)",
                                                                "isinstance(body, Sequence)"]
    assert passed_chains(decorator, 90) == ()  # a line the snippet does not show
    assert passed_chains(_site(SNIPPET, 11)) == ()  # a lone ``if ...: return`` is ``early_exits``' (no elif)
