"""Run INSIDE the sandbox beside ``search_script.py`` (and importable by errdex's tests): when no change of a hit
runs clean, a call that passes the site's check and stops on something the machine lacks (docs/prove.md, "Passes
the check").  Python 3.10+, no dependency.

A check of a kernel's arguments can sit above code that needs the kernel's device: the check raises on any
machine, but a call that passes it goes on to read the GPU's ``core_count``, which a CPU device has not.  No
argument makes such a call run clean here.  The climb changes one argument at a time, each change keeping the
call raising deeper in the site's file (its traceback's deepest line there below the site grows: one more of
the function's later checks passed), depth first with backtracking, until the call stops on what the library's
adapter names as a thing the machine lacks (``lacks``: the exception's class and its raising line, such as an
``AttributeError`` reading a device's attribute).  That call is an after that *passes the check*: the host
proves it again (``prove/passes.py``) and the page says what it stopped on.
"""

from __future__ import annotations

import linecache
import re
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

MAX_RUNS, MAX_STEPS = 400, 8
Option = tuple[str, str, "list[tuple[str, str]] | None", "list[tuple[str, str]]"]


def raising_line(exc: BaseException | None) -> tuple[str, int, str]:
    """(file, line, source text) of the innermost frame of ``exc``'s traceback."""
    tb = getattr(exc, "__traceback__", None)
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return "", 0, ""
    name, line = tb.tb_frame.f_code.co_filename, tb.tb_lineno
    return name, line, linecache.getline(name, line).strip()


def lacking(exc: BaseException | None, lacks: Sequence[Sequence[str]]) -> bool:
    """Whether ``exc`` is one of the adapter's "the machine lacks it" stops: (class name, regex over its raising
    line) pairs."""
    if exc is None:
        return False
    text = raising_line(exc)[2]
    return any(type(exc).__name__ == cls and re.search(rx, text) for cls, rx, *_ in lacks)


def depth(exc: BaseException | None, path: str, below: int) -> int:
    """The deepest line of the site's file (``path``) below ``below`` the traceback of ``exc`` ran: 0 when it
    stopped at or above the site."""
    tb = getattr(exc, "__traceback__", None)
    best = 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(path) and tb.tb_lineno > below:
            best = max(best, tb.tb_lineno)
        tb = tb.tb_next
    return best


def _said(exc: BaseException | None) -> str:
    """The exception's class and message without what it quotes (``dtype('int8')``)."""
    return f"{type(exc).__name__}: " + re.sub(r"'[^']*'|\"[^\"]*\"", "''", str(exc))


def climb(run: Callable[[str], BaseException | None], render: Callable[[Option], str],
          options_of: Callable[[Option], list[Option]], start: Option, path: str, below: int,
          lacks: Sequence[Sequence[str]], deadline: float = 0.0, max_runs: int = MAX_RUNS) -> list[Option]:
    """From the hit ``start``, one change at a time, each keeping the call raising deeper in ``path`` below
    line ``below`` (the first such change of a call taken at once, its others tried when it leads nowhere:
    depth first with backtracking): the first call that stops on one of ``lacks`` ([] when none within
    ``max_runs``)."""
    if not lacks:
        return []
    seen = {render(start)}
    # (depth, call, what it raised, whether it stopped where its parent did, its changes not yet tried)
    stack: list[tuple[int, str, bool, Iterator[Option]]] = [(0, "", False, iter(options_of(start)))]
    runs = 0
    while stack and runs < max_runs and (not deadline or time.monotonic() < deadline):
        here, said, level, todo = stack[-1]
        opt = next(todo, None)
        if opt is None:
            stack.pop()
            continue
        src = render(opt)
        if src in seen:
            continue
        seen.add(src)
        runs += 1
        exc = run(src)
        d = depth(exc, path, below)
        if d and lacking(exc, lacks):
            return [opt]
        now = _said(exc)
        # deeper, or (once) stopped at the same line for another reason: a 0-d array given one dimension of the
        # two it is unpacked into ("expected 2, got 0" -> "got 1"); not merely a value it quotes changed
        if len(stack) <= MAX_STEPS and (d > here or (d and d == here and now != said and not level)):
            # the argument just changed is not changed again (its other values were its siblings), unless it
            # only got as far as before: one dimension of two given, the second comes next
            stack.append((d, now, d == here, iter([o for o in options_of(opt) if d == here or o[1] != opt[1]])))
    return []


def nearest_hit(run: Callable[[str], BaseException | None], render: Callable[[Option], str],
                options_of: Callable[[Option], list[Option]], after: Option,
                at_site: Callable[[BaseException | None], bool], deadline: float = 0.0) -> str:
    """The climbed call with one change that raises at the site again (``b``'s dtype given to ``a`` too): the
    before that differs from the after in one argument, not in every step of the climb ("" when none does, or
    none by ``deadline``)."""
    for o in options_of(after):
        if deadline and time.monotonic() > deadline:
            break
        src = render(o)
        if at_site(run(src)):
            return src
    return ""


def passes_check(s: Any, how: dict[str, Any], adapter: dict[str, Any], deadline: float,
                 single_options: Callable[..., list[Option]], render: Callable[..., str]) -> tuple[str, list[str]]:
    """For the search's hit ``how`` (``search_run.Search`` ``s``): a call that passes the site's check and stops
    on what this machine lacks, and the before one change away from it ("" when none).  The changes are
    ``clean_variants``' (``single_options``) and the library's own values of a parameter's class (``plan["made"]``)."""
    plan = how["plan"]

    def options_of(o: Option) -> list[Option]:
        _, _, c, a = o
        made: list[Option] = [("args", n, c, [(k, x) if k == n else (k, v) for k, v in a]) for n, v in a
                              for x in plan.get("made", {}).get(n.lstrip("*"), []) if x != v]
        return [*single_options(plan, c, a, adapter), *made]

    def shown(o: Option) -> str:
        return render(plan["module"], plan["call"], o[2], o[3])
    start: Option = ("args", "", list(how["ctor"]) if how["ctor"] is not None else None, list(how["args"]))
    def run(src: str) -> BaseException | None:
        got: BaseException | None = s.run(src, False)  # no guard lines recorded: the traceback says how deep it got
        return got
    got = climb(run, shown, options_of, start, s.path, max(s.lines), adapter["lacks"], deadline)
    before = nearest_hit(run, shown, options_of, got[0], s.at_site, deadline + 8) if got else ""  # killed at 2 * budget + 10
    return before, [shown(o) for o in got]
