"""Try and validate samples built around a script's raising statement (text only; run by the engine).

- try: the raising statement inside ``try``; ``except`` names exactly the class the before raised,
  the handler checks the message against this error's template (a regular expression of its
  literal pieces, placeholders as wildcards) that matches no other error of the same function or
  entry, re-raises anything else, and says what was rejected and exits 3 (never returns None).
- validate: the raising call's keyword arguments become an ``options`` dict checked, before the
  call, with the site's own guard conditions (``self.count`` -> ``options.get("count")``); with the
  offending options it stops (exit 3, the library raises nothing), with good ones it calls through.
"""

from __future__ import annotations

import ast
import builtins
import copy
import re
from collections.abc import Sequence

from errdex.model import ErrorSite

ANY = "(?s:.*?)"
_SPECIAL = set(".^$*+?{}[]\\|()")


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


def try_script(module: ast.Module, raising: int, exception: str, pattern: str) -> str:
    """The script with its raising statement handled: this error only, anything else re-raised."""
    imp, catch = _catch(exception)
    head = [ast.unparse(s) for s in module.body[:raising]]
    stmt = ast.unparse(module.body[raising])
    body = "\n".join("    " + ln for ln in stmt.splitlines())
    lines = ["import re", *([imp] if imp else []), *head,
             "try:", body,
             f"except {catch} as exc:",
             f"    if not re.match({pattern!r}, str(exc)):",
             "        raise  # another error of the same call: not this one",
             '    print(f"rejected: {exc}")',
             "    raise SystemExit(3) from None",
             "else:",
             '    print("ok")']
    return "\n".join(lines) + "\n"


def _condition(guards: Sequence[str]) -> ast.expr | None:
    """The guards (all hold at the raise) with ``x`` and ``self.x`` read from ``options``."""
    parts: list[ast.expr] = []
    for g in guards:
        if g.strip() in ("__debug__", "not (__debug__)"):
            continue
        try:
            node = ast.parse(g, mode="eval").body
        except SyntaxError:
            return None
        ok = True

        class Sub(ast.NodeTransformer):
            def visit_Attribute(self, n: ast.Attribute) -> ast.AST:
                if isinstance(n.value, ast.Name) and n.value.id == "self":
                    return _get(n.attr)
                return self.generic_visit(n)

            def visit_Name(self, n: ast.Name) -> ast.AST:
                nonlocal ok
                if hasattr(builtins, n.id):
                    return n
                if n.id == "self":
                    ok = False
                return _get(n.id)

            def visit_Call(self, n: ast.Call) -> ast.AST:
                nonlocal ok
                if not (isinstance(n.func, ast.Name) and n.func.id in ("isinstance", "len", "callable")):
                    ok = False
                return self.generic_visit(n)

        node = Sub().visit(copy.deepcopy(node))
        if not ok:
            return None
        parts.append(node)
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else ast.BoolOp(ast.And(), parts)


def _get(name: str) -> ast.expr:
    return ast.Call(ast.Attribute(ast.Name("options", ast.Load()), "get", ast.Load()), [ast.Constant(name)], [])


def validate_script(module: ast.Module, raising: int, call_index: int, site: ErrorSite) -> str:
    """The script with the raising call's keywords in ``options``, checked by the site's guards first;
    "" when the guards read something other than those keywords (and the call's parameters)."""
    m = copy.deepcopy(module)
    call = list(ast.walk(m))[call_index]
    if not isinstance(call, ast.Call) or not call.keywords:
        return ""
    guards = [g.normalized for g in site.guards if g.kind not in ("except", "match")]
    cond = _condition(guards)
    if cond is None:
        return ""
    # ``**kwargs`` stays a ``**`` entry of the dict; a name the call does not pass reads as None
    options = ast.Dict([ast.Constant(k.arg) if k.arg else None for k in call.keywords],
                       [k.value for k in call.keywords])
    call.keywords = [ast.keyword(None, ast.Name("options", ast.Load()))]
    message = "".join(seg.text if seg.is_literal else "..." for seg in site.template.segments).strip()
    check = [ast.Assign([ast.Name("options", ast.Store())], options, lineno=0),
             ast.If(cond, [*ast.parse(f'print("invalid input, not calling:", {message!r})\n'
                                      "raise SystemExit(3)").body], [])]
    m.body[raising:raising] = check
    return ast.unparse(ast.fix_missing_locations(m)) + "\n"
