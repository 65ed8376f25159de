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

This file drives it (the request, the fork per target, each entry's Hypothesis run and its budget); the files
beside it do the parts: a call run and read (``search_run.py``), an entry's strategies and a call's source
(``search_plan.py``), the after of a hit (``search_afters.py``, ``search_pairs.py``, ``search_climb.py``), the
call forms (``search_frame.py``) and the values (``search_strategies.py``).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import sys
import time
from typing import Any

from hypothesis import HealthCheck, Phase, assume, given, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

try:  # errdex's own checks and tests import it as a module of the package
    from errdex.prove.search_afters import pick, single_options
    from errdex.prove.search_climb import passes_check
    from errdex.prove.search_frame import FRAME, frame_for
    from errdex.prove.search_plan import render, signature_plan
    from errdex.prove.search_run import DEADLINE, Found, OutOfTime, Search, on_budget
    from errdex.prove.search_strategies import CALLABLES as _CALLABLES
    from errdex.prove.search_strategies import PACKAGE as _PACKAGE
    from errdex.prove.search_strategies import subclass_refs, use_made
except ImportError:  # in the sandbox: the file beside this one
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from search_afters import pick, single_options  # type: ignore[import-not-found,no-redef]
    from search_climb import passes_check  # type: ignore[import-not-found,no-redef]
    from search_frame import FRAME, frame_for  # type: ignore[import-not-found,no-redef]
    from search_plan import render, signature_plan  # type: ignore[import-not-found,no-redef]
    from search_run import DEADLINE, Found, OutOfTime, Search, on_budget  # type: ignore[import-not-found,no-redef]
    from search_strategies import CALLABLES as _CALLABLES  # type: ignore[import-not-found,no-redef]
    from search_strategies import PACKAGE as _PACKAGE  # type: ignore[import-not-found,no-redef]
    from search_strategies import subclass_refs, use_made  # type: ignore[import-not-found,no-redef]


def search_target(t: dict[str, Any], package: str, budget: float, seed: int, call_timeout: float,
                  max_examples: int, adapter: dict[str, Any] | None = None) -> dict[str, Any]:
    start = time.monotonic()
    _PACKAGE[0] = package
    adapter = adapter or {}
    with contextlib.suppress(Exception):
        importlib.import_module(package)
    frame_for(t, adapter, _CALLABLES)
    adapter = use_made(adapter, t.get("unset") or [], FRAME["typed"])
    for m in FRAME["imports"]:
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

        old = signal.signal(signal.SIGPROF, on_budget)
        # every 50 ms of CPU time, a look at the clock (again should Hypothesis swallow one)
        DEADLINE[0] = deadline
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
