"""Afters that keep the caller's intent: every argument stays, only values change (parsing only).

The first after that runs clean is often the one that takes the trigger away (``nargs=2`` dropped, where the
fix a user wants is ``nargs=2, type=int, default=(1, 2)``; ``collective_axes=0`` dropped): it shows where the
error comes from, and readers grade it weak (rating 8).  When the proven after drops an argument, a keyword
or a whole call of the before (``dropped``), afters that keep every one of them are tried first
(``variants``), each changing one value of a call that lost something:

- the value the callee's signature gives the parameter by default (``collective_axes=()``; the defaults come
  from a probe run in the sandbox: ``probe_script`` / ``probe_defaults``);
- the values the site's guards compare the parameter with (``guard_values``: the guard's condition turned
  around on that parameter);
- a container its companions ask for: a keyword given a count (``nargs=2``) and one given a type
  (``type=int``) make ``(1, 2)`` for each other keyword of the call (``default=...``);
- a parameter the guards read that the call does not pass yet, given one of the guards' values;
- a dropped call statement kept, its bool arguments turned the other way.

The engine runs them (and then the other value-only afters it already had) and prefers the first clean
one; the proof says which it is (``Proof.arguments``: "kept", or "drops" and what).
"""

from __future__ import annotations

import ast
import builtins
import collections.abc
import json
from collections.abc import Mapping, Sequence

from errdex.model import ErrorSite
from errdex.pagenotes import (
    KEPT_CAUGHT,
    KEPT_GIVEN,
    KEPT_MATCHED,
    KEPT_PUBLIC,
    KEPT_RESHAPED,
    KEPT_RESPELT,
    KEPT_WITH,
)
from errdex.prove.direct import dotted, matched_ndim, parse_module, public_used
from errdex.prove.fixes import caught_class, entered
from errdex.prove.guard_values import guard_values, unset_guards
from errdex.prove.misspelt import respelt_names
from errdex.prove.mistake import changes, said_changes

MAX_KEPT = 24  # value-only afters tried when the proven one drops an argument
DEFAULTS_MARK = "errdex-defaults:"
KEPT = "kept"
_TYPED = {"int": ("1", "2", "3", "4", "5", "6", "7", "8"), "float": ("1.0", "2.0", "3.0", "4.0", "5.0", "6.0", "7.0", "8.0"),
          "str": ("'a'", "'b'", "'c'", "'d'", "'e'", "'f'", "'g'", "'h'"), "bool": ("True", "False") * 4}
_MAX_TEXT = 60



def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= _MAX_TEXT and "\n" not in text else text[:_MAX_TEXT - 3] + "..."


def _calls(node: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call)]


def _paired(b: ast.Module, a: ast.Module) -> list[tuple[ast.Call, ast.Call]]:
    """Calls of the same function in the same statement, before's with after's, in order."""
    out: list[tuple[ast.Call, ast.Call]] = []
    if len(b.body) != len(a.body):  # statements added or dropped (a warm-up, ``warmup.py``): none is the same one
        return out
    for sb, sa in zip(b.body, a.body, strict=True):
        if ast.dump(sb) == ast.dump(sa):
            continue
        rest = _calls(sa)
        for cb in _calls(sb):
            k = next((i for i, ca in enumerate(rest) if ast.dump(ca.func) == ast.dump(cb.func)), -1)
            if k >= 0:
                out.append((cb, rest[k]))
                rest = rest[k + 1:]
    return out


def _lost(cb: ast.Call, ca: ast.Call) -> list[str]:
    """What ``ca`` no longer passes of ``cb``: keywords by name (``nargs=``), positional arguments by text."""
    names = {k.arg for k in ca.keywords}
    out = [f"{k.arg}=" for k in cb.keywords if k.arg is not None and k.arg not in names]
    if len(ca.args) < len(cb.args):
        kept = [ast.dump(x) for x in ca.args]
        out += [_short(x) for x in cb.args if ast.dump(x) not in kept]
    return out


