"""Configuration candidates: the option a site's guard reads, set every way the library allows.

For a site whose guard reads an on/off option (``analyze/optionlink.py``: ``if
config.no_tracing.value:``; the raising value from the guard's words), a script
that reaches the raising function is rewritten:

- **before**: the script's last statement (the call that reaches the site) run
  with the option at its raising value, once per way the library offers
  (``analyze/options.py``): its public context manager (``with
  jax.no_tracing(True): ...``) and its ``config.update`` call.  A script that
  already sets the option one way (the test's own ``with jax.no_tracing():``)
  gives the others.  The environment variable is not a way here: the library
  reads it when it defines the option, and a proof runs in a worker that
  imported the library before the script started.
- **after**, best first: (a) *warm-up*: the same statements run once before
  the option is turned on, which keeps the diagnostic on (``jax_no_tracing``
  forbids tracing again, not a call whose trace is cached); (b) the option
  left at its default (the setting statement dropped, a ``with`` block's body
  run without it).  The engine keeps the first that exits 0 without the error.

Everything comes from the extracted option facts (name, holder, ``set_call``,
the public context manager); nothing here names a library.  Parsing only.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Sequence
from dataclasses import dataclass

from errdex.analyze.context import SnapshotContext
from errdex.analyze.guardwords import describe_guard
from errdex.analyze.optionlink import options_for_guard
from errdex.analyze.options import context_manager, raising_value
from errdex.catalog.base import Catalog
from errdex.extract.imports import dotted_source as dotted
from errdex.model import ErrorSite, Snapshot

WAYS = ("context", "config.update")


@dataclass(frozen=True, slots=True)
class OptionSwitch:
    """An on/off option a site's guard reads, and how a program sets it."""

    name: str  # "jax_no_tracing"
    raising: str  # the value under which the guard raises: "True" or "False"
    holder: str  # the holder's last name: "no_tracing"
    context: str = ""  # the public context manager: "jax.no_tracing" ("" when none)
    set_call: str = ""  # the public setter: "jax.config.update" ("" when none)


@dataclass(frozen=True, slots=True)
class ConfigCandidate:
    way: str  # how before sets the option: "context" or "config.update"
    before: str
    original: bool  # the script already set the option this way (before is the script, restated)
    afters: tuple[str, ...]  # warm-up first, then the option left at its default


def switches(site: ErrorSite, ctx: SnapshotContext) -> tuple[OptionSwitch, ...]:
    """The on/off options the site's own guards read, with the value that raises (an earlier check
    that returns or raises first, ``early_exits``, holds at its default when the site is reached)."""
    out: list[OptionSwitch] = []
    for g in site.guards:
        opts = options_for_guard(g, site, ctx)
        if not opts:
            continue
        words, _ = describe_guard(g, opts, snippet=site.snippet, snippet_start=site.snippet_start)
        value = raising_value(words)
        if value not in ("True", "False"):
            continue
        for o in opts:
            if o.kind == "env":
                continue
            sw = OptionSwitch(name=o.name, raising=value, holder=o.holder.rsplit(".", 1)[-1] if o.holder else "",
                              context=context_manager(o, ctx.symbols), set_call=o.set_call)
            if (sw.context or sw.set_call) and sw not in out:
                out.append(sw)
    return tuple(out)


def option_switches(catalog: Catalog, snapshot: Snapshot, sites: Sequence[ErrorSite]) -> dict[str, tuple[OptionSwitch, ...]]:
    """``switches`` of each site that has any, by error id (the catalog's options and symbols)."""
    ctx = SnapshotContext(snapshot=snapshot, sites=[], classes={}, options=list(catalog.config_options(snapshot.key)),
                          tests=[], symbols=dict(catalog.symbols(snapshot.key)))
    out = {s.error_id: switches(s, ctx) for s in sites}
    return {k: v for k, v in out.items() if v}


def _literal(node: ast.expr | None) -> str | None:
    return repr(node.value) if isinstance(node, ast.Constant) and isinstance(node.value, bool) else None


