"""Run INSIDE the sandbox beside ``search_script.py`` (and importable by errdex's tests): the after of a hit.
Python 3.10+, Hypothesis (through ``search_strategies.py``).

Split from ``search_script.py``: once the search has hits, ``pick`` takes the smallest that has a clean variant
(calls made as written first); ``clean_variants`` runs the hit with one argument changed (``single_options``:
dropped, another value of its strategy, an array's size, dtype or rank changed, an option a call form set left
at its default), then the parameter the guard asks unset given (``search_pairs.supplied_pairs``), then two
changes (``search_pairs.pair_variants``), then the clean calls the search made nearby; ``simplify`` leaves out
of both sides the arguments they pass alike.
"""

from __future__ import annotations

from typing import Any

if __package__:  # imported as a module of errdex's package (its checks and tests; the script when errdex is
    # importable): the package's files, so that every part shares one FRAME and one search_strategies state
    from errdex.prove.search_frame import FRAME, WRAP, as_written, same_kind
    from errdex.prove.search_pairs import Call, pair_variants, supplied_options, supplied_pairs
    from errdex.prove.search_plan import render
    from errdex.prove.search_run import Search
    from errdex.prove.search_strategies import BASIC, CLASS_REFS, ENTER, OMIT, array_variants, distinct_call
else:  # in the sandbox, imported by ``search_script.py`` as the file beside it (its folder is on the path)
    from search_frame import FRAME, WRAP, as_written, same_kind  # type: ignore[import-not-found,no-redef]
    from search_pairs import Call, pair_variants, supplied_options, supplied_pairs  # type: ignore[import-not-found,no-redef]
    from search_plan import render  # type: ignore[import-not-found,no-redef]
    from search_run import Search  # type: ignore[import-not-found,no-redef]
    from search_strategies import BASIC, CLASS_REFS, ENTER, OMIT, array_variants, distinct_call  # type: ignore[import-not-found,no-redef]

MAX_VARIANTS = 40


def pick(s: Search, seed: int, adapter: dict[str, Any], result: dict[str, Any], nearby: bool = True) -> bool:
    """Into ``result``: the smallest of the hits so far that has a clean variant (True), else the smallest
    hit with none (False), unless an earlier entry's hit is there already.  ``nearby``: when no one-argument
    change runs clean, a clean call the search made with the fewest changes will do."""
    tried: set[str] = set()
    def form(h: tuple[int, str, dict[str, Any]]) -> int:
        return int(dict(h[2]["args"]).get(WRAP, "0")) if h[2]["args"] else 0

    # the smallest hit with a clean variant, calls made as written first (then traced, jitted, an option set):
    # up to 3 hits of each form
    # and Hypothesis's own shrunk example (the last hit: shrinking keeps the first of each list of values,
    # which for arrays is the adapter's first size, a kernel's tile, not the shortest text)
    ordered = sorted([*s.hits, *as_written(s, render)], key=lambda h: (form(h) > 0, h[0], h[1]))
    got: dict[str, list[Call]] = {}  # a first pass takes only a hit whose after keeps what raised (``s.keeping``)
    want = any(h[2]["plan"].get("supply") for h in s.hits)
    for strict in (True, False) if want else (False,):
        tried, per_form = set(), dict[int, int]()
        for h in [*ordered[:3], *s.hits[-1:], *ordered[3:]]:
            before, how = h[1], h[2]
            if before in tried or per_form.get(form(h), 0) >= 4:
                continue
            tried.add(before)
            per_form[form(h)] = per_form.get(form(h), 0) + 1
            afters = got[before] if before in got else got.setdefault(before, clean_variants(s, how, seed, adapter, nearby))
            if strict and not any(a[0] in s.keeping for a in afters):
                continue
            if afters:
                bad = (before, list(how["ctor"]) if how["ctor"] is not None else None, list(how["args"]))
                keep = set(s.t.get("literals") or {}) if afters[0][0] in s.keeping else set()  # the trigger shown
                small, good = simplify(s, how["plan"], bad, afters[0], keep)
                before = small[0]
                afters = [good, *afters] if good[0] != afters[0][0] else afters
            if afters or not result["before"]:
                result["before"] = before
                result["entry"] = how["plan"]["module"] + "." + how["plan"]["call"]
                result["afters"] = [a[0] for a in afters]
                s.chosen = how
            if afters:
                return True
    return False


def simplify(s: Search, plan: dict[str, Any], bad: Call, good: Call, keep: set[str] | None = None) -> tuple[Call, Call]:
    """The pair with the arguments both pass alike left out (one at a time, kept out when the before
    still raises here and the after still runs clean): the smallest pair that shows the difference.  First, when
    they differ in two or more arguments, the before takes the after's value of each that it still raises with.
    ``keep``: names the guards read, never left out (an after that keeps what raised shows what raised)."""
    def parts(c: Call) -> list[tuple[str, str]]:
        return [*(c[1] or []), *c[2]]

    def build(c: Call, flat: list[tuple[str, str]]) -> Call:
        k = len(c[1]) if c[1] is not None else 0
        ctor = flat[:k] if c[1] is not None else None
        return render(plan["module"], plan["call"], ctor, flat[k:]), ctor, flat[k:]

    differ = [i for i, (x, y) in enumerate(zip(parts(bad), parts(good), strict=False)) if x != y and x[0] == y[0]
              and not x[0].startswith("@")]
    for i in differ if len(differ) > 1 else ():  # two or more changes: the before takes the after's value where
        b = parts(bad)  # it still raises here (``tile_size=5`` dropped from both when only ``vec_size`` matters)
        b[i] = parts(good)[i]
        if s.at_site(s.run((nb := build(bad, b))[0])):
            bad = nb
    for i in range(len(parts(bad))):
        b, g = parts(bad), parts(good)
        if i >= len(g) or b[i] != g[i] or b[i][1] == OMIT or b[i][0].startswith(("*", "@")) or b[i][0] in (keep or ()):
            continue
        b[i] = g[i] = (b[i][0], OMIT)
        nb, ng = build(bad, b), build(good, g)
        if s.at_site(s.run(nb[0])) and s.run(ng[0]) is None:
            bad, good = nb, ng
    return bad, good


