"""Run INSIDE the sandbox by the environment's Python (the library and Hypothesis installed there);
never imported by errdex.  Searches arguments that make a public call raise at one site.

Reads a JSON request (argv[1]): the package, a seed, a time budget per target, and targets (an
error's site: package-relative path and lines, the public entries that lead to it, the lines of
its guards, the literals its guards compare with, by name).  For each target, in a forked child
(a hard time limit, fresh module state): the entry's signature (``typing.get_type_hints``, the
defaults, ``**kwargs`` filled from the base classes' ``__init__``) gives a Hypothesis strategy of
call *sources*; each example is executed as the script it would be (``import pkg`` then the
call); an example whose exception's innermost frame is the site's raise is a hit; the others are
steered with ``hypothesis.target`` by how many of the site's guard lines they reached.  Hypothesis
shrinks a hit to a small one.  For the smallest hit, variants that change one argument (dropped to
its default, or another value of its strategy) are run and the clean ones (no exception) are kept
as after-candidates.  Writes (argv[2]) one result per target.  Python 3.10+.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from typing import Any

from hypothesis import HealthCheck, Phase, assume, given, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

try:  # errdex's own checks and tests import it as a module of the package
    from errdex.prove.search_climb import passes_check
    from errdex.prove.search_frame import FRAME, WRAP, as_written, body_forms, form_of, frame_for, same_kind
    from errdex.prove.search_pairs import Call, pair_variants, supplied_options, supplied_pairs
    from errdex.prove.search_strategies import (
        BASIC,
        CLASS_REFS,
        CONSUME,
        ENTER,
        EXTRA_IMPORTS,
        FACTORY,
        OMIT,
        array_strategy,
        array_variants,
        distinct_call,
        enter_name,
        hinted_values,
        library_values,
        made_call,
        param_strategy,
        params_of,
        resolve,
        returned_class,
        subclass_refs,
        supply_of,
        typed_value,
        use_made,
    )
    from errdex.prove.search_strategies import CALLABLES as _CALLABLES
    from errdex.prove.search_strategies import PACKAGE as _PACKAGE
except ImportError:  # in the sandbox: the file beside this one
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from search_climb import passes_check  # type: ignore[import-not-found,no-redef]
    from search_frame import FRAME, WRAP, as_written, body_forms, form_of, frame_for, same_kind  # type: ignore[import-not-found,no-redef]
    from search_pairs import Call, pair_variants, supplied_options, supplied_pairs  # type: ignore[import-not-found,no-redef]
    from search_strategies import (  # type: ignore[import-not-found,no-redef]
        BASIC,
        CLASS_REFS,
        CONSUME,
        ENTER,
        EXTRA_IMPORTS,
        FACTORY,
        OMIT,
        array_strategy,
        array_variants,
        distinct_call,
        enter_name,
        hinted_values,
        library_values,
        made_call,
        param_strategy,
        params_of,
        resolve,
        returned_class,
        subclass_refs,
        supply_of,
        typed_value,
        use_made,
    )
    from search_strategies import CALLABLES as _CALLABLES  # type: ignore[import-not-found,no-redef]
    from search_strategies import PACKAGE as _PACKAGE  # type: ignore[import-not-found,no-redef]

MAX_VARIANTS = 40


class Found(Exception):
    """The site was hit: stops Hypothesis's generation so that it shrinks this example."""


class CallTimeout(BaseException):
    pass


class OutOfTime(BaseException):
    """The entry's share of the budget is spent (Hypothesis itself can be what runs long)."""


_deadline = [0.0]


def _on_budget(signum: int, frame: Any) -> None:
    if time.monotonic() > _deadline[0]:
        raise OutOfTime()


def _on_alarm(signum: int, frame: Any) -> None:
    raise CallTimeout()



# ----------------------------------------------------------------------------- one target


