"""Try and validate samples built around a script's raising statement (text only; run by the engine).

Both are shaped as code a user would keep: a small function around the library call, then the
script's own call of it.

- try: ``<call>_or_fallback(<names the call reads>, *, fallback)`` runs the raising statement inside
  ``try``; ``except`` names exactly the class the before raised, the handler checks the message
  against this error's template (a regular expression of its literal pieces, placeholders as
  wildcards) that matches no other error of the same function or entry, re-raises anything else,
  and returns the ``fallback`` the caller passes (never a silent None).  The script then prints what
  the function returned for the script's own input: ``FALLBACK`` with the offending input (the error
  was handled), the library's result with the good one.
- validate: ``<call>_problem(*args, **kwargs)`` binds the raising call's arguments to the callee's
  signature (``inspect.signature(...).bind``, defaults applied) and tests the site's own guard
  conditions on them (the check the page's Prevention states, in the call's parameter names),
  returning the message the library would raise or ""; the script calls the library only when there
  is no problem, and prints ``not calling ...: <problem>`` otherwise (with the offending input the
  library raises nothing).

``try_handled``/``try_clean`` and ``validate_stopped``/``validate_clean`` say whether a run of each
sample shows what it claims (the engine's proof and its recheck use them).
"""

from __future__ import annotations

import ast
import builtins
import copy
import keyword
import re
from collections.abc import Sequence

from errdex.model import ErrorSite
from errdex.prove.rebuilt import Rebuilt

ANY = "(?s:.*?)"
_SPECIAL = set(".^$*+?{}[]\\|()")
FALLBACK = "fallback: the library refused this input"
NOT_CALLING = "not calling"


def _esc(text: str) -> str:
    """``re.escape`` without escaping spaces and punctuation that are not special (readable samples)."""
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def template_regex(site: ErrorSite) -> str:
    """``^literal(?s:.*?)literal$`` for each of the site's templates, joined by ``|``."""
    alts: list[str] = []
    for t in site.templates or (site.template,):
        parts = [_esc(s.text) if s.is_literal else ANY for s in t.segments]
        body = "".join(parts)
        if re.fullmatch(r"(\(\?s:\.\*\?\))*", body):
            continue  # a message that is all placeholders says nothing
        alts.append(body)
    if not alts:
        return ""
    return "^(?:" + "|".join(alts) + ")$"


def distinct_regex(site: ErrorSite, rivals: Sequence[ErrorSite]) -> str:
    """The template regex when no rival's message (rendered) matches it, else ""."""
    pattern = template_regex(site)
    if not pattern:
        return ""
    rx = re.compile(pattern)
    for r in rivals:
        if r.error_id == site.error_id:
            continue
        for t in r.templates or (r.template,):
            if rx.fullmatch(t.render()):
                return ""
    return pattern


def _catch(exception: str) -> tuple[str, str]:
    mod, _, cls = exception.rpartition(".")
    if not mod or mod == "builtins":
        return "", cls
    return f"import {mod}", exception


def _snake(name: str) -> str:
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name.strip("_")).lower()
    s = re.sub(r"\W+", "_", s).strip("_")
    return s or "call"