def single_options(plan: dict[str, Any], ctor: Any, args: Any, adapter: dict[str, Any] | None = None
                   ) -> list[tuple[str, str, list[tuple[str, str]] | None, list[tuple[str, str]]]]:
    """The call with one argument changed: (which, name, constructor args, args) per change, best first."""
    options: list[tuple[str, str, list[tuple[str, str]] | None, list[tuple[str, str]]]] = []
    if plan.get("enter") and ctor is not None:  # first: the object made used in its ``with`` block
        options.append(("args", ENTER, list(ctor), [*args, (ENTER, plan["enter"])]))
    options += supplied_options(plan, ctor, args, OMIT)  # first: a parameter the raise's guard asks unset, given
    groups = [("args", list(args), plan["args"])] + ([("ctor", list(ctor), plan["ctor"])] if ctor is not None else [])
    for which, values, specs in groups:  # first: a parameter the guards name, left out, given a value
        for i, (name, v) in enumerate(values):  # (the guard wants both or neither: the other one given)
            if v != OMIT or not specs[i][2]:
                continue
            for alt in [x for x in specs[i][2] if x not in ("None", OMIT)][:3]:
                new = list(values)
                new[i] = (name, alt)
                options.append((which, name, new if which == "ctor" else (list(ctor) if ctor is not None else None),
                                new if which == "args" else list(args)))
    for which, values, specs in groups:
        for i, (name, v) in enumerate(values):
            if name == WRAP:  # an option set first: the same call without it (a traced form stays)
                alts = ["0"] if FRAME["wrappers"][int(v)][1] == "option" else []
            elif v == OMIT:
                continue
            elif name.startswith("*"):  # given by position: never left out, an array varied, or a kernel's other
                # value of its kind (its 32-bit tile for a 16-bit one)
                alts = [*array_variants(v, adapter or {}),
                        *(x for x in FRAME["kernel_values"] if x != v and x in specs[i][2] and same_kind(v, x))]
            else:
                made = [f"{v}()"] if v in CLASS_REFS else []  # a class where an instance is wanted: called
                alts = [*made, *array_variants(v, adapter or {}), OMIT] + [x for x in [*specs[i][2], *BASIC]
                                                                             if x != v and same_kind(v, x)]
            for alt in alts:
                new = list(values)
                new[i] = (name, alt)
                c2 = new if which == "ctor" else (list(ctor) if ctor is not None else None)
                a2 = new if which == "args" else list(args)
                options.append((which, name, c2, a2))
    return options


def clean_variants(s: Search, how: dict[str, Any], seed: int, adapter: dict[str, Any] | None = None,
                   nearby: bool = True) -> list[Call]:
    """The hit with one argument changed (dropped, or another value of its strategy; an array with one
    size, its dtype or its number of dimensions changed; an option a call form set left at its default)
    that runs clean."""
    plan, ctor, args = how["plan"], how["ctor"], how["args"]
    options = single_options(plan, ctor, args, adapter)
    out: list[Call] = []
    past: list[tuple[str, str, list[Any] | None, list[Any]]] = []  # got past this raise, stopped by a later check
    for opt in options[:MAX_VARIANTS * 3]:
        _, _, c2, a2 = opt
        src = render(plan["module"], plan["call"], c2, a2)
        if any(src == o[0] for o in out):
            continue
        exc = s.run(src)
        if exc is None:
            out.append((src, c2, a2))
        elif s.got_past(exc):
            past.append(opt)
        if len(out) >= 6:
            break
    out = [*(kept := supplied_pairs(s, render, plan, ctor, args, options)), *out]  # the unset parameter given, first
    if kept:
        s.keeping.update(c[0] for c in kept)
    if not out:  # no one change runs clean: one that gets past this raise, and a second change to another argument
        out = pair_variants(s, render, plan, ctor, args, past, options[:MAX_VARIANTS * 3])
    if not out and nearby:  # no one-argument change ran clean: the clean calls the search made, fewest changes first
        here = [*(list(ctor) if ctor is not None else []), *list(args)]

        def changes(c: tuple[str, list[Any] | None, list[Any]]) -> int:
            there = [*(c[1] or []), *c[2]]
            return sum(1 for x, y in zip(here, there, strict=False) if list(x) != list(y)) + abs(len(here) - len(there))

        mine = plan["module"] + "." + plan["call"]
        near = sorted((c for c in s.clean if f"{mine}(" in c[0] or f").{plan['call'].rsplit('.', 1)[-1]}(" in c[0]),
                      key=lambda c: (changes(c), len(c[0])))
        for c in near[:20]:
            if all(c[0] != o[0] for o in out) and s.run(c[0]) is None:
                out.append(c)
            if len(out) >= 3:
                break
    return [distinct_call(s.run, render, plan, [*(ctor or []), *args], c) for c in out]  # 'x', 'x' -> 'x', 'y'