def _dropped_statements(b: ast.Module, a: ast.Module) -> list[ast.stmt]:
    kept = [ast.dump(s) for s in a.body]
    return [s for s in b.body if ast.dump(s) not in kept and isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)]


def dropped(before: str, after: str) -> tuple[str, ...]:
    """What the after no longer passes of the before: keywords (``nargs=``), positional arguments, call
    statements left out (``jax.config.update('jax_no_tracing', True)``); () when it keeps all of them."""
    b, a = parse_module(before), parse_module(after)
    if b is None or a is None or caught_class(before, after):  # a signal caught around the same call
        return ()
    if len(b.body) != len(a.body):
        return tuple(_short(s) for s in _dropped_statements(b, a))
    return tuple(x for cb, ca in _paired(b, a) for x in _lost(cb, ca))


def _value_slot(a: ast.AST, b: ast.AST) -> bool:
    """Two arguments of the same call: any value for any other, but a call (or a ``lambda``) in both makes the
    same calls with values changed only (``jnp.zeros((8,))`` -> ``jnp.zeros((2,))``)."""
    if type(a) is type(b) and isinstance(a, (ast.Call, ast.Lambda)):  # a function given: its body the same too
        return _same_shape(a, b)
    # a value for another, a class for its instance (``click.Path`` -> ``click.Path()``); not the before's value passed
    # through another call (``f`` -> ``jax.jit(f)``: rating 12, abf6 was said to "change values only")
    return not (isinstance(b, ast.Call) and any(ast.dump(x) == ast.dump(a) for x in b.args))


def _same_shape(a: ast.AST, b: ast.AST) -> bool:
    """The same statements and calls, each call passing the same arguments (positions, keyword names), only
    the values given to them changed."""
    if ast.dump(a) == ast.dump(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, ast.Call) and isinstance(b, ast.Call):
        return (_same_shape(a.func, b.func) and len(a.args) == len(b.args)
                and [k.arg for k in a.keywords] == [k.arg for k in b.keywords]
                and all(_value_slot(x, y) for x, y in zip(a.args, b.args, strict=True))
                and all(_value_slot(x.value, y.value) for x, y in zip(a.keywords, b.keywords, strict=True)))
    for field in a._fields:
        va, vb = getattr(a, field, None), getattr(b, field, None)
        if isinstance(va, list) and isinstance(vb, list):
            if len(va) != len(vb) or not all(_same_shape(x, y) if isinstance(x, ast.AST) and isinstance(y, ast.AST)
                                             else x == y for x, y in zip(va, vb, strict=True)):
                return False
        elif isinstance(va, ast.AST) and isinstance(vb, ast.AST):
            if not _same_shape(va, vb):
                return False
        elif va != vb:
            return False
    return True


def values_only(before: str, after: str) -> bool:
    """Whether the after makes the same calls with the same arguments and changes values only (rating 9: the
    page said so over an after that removed a ``with`` block, fef1, and one that added arguments, 669a)."""
    b, a = parse_module(before), parse_module(after)
    return b is not None and a is not None and _same_shape(b, a)


def reshaped(before: str, after: str) -> str:
    """What an after that keeps every argument but does more than change values did, in words ("the
    statement runs without `with jax.no_execution():` around it"); "" when it changes values only."""
    if values_only(before, after):
        return ""
    return "; ".join(said_changes(changes(before, after))[:2]) or "the code around the call changes"


def _others(value: ast.expr) -> list[str]:
    """Other spellings a user writes for a literal list or tuple: the other container, and for an empty one
    the values that mean "none" (``()``: ``[]``, ``None``, ``0``)."""
    if not isinstance(value, (ast.List, ast.Tuple)) or not all(isinstance(e, ast.Constant) for e in value.elts):
        return []
    items = ", ".join(ast.unparse(e) for e in value.elts)
    if not value.elts:
        return [x for x in ("()", "[]", "None", "0") if x != ast.unparse(value)]
    return [f"[{items}]"] if isinstance(value, ast.Tuple) else [f"({items},)" if len(value.elts) == 1 else f"({items})"]