def _call_name(stmt: ast.stmt) -> str:
    """The name a function around ``stmt`` is called by: its outermost call's (``convert`` for
    ``bar.convert(...)``), a defined function's or class's own name, else ``call``."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return _snake(stmt.name)
    if isinstance(stmt, (ast.With, ast.AsyncWith)) and stmt.body:  # what runs under the context
        return _call_name(stmt.body[-1])
    value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign)) else None
    calls = [value] if isinstance(value, ast.Call) else []
    calls += [n for n in ast.walk(stmt) if isinstance(n, ast.Call)]
    for c in calls:
        f = c.func
        while isinstance(f, ast.Call):  # jax.jit(f)(x): the call of what jit returned is jit's
            f = f.func
        if isinstance(f, ast.Attribute):
            return _snake(f.attr)
        if isinstance(f, ast.Name):
            return _snake(f.id)
    return "call"


def _bound(stmts: Sequence[ast.stmt]) -> tuple[set[str], set[str]]:
    """(names the statements bind as modules by import, other names they bind)."""
    mods: set[str] = set()
    other: set[str] = set()
    for s in stmts:
        if isinstance(s, (ast.Import, ast.ImportFrom)):
            for a in s.names:
                name = a.asname or a.name.split(".")[0]
                (mods if isinstance(s, ast.Import) else other).add(name)
            continue
        for n in ast.walk(s):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                other.add(n.id)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                other.add(n.name)
    return mods, other


def _params(stmt: ast.stmt, head: Sequence[ast.stmt]) -> list[str]:
    """The names ``stmt`` reads that the script's own statements before it bind (not modules,
    not what ``from x import y`` brings in: those stay global), in order of first use."""
    mods, bound = _bound(head)
    stored = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    froms = {a.asname or a.name for s in head if isinstance(s, ast.ImportFrom) for a in s.names}
    out: list[str] = []
    names = sorted((n for n in ast.walk(stmt) if isinstance(n, ast.Name)), key=lambda n: (n.lineno, n.col_offset))
    for n in names:
        if (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in bound and n.id not in mods
                and n.id not in froms and n.id not in stored and n.id not in out and not keyword.iskeyword(n.id)):
            out.append(n.id)
    return out


def _returning(stmt: ast.stmt) -> tuple[list[str], str]:
    """(the lines inside ``try``, the expression returned after it when the statement is no
    expression: a defined name, an assigned name, or "")."""
    if isinstance(stmt, ast.Expr):
        return [f"return {ast.unparse(stmt.value)}"], ""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return [f"return {ast.unparse(stmt.value)}"], ""
    if isinstance(stmt, (ast.With, ast.AsyncWith)) and isinstance(stmt.body[-1], ast.Expr):
        # the result of what runs under the context manager: ``with cm(): return f()``
        w = copy.deepcopy(stmt)
        last = w.body[-1]
        assert isinstance(last, ast.Expr)
        w.body[-1] = ast.Return(last.value)
        return ast.unparse(ast.fix_missing_locations(w)).splitlines(), ""
    lines = ast.unparse(stmt).splitlines()
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return lines, stmt.name
    names = [n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    return lines, (names[-1] if names else "")


REFUSED = "refused its input:"  # what the try sample logs when it returns the fallback
_TYPED = {"builtins.float": "float('nan')", "builtins.int": "0", "builtins.str": "''", "builtins.bytes": "b''",
          "builtins.list": "[]", "builtins.tuple": "()", "builtins.dict": "{}", "builtins.set": "set()",
          "builtins.bool": "False", "builtins.NoneType": "None"}
TYPE_MARK = "errdex-result-type:"


def typed_fallback(probe_out: str) -> str:
    """The demo's ``fallback`` value typed like what the call returned on the good input (the probe's
    ``TYPE_MARK`` line: ``float('nan')`` for a float, ``[]`` for a list), else ``None``: an object the
    sample cannot make up (the handler logs the refusal, so ``None`` is never silent)."""
    for line in probe_out.splitlines():
        if line.startswith(TYPE_MARK):
            return _TYPED.get(line.removeprefix(TYPE_MARK).strip(), "None")
    return "None"


def type_probe(script: str) -> str:
    """The try sample's good run with a line that prints the type of what the function returned."""
    lines = script.rstrip().splitlines()
    last = lines[-1]
    if not (last.startswith("print(") and last.endswith(")")):
        return ""
    call = last[len("print("):-1]
    return "\n".join([*lines[:-1], f"_result = {call}", "print(_result)",
                      f"print({TYPE_MARK!r}, type(_result).__module__ + '.' + type(_result).__qualname__)"]) + "\n"