def _context_value(item: ast.withitem, sw: OptionSwitch) -> str | None:
    """The value a ``with`` item sets the option to (``jax.no_tracing()`` -> "True"), None if not it."""
    call = item.context_expr
    if not isinstance(call, ast.Call) or call.keywords or len(call.args) > 1:
        return None
    name = dotted(call.func) or ""
    if not sw.holder or not (name == sw.context or name.rsplit(".", 1)[-1] == sw.holder):
        return None
    return _literal(call.args[0]) if call.args else "True"


def _update_value(stmt: ast.stmt, sw: OptionSwitch) -> str | None:
    """The value ``<config>.update("name", value)`` sets, None if the statement is not that."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and len(stmt.value.args) == 2):
        return None
    call = stmt.value
    name = dotted(call.func) or ""
    first = call.args[0]
    if not (name == sw.set_call or name.endswith("config.update")):
        return None
    if not (isinstance(first, ast.Constant) and first.value == sw.name):
        return None
    return _literal(call.args[1])


@dataclass(frozen=True, slots=True)
class _Split:
    prefix: list[ast.stmt]  # what runs before the option is turned on
    body: list[ast.stmt]  # what runs with it on
    way: str  # how the script sets it ("" : it does not)


def split(mod: ast.Module, sw: OptionSwitch) -> _Split | None:
    """Where a script turns the option to its raising value (top level): a ``with`` block or a
    ``config.update`` statement; a script that does not set it is split before its last statement."""
    for i, stmt in enumerate(mod.body):
        if isinstance(stmt, ast.With) and len(stmt.items) == 1 and _context_value(stmt.items[0], sw) == sw.raising:
            return _Split(mod.body[:i], list(stmt.body), "context")
        if _update_value(stmt, sw) == sw.raising:
            return _Split(mod.body[:i], mod.body[i + 1:], "config.update")
    if any(isinstance(n, ast.With) and any(_context_value(it, sw) is not None for it in n.items)
           for n in ast.walk(mod)) or any(_update_value(s, sw) is not None for s in ast.walk(mod)
                                          if isinstance(s, ast.stmt)):
        return None  # set somewhere else (another value, nested): not a script to rewrite
    if not mod.body or not isinstance(mod.body[-1], (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return None
    return _Split(mod.body[:-1], mod.body[-1:], "")


def _setting(sw: OptionSwitch, way: str, value: str, body: list[ast.stmt]) -> list[ast.stmt]:
    if way == "context":
        code = f"with {sw.context}({value}):\n    pass"
        node = ast.parse(code).body[0]
        assert isinstance(node, ast.With)
        node.body = copy.deepcopy(body)
        return [node]
    return [ast.parse(f"{sw.set_call}({sw.name!r}, {value})").body[0], *copy.deepcopy(body)]


def _with_import(stmts: list[ast.stmt], root: str) -> list[ast.stmt]:
    """``import root`` first unless the script binds ``root`` at top level already."""
    for s in stmts:
        if isinstance(s, ast.Import) and any((a.asname or a.name.split(".")[0]) == root for a in s.names):
            return stmts
        if isinstance(s, ast.ImportFrom) and any((a.asname or a.name) == root for a in s.names):
            return stmts
    return [ast.Import([ast.alias(root)]), *stmts]


def _render(stmts: Sequence[ast.stmt]) -> str:
    return ast.unparse(ast.fix_missing_locations(ast.Module(list(stmts), []))) + "\n"


def candidates(source: str, sw: OptionSwitch) -> list[ConfigCandidate]:
    """The script with the option at its raising value, once per way the library offers (the way the
    script already uses first), each with its afters: warm-up, then the option at its default."""
    try:
        mod = ast.parse(source)
    except SyntaxError:
        return []
    sp = split(mod, sw)
    if sp is None or not sp.body:
        return []
    default = [*sp.prefix, *sp.body]
    warm_up_head = [*sp.prefix, *copy.deepcopy(sp.body)]
    out: list[ConfigCandidate] = []
    ways = sorted(WAYS, key=lambda w: w != sp.way)
    for way in ways:
        public = sw.context if way == "context" else sw.set_call
        if not public:
            continue
        root = public.split(".", 1)[0]
        before = _with_import([*sp.prefix, *_setting(sw, way, sw.raising, sp.body)], root)
        warm = _with_import([*warm_up_head, *_setting(sw, way, sw.raising, sp.body)], root)
        out.append(ConfigCandidate(way, _render(before), way == sp.way, (_render(warm), _render(default))))
    return out