def spellings(before: str, after: str) -> list[str]:
    """The after with each literal list or tuple it passes in place of the before's value spelt another way
    (``others``): a validate sample is run on them too, so that one that tests the raw value and not what the
    callee makes of it is not called proven (rating 9: 5931 stopped ``dimensions=[0]``, which ``lax.rev``
    makes a tuple; 4423 let ``collective_axes=0`` through, which ``run_scoped`` wraps into ``(0,)``)."""
    b, a = parse_module(before), parse_module(after)
    if b is None or a is None:
        return []
    out: list[str] = []
    for cb, ca in _paired(b, a):
        given = {k.arg: k.value for k in cb.keywords}
        slots = [(ca.keywords[i], "value") for i, k in enumerate(ca.keywords)
                 if k.arg in given and ast.dump(given[k.arg]) != ast.dump(k.value)]
        for holder, field in slots:
            now = getattr(holder, field)
            for text in _others(now):
                setattr(holder, field, ast.parse(text, mode="eval").body)
                src = ast.unparse(a) + "\n"
                if src not in out:
                    out.append(src)
            setattr(holder, field, now)
    return out


def arguments_mark(before: str, after: str) -> str:
    """``Proof.arguments``: "kept" when the after keeps every argument of the before and changes values only,
    else "drops X, Y"; a kept after that catches a signal around the call or uses the object in its ``with``
    block says so ("kept, caught", "kept, with block": it changes no value), and one that changes more than
    values says what ("kept, reshaped: ..."): a ``with`` block removed, arguments added."""
    if (public := public_used(before, after)) is not None:  # the public replacement of a private call (``direct.py``)
        return f"{KEPT_PUBLIC}{public[0]} -> {public[1]}"
    if (shaped := matched_ndim(before, after)) is not None:  # an array reshaped to the other side's length
        return f"{KEPT_MATCHED}{shaped[0]} -> {shaped[1]}"
    lost = dropped(before, after)
    if lost:
        return f"drops {', '.join(lost)}"
    if caught_class(before, after):
        return KEPT_CAUGHT
    if entered(before, after):
        return KEPT_WITH
    if (names := respelt_names(before, after)) is not None:  # a misspelt name read right (``misspelt.py``)
        return f"{KEPT_RESPELT}{names[0]} -> {names[1]}"
    more = reshaped(before, after)
    return f"{KEPT_RESHAPED}{more}" if more else KEPT



def _lossy_calls(b: ast.Module, a: ast.Module) -> list[int]:
    """Indexes (in ``ast.walk(b)``) of the before's calls that lost an argument in the after."""
    if len(b.body) != len(a.body):
        return []
    lossy = {id(cb) for cb, ca in _paired(b, a) if _lost(cb, ca)}
    return [i for i, n in enumerate(ast.walk(b)) if id(n) in lossy]


def probe_script(before: str, after: str) -> str:
    """A script that prints, for each function the lossy calls name by a dotted name of an imported module,
    the defaults its signature declares (as reprs), after ``DEFAULTS_MARK``; "" when there is none."""
    b, a = parse_module(before), parse_module(after)
    if b is None or a is None:
        return ""
    nodes = list(ast.walk(b))
    imports = [s for s in b.body if isinstance(s, (ast.Import, ast.ImportFrom))]
    bound = {(al.asname or al.name).split(".")[0] for s in imports for al in s.names}
    names = sorted({d for i in _lossy_calls(b, a) if isinstance(nodes[i], ast.Call)
                    for d in [dotted(nodes[i].func)] if d and d.split(".")[0] in bound})  # type: ignore[attr-defined]
    if not names:
        return ""
    return "\n".join(["import inspect", "import json", *(ast.unparse(s) for s in imports), "_out = {}",
                      f"for _name in {names!r}:",
                      "    try:",
                      "        _sig = inspect.signature(eval(_name))",
                      "    except Exception:",
                      "        continue",
                      "    _out[_name] = {p.name: repr(p.default) for p in _sig.parameters.values()",
                      "                   if p.default is not inspect.Parameter.empty}",
                      f"print({DEFAULTS_MARK!r}, json.dumps(_out))"]) + "\n"


