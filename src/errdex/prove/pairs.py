"""After-variants with two edits at once, tried only when no single edit ran clean (parsing only).

Some mistakes need two changes of the arguments: numpy called on a traced value *and* a non-scalar
output handed to ``grad`` (``np.exp`` -> ``jnp.exp`` in the traced function, ``np.zeros(3)`` -> ``1.0``
as its argument); a returned triple where a pair is expected whose values are also integers
(``(1, 2, 3)`` -> ``(2, 3)``, then ``-> (2.0, 3.0)``).  The engine runs the single edits first
(``mutate.variant_modules``: argument edits and edits of the function the script hands to the library,
``tracing.py``) and notes those whose run got past this error and raised another: each of them (at most
``MAX_PROGRESSED``) is edited again with every single edit of the edited script, traced-function and
argument edits alternately, the progressed singles taken in turn.  The argument edits of an edited
script find its raising call again by a mark set on the focus nodes before the first edit.  Without a
progressed single, the first ``FIRSTS`` argument edits are each followed by their first ``SECONDS``
edits of each kind.  ``MAX_PAIRS`` in all.  Both edits change arguments only, so the after still makes
the same public call.  When no pair ran clean either, the pairs that got past this error are edited a
third time the same way (``tripled``, ``MAX_TRIPLES``).
"""

from __future__ import annotations

import ast
import copy
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import replace

from errdex.prove.distill import Distilled
from errdex.prove.mutate import variant_modules
from errdex.prove.trace_adapters import trace_adapter
from errdex.prove.tracing import traced_variants

MAX_PAIRS = 48
MAX_TRIPLES = 24  # three edits: only after no pair ran clean, from the pairs that got past this error
MAX_PROGRESSED_PAIRS = 4
MAX_PROGRESSED = 6  # progressed singles edited again (each gets a fair share of the pairs)
FIRSTS = 8  # argument edits a pair starts from
SECONDS = 2  # second edits of each kind tried after each (without progressed ones)
FOCUS = "errdex_focus"


def _marked(d: Distilled) -> Distilled:
    """``d`` with its focus nodes and raising statement marked (the marks survive ``copy.deepcopy``)."""
    m = copy.deepcopy(d.module)
    nodes = list(ast.walk(m))
    for i in d.focus:
        setattr(nodes[i], FOCUS, True)
    setattr(m.body[d.raising], FOCUS + "_raising", True)
    return replace(d, module=m, alternatives=())


def _refocused(d: Distilled, m: ast.Module) -> Distilled | None:
    """The edited script as a ``Distilled``: its focus and raising statement found again by their marks."""
    focus = tuple(i for i, n in enumerate(ast.walk(m)) if getattr(n, FOCUS, False))
    raising = next((k for k, st in enumerate(m.body) if getattr(st, FOCUS + "_raising", False)), None)
    if raising is None or not focus:
        return None
    return replace(d, module=m, focus=focus, raising=raising, alternatives=())


def paired(d: Distilled, guard_names: Sequence[str] = (), package: str = "", progressed: Sequence[str] = (),
           exclude: Sequence[str] = (), modules: dict[str, ast.Module] | None = None) -> list[tuple[str, str]]:
    """(why, source) of after-variants with two edits, at most ``MAX_PAIRS``; none that is ``d`` itself
    or one of ``exclude`` (the single edits already tried).  ``progressed``: the single edits (their
    sources) whose run got past this error and raised another one: each is edited again, every
    single edit of it in turn (traced-function edits and argument edits taken alternately).  Without
    them, the first ``FIRSTS`` argument edits, each followed by its first ``SECONDS`` edits.
    ``modules`` collects each pair's edited module by its source (marks kept: ``tripled`` edits it again)."""
    base = _marked(d)
    singles = variant_modules(base, guard_names, package, limit=10_000)
    by_source = {src: (w, m) for w, src, m, _ in singles}
    if progressed:
        firsts = [by_source[s] for s in progressed if s in by_source][:MAX_PROGRESSED]
        seconds = 10_000
    else:
        firsts = [(w, m) for w, _, m, traced in singles if not traced][:FIRSTS]
        seconds = SECONDS
    return _next_edits(base, firsts, guard_names, package, {d.source, *exclude}, seconds, MAX_PAIRS, modules)


def tripled(d: Distilled, pairs: Sequence[tuple[str, ast.Module]], guard_names: Sequence[str] = (),
            package: str = "", exclude: Sequence[str] = ()) -> list[tuple[str, str]]:
    """(why, source) of after-variants with three edits, at most ``MAX_TRIPLES``: the pairs (why, edited
    module, from ``paired``'s ``modules``) whose run got past this error and raised another, at most
    ``MAX_PROGRESSED_PAIRS``, each edited once more in turn (``jvp(f, (0.0,), (1.0,))`` with a
    two-parameter ``f`` needs both primals and both tangents, and more than one call's edit)."""
    base = _marked(d)
    return _next_edits(base, list(pairs)[:MAX_PROGRESSED_PAIRS], guard_names, package, {d.source, *exclude},
                       10_000, MAX_TRIPLES, None)


def _next_edits(base: Distilled, firsts: Sequence[tuple[str, ast.Module]], guard_names: Sequence[str], package: str,
                seen: set[str], seconds: int, cap: int,
                modules: dict[str, ast.Module] | None) -> list[tuple[str, str]]:
    """Each of ``firsts`` edited once more, every single edit of it in turn, the firsts taken in turn."""
    adapter = trace_adapter(package)

    def again(w1: str, m1: ast.Module) -> Iterator[tuple[str, str, ast.Module]]:
        traced = [(w2, ast.unparse(ast.fix_missing_locations(m2)) + "\n", m2) for w2, m2 in traced_variants(m1, adapter)]
        d1 = _refocused(base, m1)
        args = [] if d1 is None else [(w2, src, m2) for w2, src, m2, t in
                                      variant_modules(d1, guard_names, package, limit=10_000) if not t]
        for a, b in itertools.islice(itertools.zip_longest(traced, args), seconds):
            for item in (a, b):
                if item is not None:
                    yield f"{w1}, and {item[0]}", item[1], item[2]

    out: list[tuple[str, str]] = []
    for group in itertools.zip_longest(*(again(w1, m1) for w1, m1 in firsts)):  # each first in turn
        for item in group:
            if item is not None and item[1] not in seen:
                seen.add(item[1])
                out.append((item[0], item[1]))
                if modules is not None:
                    modules[item[1]] = item[2]
                if len(out) >= cap:
                    return out
    return out
