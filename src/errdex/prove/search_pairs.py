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