class Search:
    def __init__(self, t: dict[str, Any], package: str, call_timeout: float) -> None:
        self.t = t
        self.package = package
        self.path = "/" + t["path"]
        self.lines = set(range(int(t["line"]), int(t["end_line"]) + 1))
        self.guard_lines = set(t.get("guard_lines") or [])
        self.call_timeout = call_timeout
        self.examples = 0
        self.hits: list[tuple[int, str, dict[str, Any]]] = []
        self.reached: set[int] = set()
        self.clean: list[tuple[str, list[Any] | None, list[Any]]] = []
        self.first_hit = 0
        self.keeping: set[str] = set()  # afters that keep what raised: the parameter the guard asks unset given
        self.chosen: dict[str, Any] | None = None  # the hit ``pick`` reported without a clean variant

    def _tracer(self, frame: Any, event: str, arg: Any) -> Any:
        if not frame.f_code.co_filename.endswith(self.path):
            return None

        def local(f: Any, ev: str, a: Any) -> Any:
            if ev == "line" and f.f_lineno in self.guard_lines:
                self.reached.add(f.f_lineno)
            return local
        return local

    def run(self, src: str, traced: bool = True) -> BaseException | None:
        """Execute ``src`` as the script would run; the exception it raised (None: ran clean).  ``traced``: the
        guard lines it reached recorded (the climb needs only the traceback: untraced, several times faster)."""
        self.reached = set()
        ns: dict[str, Any] = {"__name__": "__main__"}
        home = os.getcwd()
        here = tempfile.mkdtemp(dir=home)  # each call in an empty working directory, as a script is run
        os.chdir(here)
        old = signal.signal(signal.SIGALRM, _on_alarm)
        sys.settrace(self._tracer if traced else None)
        signal.setitimer(signal.ITIMER_REAL, self.call_timeout)
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                exec(compile(src, "example.py", "exec"), ns)
        except CallTimeout as exc:
            return exc
        except BaseException as exc:  # SystemExit, KeyboardInterrupt from a library's code included
            return exc
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.settrace(None)
            signal.signal(signal.SIGALRM, old)
            for undo in _FRAME["reset"]:  # an option a call form turned on: off again for the next call
                with contextlib.suppress(Exception):
                    exec(f"import {_FRAME['imports'][0]}\n{undo}", {})
            os.chdir(home)
            shutil.rmtree(here, ignore_errors=True)
        return None

    def got_past(self, exc: BaseException | None) -> bool:
        """Whether a call that raised ran a line of the site's file below the site (its check passed, a later
        one stopped it), not merely failed before getting there (a missing argument)."""
        tb = exc.__traceback__ if exc is not None and not isinstance(exc, CallTimeout) else None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename.endswith(self.path) and tb.tb_lineno > max(self.lines):
                return True
            tb = tb.tb_next
        return False

    def at_site(self, exc: BaseException | None) -> bool:
        for e in (exc, getattr(exc, "__cause__", None)):
            if e is None or isinstance(e, CallTimeout):
                continue
            tb = e.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            if tb is not None and tb.tb_frame.f_code.co_filename.endswith(self.path) and tb.tb_lineno in self.lines:
                return True
        return False


# What a library adapter adds to every call of the target being searched (``search_adapters.py``):
# modules its values need, and the forms a call is made in (as written, traced only, an option set first;
# ``search_frame.py``).
_FRAME = FRAME


def render(module: str, call: str, ctor: list[tuple[str, str]] | None, args: list[tuple[str, str]]) -> str:
    def arglist(xs: list[tuple[str, str]]) -> str:
        pos = [v for k, v in xs if k.startswith("*") and v not in (OMIT, "")]
        return ", ".join(pos + [f"{k}={v}" for k, v in xs if not k.startswith(("*", "@")) and v != OMIT])

    wrap = form_of([v for k, v in [*(ctor or []), *args] if k != WRAP], int(next((v for k, v in args if k == WRAP), "0")))
    if ctor is None:
        expr = f"{module}.{call}({arglist(args)})"
    else:
        keys = dict(args)
        expr = made_call(module, call, arglist(ctor), arglist(args), keys.get(ENTER, ""), CONSUME in keys)
        wrap = 0 if "\n" in expr else wrap  # a block is made as written
    body = _FRAME["wrappers"][wrap][0].format(call=expr)
    used = [m for m in [*_FRAME["imports"], *EXTRA_IMPORTS] if f"{m}." in body]  # the adapter's modules this call names
    imports = "".join(f"import {m}\n" for m in dict.fromkeys([module, *used]))
    return f"{imports}\n{body}\n"


