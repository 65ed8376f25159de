"""Run INSIDE the sandbox beside ``search_script.py`` (and importable by errdex's tests): how the search calls a
public entry.  Python 3.10+, Hypothesis.

Split from ``search_script.py``: ``signature_plan`` reads the entry's signature (``typing.get_type_hints``, the
defaults, ``**kwargs`` filled from the base classes' ``__init__``; a method of a class, of what a factory
returns, or of its owner: the constructor's arguments too) into a Hypothesis strategy of argument *sources*
per parameter, with the values the guards name; ``render`` writes one drawn call as the script it runs as
(``import pkg`` then the call, in one of the forms ``search_frame.FRAME`` holds: what a library adapter adds to
every call of the target, ``search_adapters.py``: modules its values need, traced only, an option set first).
"""

from __future__ import annotations

import inspect
from typing import Any

from hypothesis import strategies as st

if __package__:  # imported as a module of errdex's package (its checks and tests; the script when errdex is
    # importable): the package's files, so that every part shares one FRAME and one search_strategies state
    from errdex.prove import search_frame as frame
    from errdex.prove import search_strategies as strategies
else:  # in the sandbox, imported by ``search_script.py`` as the file beside it (its folder is on the path)
    import search_frame as frame  # type: ignore[import-not-found,no-redef]
    import search_strategies as strategies  # type: ignore[import-not-found,no-redef]


def render(module: str, call: str, ctor: list[tuple[str, str]] | None, args: list[tuple[str, str]]) -> str:
    def arglist(xs: list[tuple[str, str]]) -> str:
        pos = [v for k, v in xs if k.startswith("*") and v not in (strategies.OMIT, "")]
        return ", ".join(pos + [f"{k}={v}" for k, v in xs if not k.startswith(("*", "@")) and v != strategies.OMIT])

    wrap = frame.form_of([v for k, v in [*(ctor or []), *args] if k != frame.WRAP], int(next((v for k, v in args if k == frame.WRAP), "0")))
    if ctor is None:
        expr = f"{module}.{call}({arglist(args)})"
    else:
        keys = dict(args)
        expr = strategies.made_call(module, call, arglist(ctor), arglist(args), keys.get(strategies.ENTER, ""), strategies.CONSUME in keys)
        wrap = 0 if "\n" in expr else wrap  # a block is made as written
    body = frame.FRAME["wrappers"][wrap][0].format(call=expr)
    used = [m for m in [*frame.FRAME["imports"], *strategies.EXTRA_IMPORTS] if f"{m}." in body]  # the adapter's modules this call names
    imports = "".join(f"import {m}\n" for m in dict.fromkeys([module, *used]))
    return f"{imports}\n{body}\n"


def signature_plan(entry: str, pool: list[str], lits: dict[str, list[str]],
                   shaped: dict[str, dict[str, list[str]]] | None = None,
                   adapter: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """How to call ``entry``: the module, the call's spelling, and (name, strategy) per argument,
    for the constructor too when the entry is a method of a class."""
    factory, _, method = entry.partition(strategies.FACTORY)
    module, owner, fn = strategies.resolve(factory if method else entry)
    call = entry[len(module) + 1:]

    def args_for(f: Any, skip_first: bool) -> list[tuple[str, st.SearchStrategy[str], list[str]]] | None:
        out = []
        ps = strategies.params_of(f, skip_first)
        star = next((i for i, (p, _) in enumerate(ps) if p.kind is p.VAR_POSITIONAL), -1)
        for i, (p, h) in enumerate(ps):
            named = [v for suffix, vs in [*frame.FRAME["named"].items(), *((adapter or {}).get("named") or {}).items()]
                     if p.name.endswith(suffix)
                     for v in vs]
            mine = list(dict.fromkeys([*named, *lits.get(p.name, []), *strategies.hinted_values(h)]))
            if given := strategies.supply_of(p, h, unset):  # the guard asks it unset: the after gives it (``supplied_pairs``)
                supply[p.name] = given
            if not mine and not strategies.typed_value(h):  # nothing the guards say of it: a kernel's own values first (its
                mine = list(frame.FRAME["kernel_values"])  # vector shapes), unless it is annotated a plain int, str, ...
            if p.kind is p.POSITIONAL_ONLY or (i < star and p.kind is p.POSITIONAL_OR_KEYWORD):
                # given by position: never left out (the ones after it would shift)
                strat = strategies.param_strategy(p, h, mine, pool, required=True)
                if shaped and adapter and adapter.get("array") and p.name in shaped:
                    strat = st.one_of(strategies.array_strategy(shaped[p.name], adapter), strat)
                out.append(("*" + p.name, strat, mine))
                continue
            if p.kind is p.VAR_POSITIONAL:
                out.append(("*", st.lists(strategies.param_strategy(p, h, mine, pool, required=True), max_size=2).map(lambda xs: ", ".join(xs)), mine))
                continue
            strat = strategies.param_strategy(p, h, mine, pool)
            if shaped and adapter and adapter.get("array") and p.name in shaped:
                strat = st.one_of(strategies.array_strategy(shaped[p.name], adapter), strat)
            if p.name in lits:  # a value of its type too, to give it when a hit left it out (``a`` set, ``b`` not)
                mine = [*mine, *(v for v in strategies.typed_value(h) if v not in mine)]
            out.append((p.name, strat, mine))
            if inspect.isclass(h):  # the library's own values of its class (``search_climb``)
                made_of[p.name] = strategies.library_values(h)
        return out

    made_of: dict[str, list[str]] = {}
    supply: dict[str, list[str]] = {}  # parameters the raise's guard asks unset: values the after gives them
    unset = (adapter or {}).get("unset") or []

    plan: dict[str, Any] | None = None
    made = strategies.returned_class(fn) if method else None
    if method:  # a method of what the function returns (its return annotation): the function is the constructor
        meth = getattr(made, method, None) if made is not None else None
        if meth is None:
            return None
        args = args_for(meth, True)
        if args is not None and inspect.isgeneratorfunction(meth):
            args.append((strategies.CONSUME, st.just("1"), []))
        plan = {"module": module, "call": call, "ctor": args_for(fn, False), "args": args, "enter": strategies.enter_name(made)}
    elif inspect.isclass(fn):
        plan = {"module": module, "call": call, "ctor": None, "args": args_for(fn.__init__, True)}
    elif owner is not None and not isinstance(inspect.getattr_static(owner, fn.__name__, None),
                                              (staticmethod, classmethod)):
        args = args_for(fn, True)
        if args is not None and inspect.isgeneratorfunction(fn):
            args.append((strategies.CONSUME, st.just("1"), []))
        plan = {"module": module, "call": call, "ctor": args_for(owner.__init__, True), "args": args,
                "enter": strategies.enter_name(owner)}
    elif callable(fn):
        plan = {"module": module, "call": call, "ctor": None, "args": args_for(fn, False)}
    if plan is not None:
        plan["made"], plan["supply"] = made_of, supply
    if plan is not None and plan["args"] is not None and len(frame.FRAME["wrappers"]) > 1:  # the form of the call
        # (the kernel of refs is never drawn: a call given a ref is made there, ``frame.form_of``)
        forms = st.sampled_from([str(i) for i in range(len(frame.FRAME["wrappers"])) if i not in frame.body_forms()])
        if frame.FRAME["kernel_at"] >= 0:  # a kernel form: half the calls in it, the others in every form
            forms = st.one_of(st.just(str(frame.FRAME["kernel_at"])), forms)  # (a call given a ref: its kernel)
        plan["args"].append((frame.WRAP, forms, []))
    return plan
