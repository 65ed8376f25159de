"""A warm-up after: the proven way to satisfy a diagnostic option whose check sits behind a cache.

When a site's guard reads an on/off option (``configcand.switches``) and the raising function is cached
(``analyze/static/optiontext.cached_site``: a cache decorator above its ``def``, or the miss path of a
cache), the check fires only on a cache miss, so the fix that keeps the check on is a warm-up: make the
call once before the option is turned on, then turn it on and make the same call.  A cache keyed on
function objects is missed by a ``lambda`` written at the call, a new object each time, so the call's
arguments are first bound to names (``fun = lambda ...``, ``arg = jnp.float32(1.0)``) and both calls
pass those same objects.  It is a fix when it runs clean (``search.confirm`` and ``configcand`` run it
like every after); ``warms_up`` recognises one in a proven pair, for the page (``stored.py``) and
``bench/real_fixes.py``.  Parsing only; nothing here names a library.
"""

from __future__ import annotations

import ast
import copy
import keyword
from collections.abc import Sequence

from errdex.analyze.static.optiontext import cached_site
from errdex.model import ErrorSite
from errdex.prove.configcand import OptionSwitch, split

MAX_BOUND = 6  # arguments bound to names: more and the warm-up is not a readable example
WARM_LABEL = "warm-up (the same calls made once before the option is turned on)"  # the proof's candidate says it


def warmable(site: ErrorSite, sws: Sequence[OptionSwitch]) -> bool:
    """Whether a warm-up can satisfy the site's check: an on/off option read by its guard, and a cache in
    front of the raise."""
    return bool(sws) and bool(cached_site(site))


def _plain(node: ast.expr) -> bool:
    """A value that is the same object, or an equal one, every time it is written: a literal, a name, a
    dotted name."""
    if isinstance(node, ast.Constant):
        return True
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _names(stmts: Sequence[ast.stmt]) -> set[str]:
    return {n.id for s in stmts for n in ast.walk(s) if isinstance(n, ast.Name)} | {
        (a.asname or a.name).split(".")[0] for s in stmts if isinstance(s, (ast.Import, ast.ImportFrom))
        for a in s.names}


def _fresh(base: str, taken: set[str]) -> str:
    name = base if base.isidentifier() and not keyword.iskeyword(base) else "arg"
    k = 1
    while name in taken:
        k += 1
        name = f"{base}{k}"
    taken.add(name)
    return name


def bound(body: Sequence[ast.stmt], taken: set[str]) -> tuple[list[ast.stmt], list[ast.stmt]] | None:
    """(assignments, the statements with their calls' arguments replaced by the names): each argument of
    the outermost call of each statement that is not a literal or a name (a ``lambda``, a call, a list)
    bound to a name once: a keyword argument to its keyword, a callable to ``fun``, any other value to
    ``arg``.  None when there is nothing to bind or too much."""
    out = [copy.deepcopy(s) for s in body]
    binds: list[ast.stmt] = []
    for stmt in out:
        value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign)) else None
        if not isinstance(value, ast.Call):
            continue
        slots: list[tuple[str, ast.expr]] = [("fun" if isinstance(a, ast.Lambda) else "arg", a) for a in value.args
                                             if not isinstance(a, ast.Starred)]
        slots += [(k.arg, k.value) for k in value.keywords if k.arg]
        for base, node in slots:
            if _plain(node):
                continue
            name = _fresh(base, taken)
            binds.append(ast.Assign([ast.Name(name, ast.Store())], copy.deepcopy(node), lineno=0))
            ref = ast.Name(name, ast.Load())
            value.args = [ref if a is node else a for a in value.args]
            for k in value.keywords:
                if k.value is node:
                    k.value = ref
    if not binds or len(binds) > MAX_BOUND:
        return None
    return binds, out


def _render(stmts: Sequence[ast.stmt]) -> str:
    return ast.unparse(ast.fix_missing_locations(ast.Module(list(stmts), []))) + "\n"


def warm_up(source: str, sw: OptionSwitch) -> str:
    """The script with its calls' arguments bound to names, the calls made once before the option is turned
    on to its raising value, then again, as the script makes them, with it on ("" when the script does not
    turn it on at top level, or its calls take nothing to bind)."""
    try:
        mod = ast.parse(source)
    except SyntaxError:
        return ""
    sp = split(mod, sw)
    if sp is None or not sp.way or not sp.body:
        return ""
    got = bound(sp.body, _names(mod.body))
    if got is None:
        return ""
    binds, body = got
    on = mod.body[len(sp.prefix)]
    if isinstance(on, ast.With):
        on = copy.deepcopy(on)
        on.body = copy.deepcopy(body)
        return _render([*sp.prefix, *binds, *body, on])
    return _render([*sp.prefix, *binds, *copy.deepcopy(body), on, *copy.deepcopy(body)])


def _turns_on(stmt: ast.stmt) -> bool:
    """``<...>.update('name', <literal>)`` or ``with <...>(<literal>?):``: a statement that sets an option."""
    if isinstance(stmt, ast.With) and len(stmt.items) == 1:
        call = stmt.items[0].context_expr
        return isinstance(call, ast.Call) and not call.keywords and all(isinstance(a, ast.Constant) for a in call.args)
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and len(stmt.value.args) == 2:
        call = stmt.value
        first, second = call.args
        return (isinstance(call.func, ast.Attribute) and call.func.attr == "update" and isinstance(second, ast.Constant)
                and isinstance(first, ast.Constant) and isinstance(first.value, str))
    return False


def warms_up(before: str, after: str) -> str:
    """The option-setting statement (as the before writes it) when ``after`` is a warm-up of ``before``: it
    keeps that statement, and every statement run under it was run before it too; "" otherwise."""
    try:
        b, a = ast.parse(before), ast.parse(after)
    except SyntaxError:
        return ""
    said = {ast.dump(s) for s in b.body if _turns_on(s)} | {
        ast.dump(s.items[0]) for s in b.body if isinstance(s, ast.With) and _turns_on(s)}
    for i, stmt in enumerate(a.body):
        if not _turns_on(stmt):
            continue
        kept = ast.dump(stmt.items[0]) if isinstance(stmt, ast.With) else ast.dump(stmt)
        if kept not in said:
            continue
        under = stmt.body if isinstance(stmt, ast.With) else a.body[i + 1:]
        earlier = {ast.dump(s) for s in a.body[:i]}
        if under and all(ast.dump(s) in earlier for s in under):
            text = ast.unparse(stmt.items[0] if isinstance(stmt, ast.With) else stmt)
            return f"with {text}:" if isinstance(stmt, ast.With) else text
    return ""


MAX_WARM = 3  # warm-ups tried per error: of the before, then of the afters that keep the option on


def warm_afters(site: ErrorSite, sws: Sequence[OptionSwitch], scripts: Sequence[str]) -> tuple[str, ...]:
    """The warm-ups of ``scripts`` (the before first, then its variants that still turn the option on), for a
    site whose check a warm-up can satisfy (``warmable``); () otherwise."""
    if not warmable(site, sws):
        return ()
    out: list[str] = []
    for s in scripts:
        for sw in sws:
            w = warm_up(s, sw)
            if w and w not in out:
                out.append(w)
    return tuple(out[:MAX_WARM])