def signature_plan(entry: str, pool: list[str], lits: dict[str, list[str]],
                   shaped: dict[str, dict[str, list[str]]] | None = None,
                   adapter: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """How to call ``entry``: the module, the call's spelling, and (name, strategy) per argument,
    for the constructor too when the entry is a method of a class."""
    factory, _, method = entry.partition(FACTORY)
    module, owner, fn = resolve(factory if method else entry)
    call = entry[len(module) + 1:]

    def args_for(f: Any, skip_first: bool) -> list[tuple[str, st.SearchStrategy[str], list[str]]] | None:
        out = []
        ps = params_of(f, skip_first)
        star = next((i for i, (p, _) in enumerate(ps) if p.kind is p.VAR_POSITIONAL), -1)
        for i, (p, h) in enumerate(ps):
            named = [v for suffix, vs in [*_FRAME["named"].items(), *((adapter or {}).get("named") or {}).items()]
                     if p.name.endswith(suffix)
                     for v in vs]
            mine = list(dict.fromkeys([*named, *lits.get(p.name, []), *hinted_values(h)]))
            if given := supply_of(p, h, unset):  # the guard asks it unset: the after gives it (``supplied_pairs``)
                supply[p.name] = given
            if not mine and not typed_value(h):  # nothing the guards say of it: a kernel's own values first (its
                mine = list(_FRAME["kernel_values"])  # vector shapes), unless it is annotated a plain int, str, ...
            if p.kind is p.POSITIONAL_ONLY or (i < star and p.kind is p.POSITIONAL_OR_KEYWORD):
                # given by position: never left out (the ones after it would shift)
                strat = param_strategy(p, h, mine, pool, required=True)
                if shaped and adapter and adapter.get("array") and p.name in shaped:
                    strat = st.one_of(array_strategy(shaped[p.name], adapter), strat)
                out.append(("*" + p.name, strat, mine))
                continue
            if p.kind is p.VAR_POSITIONAL:
                out.append(("*", st.lists(param_strategy(p, h, mine, pool, required=True), max_size=2).map(lambda xs: ", ".join(xs)), mine))
                continue
            strat = param_strategy(p, h, mine, pool)
            if shaped and adapter and adapter.get("array") and p.name in shaped:
                strat = st.one_of(array_strategy(shaped[p.name], adapter), strat)
            if p.name in lits:  # a value of its type too, to give it when a hit left it out (``a`` set, ``b`` not)
                mine = [*mine, *(v for v in typed_value(h) if v not in mine)]
            out.append((p.name, strat, mine))
            if inspect.isclass(h):  # the library's own values of its class (``search_climb``)
                made_of[p.name] = library_values(h)
        return out

    made_of: dict[str, list[str]] = {}
    supply: dict[str, list[str]] = {}  # parameters the raise's guard asks unset: values the after gives them
    unset = (adapter or {}).get("unset") or []

    plan: dict[str, Any] | None = None
    made = returned_class(fn) if method else None
    if method:  # a method of what the function returns (its return annotation): the function is the constructor
        meth = getattr(made, method, None) if made is not None else None
        if meth is None:
            return None
        args = args_for(meth, True)
        if args is not None and inspect.isgeneratorfunction(meth):
            args.append((CONSUME, st.just("1"), []))
        plan = {"module": module, "call": call, "ctor": args_for(fn, False), "args": args, "enter": enter_name(made)}
    elif inspect.isclass(fn):
        plan = {"module": module, "call": call, "ctor": None, "args": args_for(fn.__init__, True)}
    elif owner is not None and not isinstance(inspect.getattr_static(owner, fn.__name__, None),
                                              (staticmethod, classmethod)):
        args = args_for(fn, True)
        if args is not None and inspect.isgeneratorfunction(fn):
            args.append((CONSUME, st.just("1"), []))
        plan = {"module": module, "call": call, "ctor": args_for(owner.__init__, True), "args": args,
                "enter": enter_name(owner)}
    elif callable(fn):
        plan = {"module": module, "call": call, "ctor": None, "args": args_for(fn, False)}
    if plan is not None:
        plan["made"], plan["supply"] = made_of, supply
    if plan is not None and plan["args"] is not None and len(_FRAME["wrappers"]) > 1:  # the form of the call
        # (the kernel of refs is never drawn: a call given a ref is made there, ``form_of``)
        forms = st.sampled_from([str(i) for i in range(len(_FRAME["wrappers"])) if i not in body_forms()])
        if _FRAME["kernel_at"] >= 0:  # a kernel form: half the calls in it, the others in every form
            forms = st.one_of(st.just(str(_FRAME["kernel_at"])), forms)  # (a call given a ref: its kernel)
        plan["args"].append((WRAP, forms, []))
    return plan


def search_target(t: dict[str, Any], package: str, budget: float, seed: int, call_timeout: float,
                  max_examples: int, adapter: dict[str, Any] | None = None) -> dict[str, Any]:
    start = time.monotonic()
    _PACKAGE[0] = package
    adapter = adapter or {}
    with contextlib.suppress(Exception):
        importlib.import_module(package)
    frame_for(t, adapter, _CALLABLES)
    adapter = use_made(adapter, t.get("unset") or [], _FRAME["typed"])
    for m in _FRAME["imports"]:
        with contextlib.suppress(Exception):
            importlib.import_module(m)
    pool = list(dict.fromkeys([*subclass_refs(t.get("classes") or []), *(t.get("pool") or []),
                               *(adapter.get("values") or [])]))
    lits: dict[str, list[str]] = t.get("literals") or {}
    shaped: dict[str, dict[str, list[str]]] = t.get("shaped") or {}
    s = Search(t, package, call_timeout)
    notes: list[str] = []
    per_entry = budget / max(1, len(t["entries"]))
    result: dict[str, Any] = {"error_id": t["error_id"], "found": False, "examples": 0,
                              "notes": notes, "before": "", "afters": [], "entry": ""}
    kept: list[tuple[list[Any], list[Any]]] = []  # each entry's hits and clean calls
    for entry in t["entries"]:  # the next entry when this one's hits have no one-argument clean variant
        if s.hits:
            if pick(s, seed, adapter, result, nearby=False):
                break
            kept.append((s.hits, s.clean))
            s.hits, s.clean, s.first_hit = [], [], 0
        try:
            plan = signature_plan(entry, pool, lits, shaped, adapter)
        except Exception as exc:
            notes.append(f"{entry}: {type(exc).__name__}: {exc}"[:200])
            continue
        if plan is None or plan["args"] is None:
            notes.append(f"{entry}: no signature")
            continue
        deadline = time.monotonic() + per_entry
        ctor = plan["ctor"]
        ctor_s = st.tuples(*[st.tuples(st.just(n), sg) for n, sg, _ in ctor]) if ctor is not None else st.none()
        args_s = st.tuples(*[st.tuples(st.just(n), sg) for n, sg, _ in plan["args"]])

        @hypothesis_seed(seed)  # and no example database: the same seed, the same calls
        @settings(max_examples=max_examples, database=None, derandomize=False, deadline=None, print_blob=False,
                  suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
                  phases=(Phase.generate, Phase.target, Phase.shrink))
        @given(c=ctor_s, a=args_s)
        def probe(c: Any, a: Any) -> None:
            assume(time.monotonic() < deadline)  # noqa: B023 (run before the loop moves on)
            src = render(plan["module"], plan["call"], list(c) if c is not None else None, list(a))  # noqa: B023
            s.examples += 1
            exc = s.run(src)
            if s.at_site(exc):
                s.hits.append((len(src), src, {"plan": plan, "ctor": c, "args": a}))  # noqa: B023
                s.first_hit = s.first_hit or s.examples
                if len(s.clean) >= 30 or s.examples - s.first_hit > 200:  # clean calls to pick an after from
                    raise Found()  # Hypothesis shrinks it: every smaller hit is recorded too
                return
            if exc is None and len(s.clean) < 500:  # a call that ran clean: an after for a hit nearby
                s.clean.append((src, list(c) if c is not None else None, list(a)))
            target(float(len(s.reached)), label="guard lines reached")

        old = signal.signal(signal.SIGPROF, _on_budget)
        # every 50 ms of CPU time, a look at the clock (again should Hypothesis swallow one)
        _deadline[0] = deadline
        signal.setitimer(signal.ITIMER_PROF, 0.05, 0.05)
        try:
            probe()
        except (Found, OutOfTime):
            pass
        except Exception as exc:  # Hypothesis gave up (no valid example in time): say why
            if time.monotonic() < deadline and not s.hits:  # (an interrupted or replayed run's leftovers say nothing)
                notes.append(f"{entry}: {type(exc).__name__}: {str(exc)[:150]}")
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, old)
    if s.hits and not result["afters"] and not pick(s, seed, adapter, result, nearby=False):
        kept.append((s.hits, s.clean))
    for s.hits, s.clean in kept if not result["afters"] else ():  # else a clean call the search made nearby
        if pick(s, seed, adapter, result, nearby=True):
            break
    if result["before"] and not result["afters"] and s.chosen is not None and adapter.get("lacks"):
        near, result["passes"] = passes_check(s, s.chosen, adapter, start + 1.85 * budget, single_options, render)
        result["before"] = near or result["before"]
    result["found"], result["examples"] = bool(result["before"]), s.examples
    result["seconds"] = round(time.monotonic() - start, 3)
    return result


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
                alts = ["0"] if _FRAME["wrappers"][int(v)][1] == "option" else []
            elif v == OMIT:
                continue
            elif name.startswith("*"):  # given by position: never left out, an array varied, or a kernel's other
                # value of its kind (its 32-bit tile for a 16-bit one)
                alts = [*array_variants(v, adapter or {}),
                        *(x for x in _FRAME["kernel_values"] if x != v and x in specs[i][2] and same_kind(v, x))]
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


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        req = json.load(f)
    out_path = sys.argv[2]
    results: list[dict[str, Any]] = []
    for t in req["targets"]:
        budget = float(req.get("budget_s", 10.0))
        part = f"{out_path}.part"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(part)
        pid = os.fork()
        if pid == 0:  # the child: a fresh copy of the imported state, killed when over budget
            try:
                res = search_target(t, req["package"], budget, int(req.get("seed", 0)),
                                    float(req.get("call_timeout_s", 1.0)), int(req.get("max_examples", 2000)),
                                    req.get("adapter") or {})
            except BaseException as exc:
                res = {"error_id": t["error_id"], "found": False, "notes": [f"{type(exc).__name__}: {exc}"[:300]]}
            with open(part, "w", encoding="utf-8") as w:
                w.write(json.dumps(res))
            os._exit(0)
        limit = time.monotonic() + budget * 2 + 10
        while time.monotonic() < limit:
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.02)
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        try:
            with open(part, encoding="utf-8") as r:
                results.append(json.loads(r.read()))
        except (OSError, ValueError):
            results.append({"error_id": t["error_id"], "found": False, "notes": ["the search did not finish"]})
        with open(out_path, "w", encoding="utf-8") as f:
            json.dump({"results": results}, f)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"results": results}, f)


if __name__ == "__main__":
    main()