def probe_defaults(out: str) -> dict[str, dict[str, str]]:
    """The probe's output read back: function -> parameter -> default's source (literals only)."""
    for line in out.splitlines():
        if line.startswith(DEFAULTS_MARK):
            try:
                got = json.loads(line.removeprefix(DEFAULTS_MARK))
            except ValueError:
                return {}
            return {f: {p: v for p, v in ps.items() if _literal(v)} for f, ps in got.items() if isinstance(ps, dict)}
    return {}


def _literal(text: object) -> bool:
    if not isinstance(text, str):
        return False
    try:
        ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return True


def _companions(call: ast.Call, name: str, current: ast.expr) -> list[str]:
    """Containers the call's other keywords ask for: a count (``nargs=2``) of values of a type (``type=int``):
    ``(1, 2)``; of the current value when no type is given (``('x', 'x')``)."""
    counts = [k.value.value for k in call.keywords if k.arg != name and isinstance(k.value, ast.Constant)
              and type(k.value.value) is int and 2 <= k.value.value <= 8]
    types = [k.value.id for k in call.keywords if k.arg != name and isinstance(k.value, ast.Name)
             and k.value.id in _TYPED]
    out: list[str] = []
    for n in counts:
        for t in types:
            out.append(f"({', '.join(_TYPED[t][:n])})")
        if not types and isinstance(current, ast.Constant):
            out.append(f"({', '.join([repr(current.value)] * n)})")
    return out


def _magnitude(current: ast.expr) -> list[str]:
    """``1`` for ``-1``: a count or size given below zero, the same amount given as one."""
    if isinstance(current, ast.UnaryOp) and isinstance(current.op, ast.USub) and isinstance(current.operand, ast.Constant) \
            and type(current.operand.value) in (int, float):
        return [repr(current.operand.value)]
    return []


def _negative(text: str) -> bool:
    """A guard's value below zero goes after the others (``nargs == -1`` turned around: ``0`` before ``-2``)."""
    return text.startswith("-")


def _with_value(before: ast.Module, indexes: Sequence[int], name: str, value: str) -> str:
    """The before with keyword ``name`` of the calls at walk ``indexes`` (the same function's, called in
    several places of the script: each gets it) given ``value`` (added when absent)."""
    m = ast.parse(ast.unparse(before))
    nodes = list(ast.walk(m))
    for index in indexes:
        call = nodes[index]
        assert isinstance(call, ast.Call)
        new = ast.parse(value, mode="eval").body
        for k in call.keywords:
            if k.arg == name:
                k.value = new
                break
        else:
            call.keywords.append(ast.keyword(name, new))
    return ast.unparse(m) + "\n"


def _flipped(before: ast.Module, stmt: ast.stmt) -> list[tuple[str, str]]:
    """A dropped call statement kept with one bool argument turned the other way."""
    out: list[tuple[str, str]] = []
    at = before.body.index(stmt)
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if not isinstance(call, ast.Call):
        return out
    for pos, arg in enumerate([*call.args, *(k.value for k in call.keywords)]):
        if isinstance(arg, ast.Constant) and isinstance(arg.value, bool):
            m = ast.parse(ast.unparse(before))
            c2 = m.body[at].value  # type: ignore[attr-defined]
            target = [*c2.args, *(k.value for k in c2.keywords)][pos]
            target.value = not arg.value
            out.append((f"{_short(c2)} (keeps every argument)", ast.unparse(m) + "\n"))
    return out


