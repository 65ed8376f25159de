"""Run INSIDE the sandbox beside ``search_script.py`` (and importable by errdex's tests): two changes of a hit,
when one gets past the site's check and a later check of the same call stops it.  Python 3.10+, no dependency.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Call = tuple[str, "list[tuple[str, str]] | None", "list[tuple[str, str]]"]  # (source, constructor args, args)
MAX_PAST, MAX_PAIRS = 6, 60


def pair_variants(s: Any, render: Callable[..., str], plan: dict[str, Any], ctor: list[Any] | None, args: list[Any],
                  past: list[tuple[str, str, list[Any] | None, list[Any]]],
                  options: list[tuple[str, str, list[Any] | None, list[Any]]]) -> list[Call]:
    """Two changes, when a change gets past the site's check but a later check of the same call stops it
    (a metadata array's trailing size fixed, then its dtype named too): each of the first changes that got
    past this raise with each single change of another argument, at most ``MAX_PAIRS`` runs; the first
    three that run clean."""
    out: list[Call] = []
    runs = 0
    for _, name, c1, a1 in past[:MAX_PAST]:
        for which2, name2, c2, a2 in options:
            if name2 == name or runs >= MAX_PAIRS:
                continue
            base, mine = (ctor, c2) if which2 == "ctor" else (args, a2)
            if base is None or mine is None:
                continue
            i = next((k for k, (x, y) in enumerate(zip(base, mine, strict=False)) if list(x) != list(y)), -1)
            if i < 0:
                continue
            cc = list(c1) if c1 is not None else None
            aa = list(a1)
            if which2 == "ctor":
                if cc is None:
                    continue
                cc[i] = mine[i]
            else:
                aa[i] = mine[i]
            src = render(plan["module"], plan["call"], cc, aa)
            if any(src == o[0] for o in out):
                continue
            runs += 1
            if s.run(src) is None:
                out.append((src, cc, aa))
                if len(out) >= 3:
                    return out
    return out


def supplied_options(plan: dict[str, Any], ctor: list[Any] | None, args: list[Any], omit: str
                     ) -> list[tuple[str, str, list[Any] | None, list[Any]]]:
    """The hit with a parameter the raise's guard asks unset, left out (``omit``), given a value (``plan["supply"]``):
    first the value the hit gives another such parameter (two given together, ``a_scale=x`` without ``b_scale``:
    ``b_scale=x``, a sibling of the same kind), then the values of its type."""
    supply = plan.get("supply") or {}
    given = [v for n, v in args if n in supply and v != omit]
    return [("args", name, list(ctor) if ctor is not None else None, [*args[:i], (name, alt), *args[i + 1:]])
            for i, (name, v) in enumerate(args) if v == omit and name in supply
            for alt in dict.fromkeys([*given[:1], *supply[name][:4]])]


def supplied_pairs(s: Any, render: Callable[..., str], plan: dict[str, Any], ctor: list[Any] | None, args: list[Any],
                   options: list[tuple[str, str, list[Any] | None, list[Any]]]) -> list[Call]:
    """Afters that keep the value that raised and give the parameter the raise's guard asks to be unset
    (``plan["supply"]``: ``pl.kernel(mesh=[...])`` used as a decorator, ``body`` not given) a value: the call
    in its other form.  When that alone is stopped by a later check of the same call (``body=[f]`` with
    ``mesh=[]``: "sequences must have the same length"), with one more change to another argument that the
    before keeps raising with (``mesh=[Mesh()]``): ``pick``'s ``simplify`` then moves that change into the
    before, so the pair differs only in the parameter given.  The first three that run clean."""
    supply = plan.get("supply") or {}
    out: list[Call] = []
    if not supply:
        return out
    firsts = [o for o in options if o[0] == "args" and o[1] in supply and o[3][_index(args, o[3])][1] in supply[o[1]]]
    for _, name, _, a1 in firsts[:MAX_PAST]:  # each value given its share of the runs (a function, a list of one)
        src = render(plan["module"], plan["call"], ctor, a1)
        exc = s.run(src)
        if exc is None:
            out.append((src, ctor, a1))
        runs = 1
        for which2, name2, _, a2 in options if exc is not None and s.got_past(exc) else ():
            if which2 != "args" or name2 == name or name2 in supply or runs >= MAX_PAIRS // 4 or len(out) >= 3:
                continue
            i = _index(args, a2)
            after = [*a1[:i], a2[i], *a1[i + 1:]]
            src2 = render(plan["module"], plan["call"], ctor, after)
            if any(src2 == o[0] for o in out):
                continue
            runs += 1
            if s.run(src2) is None:
                runs += 1
                if s.at_site(s.run(render(plan["module"], plan["call"], ctor, a2))):
                    out.append((src2, ctor, after))
        if len(out) >= 3:
            break
    return out


def _index(base: list[Any], changed: list[Any]) -> int:
    """The first argument ``changed`` differs from ``base`` in (0 when none does)."""
    return next((k for k, (x, y) in enumerate(zip(base, changed, strict=False)) if list(x) != list(y)), 0)
