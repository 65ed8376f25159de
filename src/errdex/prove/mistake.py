"""What a proven fix changed, said in the user's terms, and whether the error is a set-up mistake.

Parsing only: the proven ``before`` and ``after`` (``errdex prove``) are compared statement by statement
and, inside the statement that differs, node by node, down to the smallest piece that changed
(``max_open=True`` -> ``max_open=False``, an argument passed or no longer passed, a ``with`` block
dropped).

An error is a **set-up mistake** (a programming error: fix the code, do not handle it at run time) when
the fix changes code that sets the call up (a statement before the raising one, a decorator, a ``with``
block, a constructor's arguments), or when the exception is one Python raises for code that is wrong
whatever the data (``TypeError``, ``AttributeError``, ...).  It is **input-driven** only when the fix
changes literal data given to the raising call itself (a string, a number, a list of them: what a
program reads at run time), with an exception class that can mean bad data.  For a set-up mistake the
page says to fix it and does not offer a try / except sample as the fix.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass

from errdex.pagenotes import SETUP_MISTAKE
from errdex.prove.direct import matched_ndim, public_used
from errdex.prove.fixes import CAUGHT_LABEL, caught_class, entered
from errdex.prove.misspelt import same_respelt
from errdex.prove.streams import stand_in_text

# exceptions that say the code is wrong, whatever data it runs on
PROGRAMMING = frozenset({"TypeError", "AttributeError", "NameError", "ImportError", "ModuleNotFoundError",
                         "NotImplementedError", "AssertionError", "UnboundLocalError", "SyntaxError"})
_MAX = 70


@dataclass(frozen=True, slots=True)
class Change:
    """One difference between before and after: ``old`` -> ``new`` source ("" for added or dropped),
    ``where``: the call it is given to (``click.FloatRange``) or ""; ``raising``: in the raising
    statement (the last one); ``setup``: in a decorator, a ``with`` item or a statement before it."""

    old: str
    new: str
    where: str = ""
    raising: bool = False
    setup: bool = False
    stmt: str = ""  # the statement (before) it is in, when short: said where no call holds the change


def _parse(code: str) -> list[ast.stmt] | None:
    try:
        return ast.parse(code).body
    except SyntaxError:
        return None


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= _MAX and "\n" not in text else ""


def _callee(node: ast.AST | None) -> str:
    return ast.unparse(node.func) if isinstance(node, ast.Call) else ""


def _diff(a: ast.AST, b: ast.AST, call: ast.AST | None, setup: bool) -> Change | None:
    """The smallest differing piece of two nodes of the same statement (None when equal)."""
    if ast.dump(a) == ast.dump(b):
        return None
    if type(a) is not type(b):
        return Change(_short(a), _short(b), _callee(call), setup=setup)
    if isinstance(a, ast.keyword) and isinstance(b, ast.keyword) and a.arg == b.arg:  # ``max_open=True`` -> ``=False``
        return Change(_short(a), _short(b), _callee(call), setup=setup)
    if isinstance(a, ast.Call) and isinstance(b, ast.Call) and ast.dump(a.func) == ast.dump(b.func):
        ka = {k.arg: k for k in a.keywords}
        kb = {k.arg: k for k in b.keywords}
        if (len(a.args) == len(b.args) and ka.keys() != kb.keys()
                and all(ast.dump(x) == ast.dump(y) for x, y in zip(a.args, b.args, strict=True))):
            gone = [k for k in ka if k not in kb]
            new = [k for k in kb if k not in ka]
            same = all(ast.dump(ka[k]) == ast.dump(kb[k]) for k in ka if k in kb)
            if same and len(gone) + len(new) == 1:
                return (Change(_short(ka[gone[0]]), "", ast.unparse(a.func), setup=setup) if gone
                        else Change("", _short(kb[new[0]]), ast.unparse(a.func), setup=setup))
        call = a
    found: list[Change] = []
    for field in a._fields:
        va, vb = getattr(a, field, None), getattr(b, field, None)
        here = setup or field in ("decorator_list", "items")
        if isinstance(va, list) and isinstance(vb, list):
            if len(va) != len(vb):
                return Change(_short(a), _short(b), _callee(call), setup=setup)
            for x, y in zip(va, vb, strict=True):
                if isinstance(x, ast.AST) and isinstance(y, ast.AST):
                    if (c := _diff(x, y, call, here)) is not None:
                        found.append(c)
                elif x != y:
                    return Change(_short(a), _short(b), _callee(call), setup=setup)
        elif isinstance(va, ast.AST) and isinstance(vb, ast.AST):
            if (c := _diff(va, vb, call, here)) is not None:
                found.append(c)
        elif va != vb:
            return Change(_short(a), _short(b), _callee(call), setup=setup)
    if len(found) == 1:
        return found[0]
    return Change(_short(a), _short(b), _callee(call), setup=setup)


def _diffs(a: ast.AST, b: ast.AST, call: ast.AST | None, setup: bool) -> list[Change]:
    """Every smallest differing piece of two nodes of the same statement, where ``_diff`` gives the whole node
    for two or more (rating 9, b806: the metadata's shape and ``float32`` -> ``float16`` in one call); the
    whole node's change when there is one piece, or a piece cannot be said shortly; [] when neither can."""
    c = _diff(a, b, call, setup)
    if c is None:
        return []
    whole = [c] if c.old or c.new else []
    if type(a) is not type(b):
        return whole
    if isinstance(a, ast.Call) and isinstance(b, ast.Call) and (added := _keywords_added(a, b)):
        return added  # rating 10, 916: two settings passed, said as two, not as the whole call (too long to say)
    if isinstance(a, ast.Call):
        call = a
    out: list[Change] = []
    for field in a._fields:
        va, vb = getattr(a, field, None), getattr(b, field, None)
        here = setup or field in ("decorator_list", "items")
        pairs: list[tuple[ast.AST, ast.AST]] = []
        if isinstance(va, list) and isinstance(vb, list):
            if len(va) != len(vb) or not all(isinstance(x, ast.AST) or x == y for x, y in zip(va, vb, strict=True)):
                return whole
            pairs = [(x, y) for x, y in zip(va, vb, strict=True) if isinstance(x, ast.AST) and isinstance(y, ast.AST)]
        elif isinstance(va, ast.AST) and isinstance(vb, ast.AST):
            pairs = [(va, vb)]
        elif va != vb:
            return whole
        for x, y in pairs:
            if ast.dump(x) != ast.dump(y):
                got = _diffs(x, y, call, here)
                if not got:
                    return whole
                out += got
    return out if len(out) >= 2 else whole


def _keywords_added(a: ast.Call, b: ast.Call) -> list[Change]:
    """Each keyword ``b`` passes beyond ``a``'s, when that is all that differs (the same callee, arguments and
    other keywords): ``cli.main([...], x=True, y=True)`` from ``cli.main([...])``; [] otherwise."""
    ka = {k.arg: ast.dump(k) for k in a.keywords}
    new = [k for k in b.keywords if k.arg not in ka]
    same = [ast.dump(k) for k in b.keywords if k.arg in ka]
    if (len(new) < 2 or ast.dump(a.func) != ast.dump(b.func) or sorted(same) != sorted(ka.values())
            or [ast.dump(x) for x in a.args] != [ast.dump(x) for x in b.args]):
        return []
    out = [Change("", _short(k), ast.unparse(a.func)) for k in new]
    return out if all(c.new for c in out) else []


def _once(cs: list[Change]) -> list[Change]:
    """Each change once: the same value changed in two statements (a shape computed, then used) is one change."""
    seen: set[tuple[str, str, str]] = set()
    out: list[Change] = []
    for c in cs:
        if (c.old, c.new, c.where) not in seen:
            seen.add((c.old, c.new, c.where))
            out.append(c)
    return out


def changes(before: str, after: str) -> list[Change]:
    """What the after changed, statement by statement (empty when either does not parse)."""
    sa, sb = _parse(before), _parse(after)
    if sa is None or sb is None or not sa or not sb:
        return []
    if len(sa) == len(sb):
        out: list[Change] = []
        for i, (x, y) in enumerate(zip(sa, sb, strict=True)):
            last = i == len(sa) - 1
            if isinstance(x, ast.With) and not isinstance(y, ast.With) and last:
                out.append(Change(f"with {ast.unparse(x.items[0])}:", "", raising=True, setup=True))
                continue
            fed = "" if last else fed_data(x, y, sa)
            if fed:  # ``args = ['--s']`` read only as an argument of the raising call: its data
                out.append(Change(_short(x.value), _short(y.value), fed, raising=True, stmt=_short(x)))  # type: ignore[attr-defined]
                continue
            c = _diff(x, y, None, not last)
            if c is not None:  # several pieces: each, when each can be said
                out += [Change(p.old, p.new, p.where, raising=last, setup=p.setup or not last, stmt=_short(x))
                        for p in _diffs(x, y, None, not last) or [c]]
        return _once(out)
    # a statement dropped (or added): the ones that are not in the other
    da = [ast.dump(s) for s in sa]
    db = [ast.dump(s) for s in sb]
    gone = [Change(_short(s), "", setup=True) for s, d in zip(sa, da, strict=True) if d not in db]
    new = [Change("", _short(s), setup=True) for s, d in zip(sb, db, strict=True) if d not in da]
    return gone + new


def fed_data(x: ast.stmt, y: ast.stmt, body: list[ast.stmt]) -> str:
    """The raising call's callee when ``x`` -> ``y`` changes the literal data of ``name = <data>`` and the script
    reads ``name`` only as an argument of the raising statement's call (the command line a test keeps in a
    variable: ``args = ['--s']``, then ``cli.main(args, ...)``); else ""."""
    if not (isinstance(x, ast.Assign) and isinstance(y, ast.Assign) and len(x.targets) == len(y.targets) == 1
            and isinstance(x.targets[0], ast.Name) and ast.dump(x.targets[0]) == ast.dump(y.targets[0])
            and _data(ast.unparse(x.value)) and _data(ast.unparse(y.value))):
        return ""
    name = x.targets[0].id
    reads = [n for s in body for n in ast.walk(s) if isinstance(n, ast.Name) and n.id == name
             and isinstance(n.ctx, ast.Load)]
    last = body[-1]
    calls = [c for c in ast.walk(last) if isinstance(c, ast.Call)
             and any(isinstance(a, ast.Name) and a.id == name for a in [*c.args, *(k.value for k in c.keywords)])]
    if len(reads) != 1 or len(calls) != 1:
        return ""
    return _callee(calls[0])


def _data(text: str) -> bool:
    """A value a program reads at run time: a string, a number, or a list or tuple of them (not a
    flag: a bool is a setting)."""
    try:
        v = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    items = v if isinstance(v, (list, tuple)) else [v]
    return all(isinstance(x, (str, bytes, int, float)) and not isinstance(x, bool) for x in items)


def _value(text: str) -> str:
    """``'x'`` for ``name='x'`` (a keyword argument), else the text."""
    head, eq, rest = text.partition("=")
    return rest if eq and head.isidentifier() else text


def input_driven(before: str, after: str, exception: str) -> bool:
    """The fix changes only data given to the raising call (a string, a number, a list of them, also as a
    keyword's value: ``step=0`` -> ``step=1``; not a flag, not an argument added or dropped, not a class's
    constructor), and the exception can mean bad data: a program meets this with input it reads at run time."""
    cs = changes(before, after)
    if not cs or exception.rsplit(".", 1)[-1] in PROGRAMMING:
        return False
    for c in cs:
        if c.setup or not c.raising or not c.where or not c.old or not c.new:
            return False
        if not (_data(_value(c.old)) and _data(_value(c.new))):  # a flag (``strict=True``) is a setting
            return False
        if c.where.rsplit(".", 1)[-1][:1].isupper():  # a constructor: the object is set up here
            return False
    return True


def said_changes(cs: list[Change]) -> list[str]:
    """Each change in words: "`a` becomes `b` in the call of `f`", "`x=1` is passed ...", ..."""
    said: list[str] = []
    for c in cs:
        whole = c.where and (c.old or c.new).startswith(c.where + "(")  # the call itself changed
        where = (f" in the call of `{c.where}`" if c.where and not whole else
                 f" in `{c.stmt}`" if not c.where and c.stmt and c.stmt != c.old else "")
        if c.old.startswith("with ") and not c.new:
            said.append(f"the statement runs without `{c.old}` around it")
        elif c.old and c.new:
            said.append(f"`{c.old}` becomes `{c.new}`{where}")
        elif c.new:
            said.append(f"`{c.new}` is passed{where}" if c.where else f"`{c.new}` is added{where}")
        else:
            said.append(f"`{c.old}` is no longer passed{where}" if c.where else f"`{c.old}` is left out{where}")
    return said


def change_sentence(before: str, after: str) -> str:
    """"The proven example below changes one thing: `max_open=True` becomes `max_open=False` in the call of
    `click.FloatRange`." ("" when the change cannot be said shortly)."""
    signal = caught_class(before, after)
    if signal:
        return (f"The proven example below catches `{signal}` around {raising_call(before) or 'the call'}: "
                f"`{signal.rsplit('.', 1)[-1]}` is documented as a signal of what to do next, not as a mistake "
                "(the comment on its `except` line quotes its docstring), so catching it is the fix.")
    public = public_used(before, after)
    if public is not None:  # rating 11, 0480: no argument of the private call changed, the call itself replaced
        return (f"The proven example below uses the public `{public[1]}` instead of the private call "
                f"`{public[0]}(...)`: the function returns that constant whenever its checks pass.")
    shaped = matched_ndim(before, after)
    if shaped is not None:  # rating 11, bce3: the other side made to match, nothing dropped
        return (f"The proven example below keeps every argument and passes `{shaped[1]}` in place of `{shaped[0]}`, "
                "so the two sides of the failed check agree.")
    made = entered(before, after)
    if made:
        short = made if len(made) <= _MAX else made[:_MAX - 3] + "..."
        return (f"The proven example below uses the object `{short}` makes inside its `with` block: it must be "
                "entered before it is used, and every use stays inside the block.")
    cs = changes(before, after)
    if not cs or len(cs) > 2 or any(not (c.old or c.new) for c in cs):
        return ""
    said = said_changes(cs)
    what = "one thing" if len(said) == 1 else "two things"
    made = made_in_body(before, cs)
    # a value the kernel body makes itself (``jnp.zeros(..., 'float16')`` in the body): the proof shows that value
    # raising, not every value of its kind (rating 13, a28d: float16 loaded from a ref lowers clean)
    scope = (f" The changed value is one {made} makes inside the function the program defines (its body): the "
             "proof shows that value raising, not that every value of that kind is refused; a value of the same "
             "kind that reaches the body another way (an argument, a ref it reads) was not tried." if made else "")
    return f"The proven example below changes {what}: " + "; ".join(said) + "." + scope


def made_in_body(before: str, cs: Sequence[Change]) -> str:
    """"`jax.numpy.zeros`": the call that makes the changed value, when every change is an argument of a call made
    inside a function the program defines (a kernel body, ``kernel_forms``) and that function reads none of it from
    its parameters; "" otherwise."""
    body = _parse(before)
    defs = [n for n in ast.walk(ast.Module(body=body or [], type_ignores=[])) if isinstance(n, ast.FunctionDef)]
    if not defs or not cs or any(not (c.where and c.old and c.new) for c in cs) or len({c.where for c in cs}) != 1:
        return ""
    where = cs[0].where
    for d in defs:
        params = {a.arg for a in (*d.args.posonlyargs, *d.args.args, *d.args.kwonlyargs)}
        # its body, not its decorators; a call whose value is passed to another call (``barrier(zeros(...))``), not
        # one the body makes for what it does (``run_scoped(..., collective_axes=1)``: its own argument, rating 13)
        inner = [a for stmt in d.body for n in ast.walk(stmt) if isinstance(n, ast.Call)
                 for a in (*n.args, *(k.value for k in n.keywords))]
        for n in (n for a in inner for n in ast.walk(a)):
            if isinstance(n, ast.Call) and ast.unparse(n.func) == where \
                    and not any(isinstance(x, ast.Name) and x.id in params for x in ast.walk(n)):
                return f"`{where}`"
    return ""


def _expr(text: str) -> ast.expr | None:
    try:
        return ast.parse(_value(text), mode="eval").body
    except SyntaxError:
        return None


def _fewer(old: list[ast.expr], new: list[ast.expr]) -> bool:
    dumps = [ast.dump(x) for x in old]
    return len(new) < len(old) and all(ast.dump(x) in dumps for x in new)


def _nothing(e: ast.expr) -> bool:
    """``None``, ``False``, ``''``, ``()``, ``[]``, ``{}``: a value that asks for nothing."""
    if isinstance(e, ast.Constant):
        return e.value is None or e.value is False or e.value in ("", b"")
    if isinstance(e, (ast.List, ast.Tuple, ast.Set)):
        return not e.elts
    return isinstance(e, ast.Dict) and not e.keys


def _drops(c: Change) -> bool:
    """The change only takes away: an argument or statement dropped, a value made ``None``, a list or
    tuple or call left with fewer of the same items, or another attribute read off the same object (not a
    misspelt name corrected: ``module.Comand`` -> ``module.Command``, ``misspelt.py``), a value replaced by an
    empty ``()``, ``[]`` or ``{}`` (``collective_axes=1`` -> ``()``); not
    when what it drops asked for nothing (``collective_axes=None`` left out: the parameter's own "none").
    ``None`` passed for an argument the call was given is a drop whatever it replaces (rating 8, 707f:
    ``mesh=[]`` -> ``mesh=None`` only got past the check; the kernel it made fails when used)."""
    if c.old and not c.new and stand_in_text(c.old):  # a replaced standard stream left out: the call's own state
        return False
    o = _expr(c.old) if c.old else None
    n = _expr(c.new) if c.new else None
    if isinstance(n, ast.Constant) and n.value is None:
        return o is not None and not (isinstance(o, ast.Constant) and o.value is None)
    if o is not None and _nothing(o):  # ``collective_axes=None`` dropped: it asked for nothing
        return False
    if n is not None and o is not None and _nothing(n) and not isinstance(n, ast.Constant):
        # a value that asked for something replaced by an empty collection: the call is asked for nothing (rating
        # 12, 4423: ``collective_axes=1`` -> ``()`` runs only without the collective allocation the before asked for)
        return True
    if c.old and not c.new:
        return True
    if o is None or n is None:
        return False
    if isinstance(o, (ast.List, ast.Tuple, ast.Set)) and isinstance(n, (ast.List, ast.Tuple, ast.Set)):
        return _fewer(o.elts, n.elts)
    if isinstance(o, ast.Call) and isinstance(n, ast.Call) and ast.dump(o.func) == ast.dump(n.func):
        ko, kn = [ast.dump(k) for k in o.keywords], [ast.dump(k) for k in n.keywords]
        return (all(k in ko for k in kn) and _fewer(o.args, n.args) if len(n.args) < len(o.args) else
                [ast.dump(x) for x in o.args] == [ast.dump(x) for x in n.args]
                and len(kn) < len(ko) and all(k in ko for k in kn))
    if isinstance(o, ast.Attribute) and isinstance(n, ast.Attribute):  # another name read, unless the same respelt
        return ast.dump(o.value) == ast.dump(n.value) and o.attr != n.attr and not same_respelt(o.attr, n.attr)
    return False


def only_drops(before: str, after: str) -> bool:
    """Every change of the proven after takes the trigger away (``nargs=2`` dropped, ``['--my-help']``
    -> ``[]``, ``mesh=[]`` -> ``mesh=None``, another attribute read) rather than giving the call what it
    needs: it shows where the error comes from, and is no fix to copy (rating 7: a9dd, 809c, 5b54)."""
    if caught_class(before, after):  # a signal caught as documented: the fix, nothing taken away
        return False
    cs = changes(before, after)
    return bool(cs) and all(_drops(c) for c in cs)


def taken_away(before: str, after: str) -> str:
    """What a proven after that only takes the trigger away (``only_drops``) changed, in words, for the
    line under the example ("`['--my-help']` becomes `[]` in the call of `cli.make_context`"); "" when it
    does more, or cannot be said shortly."""
    if caught_class(before, after):  # a signal caught: nothing taken away
        return ""
    cs = changes(before, after)
    if not cs or len(cs) > 2 or not all(_drops(c) and (c.old or c.new) for c in cs):
        return ""
    return "; ".join(said_changes(cs))


def diagnostic_turned_off(guard_note: str, before: str, after: str) -> str:
    """The diagnostic option a proven change only turns off ("" when it does something else): the guard
    note names the option as a check the user turned on (``guardnote``), and what the change drops or
    replaces names it, in full (``jax_no_tracing``) or as its holder (``jax.no_execution()``)."""
    m = re.search(r"What decides it is the `(\w+)` option", guard_note)
    if m is None or "a check you turned on" not in guard_note:
        return ""
    name = m.group(1)
    short = name.split("_", 1)[-1] if "_" in name else name
    # the piece that changed, or the statement it is in (``True`` -> ``False`` in ``jax.config.update('jax_no_tracing',
    # True)``: rating 9, 53c4 lost its caveat when the after turned the option off instead of dropping the line)
    olds = [x for c in changes(before, after) for x in (c.old, c.stmt)]
    return name if any(re.search(rf"\b(?:{re.escape(name)}|{re.escape(short)})\b", o) for o in olds if o) else ""


def raising_call(before: str) -> str:
    """"`cli.main`": the outermost call of the last statement (the raising one), or ""."""
    body = _parse(before)
    if not body:
        return ""
    last = body[-1]
    # what runs under the context manager, or in the block a kernel form's program is (``if True:`` holding the
    # kernel's ``def`` and the statement that lowers it: rating 13, a28d named the value's ``jax.numpy.zeros``,
    # which never raises, for want of the lowering): its last statement that is not a definition
    while isinstance(last, (ast.With, ast.AsyncWith, ast.If)) and last.body:
        stmts = [s for s in last.body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        if not stmts:
            break
        last = stmts[-1]
    calls = [n for n in ast.walk(last) if isinstance(n, ast.Call)]
    if not calls:
        return ""
    func = calls[0].func
    while isinstance(func, ast.Call):  # ``jax.shard_map(f, ...)(x)``: the call is ``jax.shard_map``'s
        func = func.func
    if len(ast.unparse(func)) <= _MAX:
        return f"`{ast.unparse(func)}`"
    # a chain too long to quote (``jax.jit(...).trace().lower(...)``): the whole statement, each link's arguments
    # elided but the last one's when short -- not its last method alone: rating 14 on 027b, whose raise comes
    # in ``.trace()``, so a try / except around a separate ``.lower(...)`` would not catch it
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
        args = ast.unparse(calls[0]).rpartition(f".{func.attr}(")[2][:-1]
        return f"the `{_chain_said(func.value)}.{func.attr}({args if len(args) <= _MAX - 10 else '…'})` statement that ends the program"
    return ""


def _chain_said(node: ast.expr) -> str:
    """``jax.jit(f).trace()`` said as ``jax.jit(…).trace()``: a chain of calls with each call's arguments elided."""
    if isinstance(node, ast.Call):
        return f"{_chain_said(node.func)}({'…' if node.args or node.keywords else ''})"
    if isinstance(node, ast.Attribute):
        return f"{_chain_said(node.value)}.{node.attr}"
    return ast.unparse(node)


def setup_note(before: str, after: str, exception: str, validated: bool, fix: str = "as the example shows") -> str:
    """Why the page offers no try / except as the fix of a set-up mistake ("" when the error is
    input-driven or the proof says too little); ``fix`` says where the fix is (the solutions, when the
    example only shows the cause)."""
    if not before or not after or input_driven(before, after, exception) or caught_class(before, after):
        return ""
    cls = exception.rsplit(".", 1)[-1]
    cs = changes(before, after)
    said = said_changes(cs) if cs and len(cs) <= 2 and all(c.old or c.new for c in cs) else []
    what = f" ({'; '.join(said)})" if said else ""
    why = (f"`{cls}` here means the code is wrong, whatever data it runs on" if cls in PROGRAMMING else
           f"the proven fix changes how the code sets the call up{what}, not data that varies from run to run")
    # the try / except would go around the call that raises (``sneaky.convert``), not the set-up call
    call = raising_call(before) or next((f"`{c.where}`" for c in cs if c.where), "") or "the call"
    return (f"{SETUP_MISTAKE}: {why}. Fix it {fix}"
            f"{' and check it with the validate sample' if validated else ''}; a try / except around {call} "
            "would hide the mistake and let the program go on with a wrong setup, so none is offered.")


def instead_of(fixes: Sequence[tuple[str, str]], before: str, proven: str) -> list[tuple[str, str]]:
    """The fixes (``fixes.real_fixes``) worth trying in place of the ``proven`` after: all of them when it only
    takes the trigger away (``only_drops``); else (it drops something but does more: a line typed at the prompt a
    stand-in aborted) not the caught signal, which would be a step back."""
    if only_drops(before, proven):
        return list(fixes)
    return [(label, src) for label, src in fixes if not label.endswith(CAUGHT_LABEL)]


def sets_up(before: str, after: str) -> bool:
    """Whether every change of ``after`` is in how the call is set up (a decorator, a ``with`` item, a statement
    before the raising one: ``@click.version_option(..., version='1.0')``), none in the raising statement: what
    may replace an after that only took the trigger away there (another string in ``['--bad']`` is no better)."""
    cs = changes(before, after)
    return bool(cs) and all(c.setup and not c.raising for c in cs)