def try_script(module: ast.Module, raising: int, exception: str, pattern: str, message: str = "",
               fallback: str = "") -> str:
    """The script with its raising statement moved into a function that handles this error only:
    it logs the refusal and returns the caller's ``fallback`` for it, and lets anything else propagate.
    ``message`` (the error's text, for the docstring) is optional; ``fallback`` is the source of the
    value the script's own call passes (typed like the call's result: ``typed_fallback``), by default
    the placeholder ``FALLBACK`` of the earlier shape."""
    imp, catch = _catch(exception)
    head, stmt = module.body[:raising], module.body[raising]
    imports = [s for s in head if isinstance(s, (ast.Import, ast.ImportFrom))]
    rest = [s for s in head if not isinstance(s, (ast.Import, ast.ImportFrom))]
    name = f"{_call_name(stmt)}_or_fallback"
    params = _params(stmt, head)
    body, after = _returning(stmt)
    passed: list[str] = []  # the call's own arguments, passed through by the caller
    forward = _forwarded(stmt)
    if forward is not None:
        func, passed = forward
        params = [p for p in _params(ast.Expr(func), head) if p not in ("args", "kwargs", "fallback")]
        call = f"{ast.unparse(func)}(*args, **kwargs)"
        body, after, what = [f"return {call}"], "", f"``{call}``"
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        what = f"Defines ``{stmt.name}``"
    elif isinstance(stmt, (ast.Expr, ast.Assign)) and len(ast.unparse(stmt.value).splitlines()) == 1:
        what = f"``{ast.unparse(stmt.value)}``"
    elif isinstance(stmt, (ast.With, ast.AsyncWith)) and len(stmt.items) == 1 and len(stmt.body) == 1:
        what = (f"``{ast.unparse(stmt.body[0])}`` under ``with {ast.unparse(stmt.items[0])}``"
                if len(ast.unparse(stmt.body[0]).splitlines()) == 1 else "The statement below")
    else:
        what = "The statement below"
    first = message.strip().splitlines()[0] if message.strip() else ""
    said = f"{catch}: {first}" if first else f"{catch} with the message below"
    said = said.replace("\\", "\\\\").replace('"""', "'''")
    logged = bool(fallback)
    lines = ["import re", *(["import logging"] if logged else []), *([imp] if imp else []),
             *(ast.unparse(s) for s in imports), "", "",
             f"def {name}({', '.join([*params, *(['*args', 'fallback', '**kwargs'] if forward else ['*', 'fallback'])])}):",
             f'    """{what}, or {"logs and " if logged else ""}returns ``fallback`` when that raises', f"    {said}",
             '    Any other error propagates."""',
             "    try:", *("        " + ln for ln in body),
             f"    except {catch} as exc:",
             f"        if not re.match({pattern!r}, str(exc)):",
             "            raise  # another error of the same call: not this one",
             *([f"        logging.getLogger(__name__).warning('%s {REFUSED} %s', {name!r}, exc)"] if logged else []),
             "        return fallback",
             *([f"    return {after}"] if after else []),
             "", "", *_spaced(rest),
             *([""] if rest and isinstance(rest[-1], _DEFS) else []),
             f"print({name}({', '.join([*params, *passed, f'fallback={fallback or repr(FALLBACK)}'])}))"]
    return "\n".join(lines) + "\n"


