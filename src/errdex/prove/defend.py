"""Defensive samples that do something (text only; the engine runs them).

Rating 8: a try sample that adds a note and re-raises every error defends nothing, and the check written as
code (``analyze/static/checksample.py``, ``Analysis.check_sample``) was shown "not run".  Two samples that act:

- **recover**: for an error whose proven after changes an input value of the raising call (``mistake.py``:
  input-driven, every argument kept), the raising call in ``try``; ``except`` names the class the before
  printed, a message check tells this error from the others of the same call (anything else is re-raised),
  the refusal is logged and the call is made again with the after's value.  Proven when, run with the
  before's value, the except branch is taken (the refusal logged) and the fallback call runs clean, and run
  with the after's value nothing is logged.
- **checked**: the static check sample (``def <call>_would_raise(<params>): return <condition>``) run before
  the raising call, its parameters bound the way the callee binds them (``inspect.signature(...).bind``);
  the call is made only when the check says it would not raise, else the script prints ``not calling ...``.
  Proven as every validate sample (``checks.validate_stopped`` / ``validate_clean``).
"""

from __future__ import annotations

import ast
import copy
import re

from errdex.prove.checks import NOT_CALLING, REFUSED, _catch, _spaced
from errdex.prove.mistake import changes, fed_data

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _call_of(stmt: ast.stmt) -> tuple[str, ast.Call] | None:
    """(the name the result is bound to, the call) of ``x = f(...)`` or ``f(...)``."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        return "result", stmt.value
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
            and isinstance(stmt.value, ast.Call):
        return stmt.targets[0].id, stmt.value
    return None


def _head(m: ast.Module, raising: int) -> tuple[list[str], list[str]]:
    head = m.body[:raising]
    imports = [ast.unparse(s) for s in head if isinstance(s, (ast.Import, ast.ImportFrom))]
    rest = [s for s in head if not isinstance(s, (ast.Import, ast.ImportFrom))]
    return imports, [*_spaced(rest), *([""] if rest and isinstance(rest[-1], _DEFS) else [])]


def recover_script(bad: str, good: str, exception: str, pattern: str) -> str:
    """The before's raising call in ``try``, retried with the after's values when it raises this error
    (logged); "" unless before and after differ only in that call's values."""
    try:
        mb, mg = ast.parse(bad), ast.parse(good)
    except SyntaxError:
        return ""
    if not pattern or len(mb.body) != len(mg.body) or not mb.body:
        return ""
    values: dict[str, ast.expr] = {}  # ``args = [...]`` the raising call reads: the retry gets the after's value
    for x, y in zip(mb.body[:-1], mg.body[:-1], strict=True):
        if ast.dump(x) == ast.dump(y):
            continue
        if not fed_data(x, y, mb.body) or not isinstance(y, ast.Assign) or not isinstance(y.targets[0], ast.Name):
            return ""
        values[y.targets[0].id] = y.value
    cb, cg = _call_of(mb.body[-1]), _call_of(mg.body[-1])
    if cb is None or cg is None or cb[0] != cg[0] or ast.dump(cb[1].func) != ast.dump(cg[1].func):
        return ""
    cs = changes(bad, good)
    if not cs or any(not c.old or not c.new for c in cs):
        return ""
    name, call, retry = cb[0], ast.unparse(cb[1]), ast.unparse(_Inline(values).visit(copy.deepcopy(cg[1])))
    tried = "; ".join(f"{c.old} -> {c.new}" for c in cs)
    imp, catch = _catch(exception)
    imports, rest = _head(mb, len(mb.body) - 1)
    lines = ["import logging", "import re", *([imp] if imp else []), *imports, "", *rest,
             "try:", f"    {name} = {call}",
             f"except {catch} as exc:",
             f"    if not re.match({pattern!r}, str(exc)):",
             "        raise  # another error of the same call: not this one",
             f"    logging.getLogger(__name__).warning('%s {REFUSED} %s; trying %s', {_callee(cb[1])!r}, exc, {tried!r})",
             f"    {name} = {retry}",
             f"print({name})"]
    return "\n".join(lines) + "\n"


class _Inline(ast.NodeTransformer):
    """Names replaced by the after's values (what the retry passes)."""

    def __init__(self, values: dict[str, ast.expr]) -> None:
        self.values = values

    def visit_Name(self, n: ast.Name) -> ast.AST:
        return copy.deepcopy(self.values[n.id]) if n.id in self.values and isinstance(n.ctx, ast.Load) else n


def _callee(call: ast.Call) -> str:
    f = call.func
    while isinstance(f, ast.Call):
        f = f.func
    return ast.unparse(f)


def _checked_callee(check: ast.FunctionDef) -> str:
    """``click.Argument`` from the check's docstring ("True when `click.Argument` raises ...")."""
    doc = ast.get_docstring(check) or ""
    m = re.search(r"`([\w.]+)`", doc)
    return m.group(1) if m else ""


def _match(call: ast.Call, callee: str) -> bool:
    text = ast.unparse(call.func)
    last = callee.rsplit(".", 1)[-1]
    return text in (callee, last) or text.endswith("." + last)


def checked_script(code: str, check_sample: str) -> str:
    """The script with the static check run before its raising call: the call is made only when the check
    says it would not raise; "" when the check names no call of the raising statement or takes ``*args``."""
    try:
        m, cm = ast.parse(code), ast.parse(check_sample)
    except SyntaxError:
        return ""
    checks = [s for s in cm.body if isinstance(s, ast.FunctionDef)]
    if not m.body or len(checks) != 1 or checks[0].args.vararg or checks[0].args.kwarg:
        return ""
    check = checks[0]
    callee = _checked_callee(check)
    stmt = m.body[-1]
    calls = [n for n in ast.walk(stmt) if isinstance(n, ast.Call) and _match(n, callee)] if callee else []
    if not calls or any(isinstance(a, ast.Starred) for a in calls[0].args):
        return ""
    call = calls[0]
    params = [a.arg for a in [*check.args.posonlyargs, *check.args.args, *check.args.kwonlyargs]]
    args = ", ".join([*(ast.unparse(a) for a in call.args), *(ast.unparse(k) for k in call.keywords)])
    imports, rest = _head(m, len(m.body) - 1)
    exc = re.search(r"raises (\w+)", ast.get_docstring(check) or "")
    said = f"its own check says it would raise {exc.group(1)}" if exc else "its own check says it would raise"
    body = ast.unparse(stmt).splitlines()
    lines = ["import inspect", *imports, "", "", *ast.unparse(check).splitlines(), "", "", *rest,
             f"bound = inspect.signature({ast.unparse(call.func)}).bind({args})",
             "bound.apply_defaults()",
             f"if {check.name}({', '.join(f'bound.arguments[{p!r}]' for p in params)}):",
             f"    print({f'{NOT_CALLING} {callee}: {said}'!r})",
             "else:", *("    " + ln for ln in body)]
    return "\n".join(lines) + "\n"