def variants(before: str, after: str, site: ErrorSite,
             defaults: Mapping[str, Mapping[str, str]] | None = None,
             wanted: Mapping[str, Sequence[str]] | None = None) -> list[tuple[str, str]]:
    """(label, source) of afters that keep every argument of ``before`` and change values only, for the calls
    ``after`` took an argument from, best first (at most ``MAX_KEPT``); ``wanted``: keyword -> the values the
    before's own message asks for (``fixes.message_values``: ``'nargs' must be 2``), tried first."""
    b, a = parse_module(before), parse_module(after)
    if b is None or a is None:
        return []
    defaults = defaults or {}
    wanted = wanted or {}
    out: list[tuple[str, str]] = []
    seen = {ast.unparse(b) + "\n"}

    def add(label: str, src: str) -> None:
        if src not in seen and len(out) < MAX_KEPT:
            seen.add(src)
            out.append((label, src))

    if len(b.body) != len(a.body):
        for stmt in _dropped_statements(b, a):
            for label, src in _flipped(b, stmt):
                add(label, src)
        return out
    gv = guard_values(site).by_name
    nodes = list(ast.walk(b))
    lost_of = {id(cb): _lost(cb, ca) for cb, ca in _paired(b, a)}
    lossy = _lossy_calls(b, a)
    for index in lossy:
        call = nodes[index]
        assert isinstance(call, ast.Call)
        same = [j for j in lossy if ast.dump(nodes[j].func) == ast.dump(call.func)]  # type: ignore[attr-defined]
        own = defaults.get(dotted(call.func), {})
        lost = [x[:-1] for x in lost_of.get(id(call), []) if x.endswith("=")]
        names = [*lost, *(k.arg for k in call.keywords if k.arg is not None and k.arg not in lost)]
        for name in names:
            current = next(k.value for k in call.keywords if k.arg == name)
            now = ast.unparse(current)
            values = [*wanted.get(name, ()), *([own[name]] if name in own else []), *_companions(call, name, current),
                      *_magnitude(current), *sorted(gv.get(name, ()), key=_negative)]
            for v in values:
                if v != now:
                    add(f"{name}={v} (keeps every argument)", _with_value(b, same, name, v))
        for name, read in gv.items():  # a parameter the guard reads that the call leaves to its default
            if name in names or name not in own:  # only a parameter the callee's signature declares
                continue
            for v in read[:3]:
                add(f"{name}={v} passed (keeps every argument)", _with_value(b, same, name, v))
    return out


def changed(before: str, after: str) -> str:
    """``nargs = 2 -> -1``: what a value-only after changed, shortly (its label in the proof's candidate)."""
    cs = changes(before, after)
    return "; ".join(f"{c.old} -> {c.new}" for c in cs[:2]) if cs else "a value changed"


def value_only(before: str, candidates: Sequence[str]) -> list[int]:
    """Indexes of ``candidates`` (afters already built) that keep every argument of ``before``."""
    return [i for i, c in enumerate(candidates) if c != before and not dropped(before, c)]


def given_mark(site: ErrorSite, before: str, after: str) -> str:
    """``KEPT_GIVEN`` "name | guard | function" when the only change is a keyword the after passes and the before
    leaves out, one the raise's own guard asks unset (``guard_values.unset``: ``isinstance(body, api.NotSpecified)``):
    the call's other form, every argument that raised kept (rating 14, 707f); "function" when the value given is a
    function or a list of them (the call left without it is used as a decorator).  "" otherwise."""
    b, a = parse_module(before), parse_module(after)
    if b is None or a is None:
        return ""
    # a sentinel's class or None, not a type test (``isinstance(mesh, Sequence)``: a value of that type triggers)
    guards = {u[0]: text for u, text in unset_guards(site, pairs=False)  # (a pair's other one given: "reshaped")
              if u[1] == "None" or not (hasattr(builtins, u[1]) or u[1] in collections.abc.__all__)}
    added: list[ast.keyword] = []
    for cb, ca in _paired(b, a):
        have = {k.arg for k in cb.keywords}
        new = [k for k in ca.keywords if k.arg not in have]
        if new:
            added += new
            ca.keywords = [k for k in ca.keywords if k.arg in have]
    if len(added) != 1 or added[0].arg not in guards or ast.dump(a) != ast.dump(b):
        return ""
    v = added[0].value
    items = v.elts if isinstance(v, (ast.List, ast.Tuple)) else [v]
    fn = bool(items) and all(isinstance(e, ast.Lambda) for e in items)
    return f"{KEPT_GIVEN}{added[0].arg} | {guards[added[0].arg]}{' | function' if fn else ''}"