def _forwarded(stmt: ast.stmt) -> tuple[ast.expr, list[str]] | None:
    """(the called expression, its arguments as source) when the statement is one library call whose
    arguments the function can take from its caller (``click.progressbar(length=n)`` becomes
    ``progressbar_or_fallback(*args, fallback, **kwargs)``); None for a ``*``/``**`` argument already there."""
    value = stmt.value if isinstance(stmt, ast.Expr) else (
        stmt.value if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None)
    if not isinstance(value, ast.Call):
        return None
    if any(isinstance(a, ast.Starred) for a in value.args) or any(k.arg is None for k in value.keywords):
        return None
    if any(k.arg in ("fallback", "args", "kwargs") for k in value.keywords):
        return None
    return value.func, [ast.unparse(a) for a in value.args] + [f"{k.arg}={ast.unparse(k.value)}" for k in value.keywords]


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _spaced(stmts: Sequence[ast.stmt]) -> list[str]:
    """The statements as source, a blank line around each ``def``/``class`` (as a person writes them)."""
    out: list[str] = []
    for i, st in enumerate(stmts):
        if i > 0 and (isinstance(st, _DEFS) or isinstance(stmts[i - 1], _DEFS)):
            out.append("")
        out.extend(ast.unparse(st).splitlines())
    return out


def try_handled(rc: int, out: str, err: str) -> bool:
    """A run of the try sample on the offending input: it returned the fallback, nothing escaped.
    (A sample of the earlier shape, which said ``rejected`` and exited 3, is still read.)"""
    lines = out.rstrip().splitlines()
    if "Traceback" in err:
        return False
    if rc == 0 and REFUSED in err:  # logged the refusal and returned the fallback
        return True
    return (rc == 0 and bool(lines) and lines[-1] == FALLBACK) or (rc == 3 and out.startswith("rejected"))


def try_clean(rc: int, out: str, err: str = "") -> bool:
    """A run of the try sample on the good input: the call went through (no fallback, nothing logged)."""
    lines = out.rstrip().splitlines()
    return rc == 0 and bool(lines) and lines[-1] != FALLBACK and REFUSED not in err


_SAFE_CALLS = ("isinstance", "len", "callable", "any", "all", "hasattr", "getattr", "type", "issubclass",
               "tuple", "list", "set", "sorted", "min", "max", "abs", "bool", "int", "float", "str")


class _SelfAttrs(ast.NodeTransformer):
    """``self.x`` -> ``x``: in a constructor's check, the attribute it set from the argument of that name
    (the proof tells whether they agree)."""

    def visit_Attribute(self, n: ast.Attribute) -> ast.AST:
        if isinstance(n.value, ast.Name) and n.value.id == "self" and not n.attr.startswith("_"):
            return ast.copy_location(ast.Name(n.attr, ast.Load()), n)
        return self.generic_visit(n)


def _condition(guards: Sequence[str], constructor: bool = False) -> tuple[ast.expr, list[str]] | None:
    """(the guards, all of which hold at the raise, joined by ``and``; the argument names they read in
    order of first use).  None when a guard reads the object's own state (``self``; for a constructor,
    ``self.x`` is read as its argument ``x``), calls something other than a builtin, or cannot be
    parsed: no check a caller can make before the call."""
    parts: list[ast.expr] = []
    names: list[str] = []
    for g in guards:
        if g.strip() in ("__debug__", "not (__debug__)"):
            continue
        try:
            node = ast.parse(g, mode="eval").body
        except SyntaxError:
            return None
        if constructor:
            node = _SelfAttrs().visit(node)
        for n in ast.walk(node):
            if isinstance(n, ast.Call) and not (isinstance(n.func, ast.Name) and n.func.id in _SAFE_CALLS):
                return None
            if isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom,
                              ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                return None
        read = sorted((n for n in ast.walk(node) if isinstance(n, ast.Name)), key=lambda n: (n.lineno, n.col_offset))
        for n in read:
            if n.id in ("self", "cls"):
                return None
            if not hasattr(builtins, n.id) and n.id not in names:
                names.append(n.id)
        parts.append(node)
    if not parts or not names:
        return None
    return (parts[0] if len(parts) == 1 else ast.BoolOp(ast.And(), parts)), names


def validate_script(module: ast.Module, raising: int, call_index: int, site: ErrorSite,
                    rebuild: Rebuilt | None = None) -> str:
    """The script with a check function called first, ``<call>_problem(*args, **kwargs)``: it binds the
    arguments the way the library call will (its signature, defaults applied) and tests the site's own
    guard conditions on them (what the page's Prevention states), returning the message the library would
    raise, or "".  The library is called only when there is no problem.  "" when the guards read
    something other than arguments of that call (the object's state, a helper).  ``rebuild``: what the
    function makes of its arguments before the check (``rebuilt.py``), run first in the check."""
    m = copy.deepcopy(module)
    nodes = list(ast.walk(m))
    if call_index >= len(nodes) or not isinstance(call := nodes[call_index], ast.Call):
        return ""
    if not any(n is call for n in ast.walk(m.body[raising])):  # the check is made on the raising call only
        return ""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return ""
    found = _condition([g.normalized for g in site.guards if g.kind not in ("except", "match")],
                       constructor=site.qualname.endswith(".__init__"))
    if found is None:
        return ""
    cond, names = found
    callee = ast.unparse(call.func)
    name = f"{_call_name(ast.Expr(call))}_problem"
    message = "".join(seg.text if seg.is_literal else "..." for seg in site.template.segments).strip()
    taken = [*names, *(rebuild.reads if rebuild else ())]
    reads = "".join(f"    {n} = given.arguments[{n!r}]\n" for n in taken)
    reads += "".join(f"    {ln}\n" for ln in (rebuild.lines if rebuild else ()))
    if '"""' in callee or "\\" in callee:
        return ""
    said = ("\n    It first makes of the arguments what the call itself makes of them before its check."
            if rebuild else "")
    check = ast.parse(
        f"def {name}(*args, **kwargs):\n"
        f'    """What ``{callee}(*args, **kwargs)`` would refuse, checked before calling it: the message\n'
        f'    it would raise, or "" when the call can go ahead.{said}"""\n'
        f"    given = inspect.signature({callee}).bind(*args, **kwargs)\n"
        f"    given.apply_defaults()\n{reads}"
        f"    if COND:\n        return {message!r}\n    return ''\n").body[0]
    assert isinstance(check, ast.FunctionDef) and isinstance(check.body[-2], ast.If)
    check.body[-2].test = cond
    args = ", ".join([*(ast.unparse(a) for a in call.args), *(f"{k.arg}={ast.unparse(k.value)}" for k in call.keywords)])
    raising_stmt = m.body[raising]
    guarded = ast.parse(f"problem = {name}({args})\nif problem:\n"
                        f"    print({f'{NOT_CALLING} {callee}:'!r}, problem)\nelse:\n    pass\n").body
    last = guarded[-1]
    assert isinstance(last, ast.If)
    last.orelse = [raising_stmt]
    head = m.body[:raising]
    imports = [s for s in head if isinstance(s, (ast.Import, ast.ImportFrom))]
    rest = [s for s in head if not isinstance(s, (ast.Import, ast.ImportFrom))]
    mine = [ast.unparse(s) for s in imports]
    mine += [i for i in (rebuild.imports if rebuild else ()) if i not in mine]
    lines = ["import inspect", *mine, "", "", *ast.unparse(check).splitlines(), "", "",
             *_spaced(rest), *([""] if rest and isinstance(rest[-1], _DEFS) else []),
             *(ast.unparse(s) for s in [*guarded, *m.body[raising + 1:]])]
    return "\n".join(lines) + "\n"


def validate_stopped(rc: int, out: str, err: str) -> bool:
    """A run of the validate sample on the offending input: it named the problem and called nothing
    that raised.  (A sample of the earlier shape, which exited 3, is still read.)"""
    if "Traceback" in err:
        return False
    return (rc == 0 and out.startswith(NOT_CALLING)) or (rc == 3 and out.startswith("invalid input"))


def validate_clean(rc: int, out: str) -> bool:
    """A run of the validate sample on the good input: it called through."""
    return rc == 0 and not out.startswith(NOT_CALLING)
