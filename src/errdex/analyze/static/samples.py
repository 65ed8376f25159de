"""Code samples for the page, each built from facts and published only if the verifier passes it.

Every builder returns candidates best first; ``first_valid`` keeps the first
one that ``check_sample`` accepts and records why the others were dropped,
so a sample that would use an unknown name is never shown.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import re
import textwrap
from collections.abc import Iterable, Mapping

from errdex.analyze.facts import Facts, GuardFact
from errdex.analyze.verify import check_sample
from errdex.model import ConfigOption

_EXPECT_CALLS = {"raises", "warns", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "assertWarns",
                 "assertWarnsRegex", "assertRaisesWithLiteralMatch"}
Symbols = Mapping[str, tuple[str, ...]]


def first_valid(candidates: Iterable[tuple[str, str]], symbols: Symbols, withheld: list[str],
                section: str) -> str:
    """The first (label, code) whose code verifies; reasons for the rejected ones go to ``withheld``."""
    for label, code in candidates:
        if not code.strip():
            continue
        problems = check_sample(code, symbols)
        if not problems:
            return code
        withheld.append(f"{section}: {label} sample dropped: " + "; ".join(p.message for p in problems[:3]))
    return ""


# --------------------------------------------------------------------------- helpers


def dq(text: str) -> str:
    """A Python string literal in double quotes (option names, as JAX's docs write them)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def short_literal(f: Facts, limit: int = 60) -> str:
    """The longest literal run of the template, cut at a word boundary: text the message surely contains."""
    lits = sorted((ln.strip() for t in f.site.template.literals for ln in t.split("\n")), key=len, reverse=True)
    if len(f.site.templates) > 1:  # a raise with several messages: text that every one of them contains
        pieces = sorted({p.strip() for x in lits for p in [x, *re.split(r"[;.:\n]", x)] if p.strip()},
                        key=len, reverse=True)
        lits = [x for x in pieces if all(x in t.render() for t in f.site.templates)]
    if not lits or len(lits[0]) < 4:
        return ""
    text = lits[0]
    if len(text) > limit:
        text = text[:limit].rsplit(" ", 1)[0]
    return text


def catch_clause(f: Facts) -> tuple[str, str]:
    """(import line or "", the class to write in ``except``)."""
    name = f.exception.public_name or f.exception.catch_name or "Exception"
    if "." in name:
        return f"import {name.split('.', 1)[0]}", name
    return "", name


def where(f: Facts) -> str:
    return f"{f.site.path}:{f.site.line}"


def free_names(expr: ast.expr) -> list[str] | None:
    """Names an expression reads that a sample would have to take as parameters; None when one is
    called or is the base of a call (a sample cannot invent the library's helpers)."""
    called: set[str] = set()
    for n in ast.walk(expr):
        if isinstance(n, ast.Call):
            base = n.func
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and not hasattr(builtins, base.id):
                called.add(base.id)
        if isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)):
            return None
    names: list[str] = []
    bound = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    for n in ast.walk(expr):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in bound:
            if n.id in called:
                return None
            if not hasattr(builtins, n.id) and n.id not in names:
                names.append(n.id)
    return names


def _ident(text: str) -> str:
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in text).strip("_") or "call"
    if out[0].isdigit() or keyword.iskeyword(out):
        out = "f_" + out
    return out


# --------------------------------------------------------------------------- option samples


def is_bool_option(opt: ConfigOption) -> bool:
    d = opt.default or ""
    return d in ("True", "False") or d.startswith("bool(") or "bool" in opt.adapter


def option_value(g: GuardFact, opt: ConfigOption) -> tuple[str, str] | None:
    """(value that triggers, value that avoids) for a boolean option guard, from the guard's polarity."""
    if not g.words or not is_bool_option(opt):
        return None
    if g.words.endswith(" is on"):
        return "True", "False"
    if g.words.endswith(" is off"):
        return "False", "True"
    return None


def option_samples(f: Facts) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[tuple[str, str]]]:
    """(validate, try, example before/after as "before\\x00after") candidates for option guards."""
    validate: list[tuple[str, str]] = []
    tries: list[tuple[str, str]] = []
    fixes: list[tuple[str, str]] = []
    imp, exc = catch_clause(f)
    lit = short_literal(f)
    for g in f.guards:
        for opt in g.options:
            vals = option_value(g, opt)
            if opt.set_call and vals is not None:
                bad, good = vals
                root = opt.set_call.split(".", 1)[0]
                read = opt.read_attr
                check = f"{read}" if bad == "True" else f"not {read}"
                if read:
                    validate.append(("option", f"import {root}\n\nif {check}:\n    {set_expr(opt, good)}\n"))
                else:
                    validate.append(("option", f"import {root}\n\n{set_expr(opt, good)}\n"))
                imports = "\n".join(dict.fromkeys(x for x in (f"import {root}", imp) if x))
                tries.append(("option", (
                    f"{imports}\n\n\ndef call_with_{_ident(opt.name)}_{good.lower()}(fn, *args, **kwargs):\n"
                    f"    try:\n        return fn(*args, **kwargs)\n"
                    f"    except {exc} as exc:\n"
                    + (f"        if {lit!r} not in str(exc):\n            raise\n" if lit else "")
                    + f"        {set_expr(opt, good)}\n        return fn(*args, **kwargs)\n")))
                fixes.append(("option", f"import {root}\n\n{set_expr(opt, bad)}  # {g.words}\n"
                              f"\x00import {root}\n\n{set_expr(opt, good)}\n"))
            elif opt.kind == "env" and g.words.endswith("set to a non-empty value"):
                validate.append(("env", f"import os\n\nif os.environ.get({dq(opt.name)}):\n"
                                 f"    del os.environ[{dq(opt.name)}]\n"))
                fixes.append(("env", f"import os\n\nos.environ[{dq(opt.name)}] = '1'\n"
                              f"\x00import os\n\nos.environ.pop({dq(opt.name)}, None)\n"))
    return validate, tries, fixes


def set_expr(opt: ConfigOption, value: str) -> str:
    """The call that sets ``opt``: ``jax.config.update("jax_x", False)`` or ``sklearn.set_config(x=False)``."""
    if opt.kind == "setting":
        return f"{opt.set_call}({opt.name}={value})"
    return f"{opt.set_call}({dq(opt.name)}, {value})"


# --------------------------------------------------------------------------- tests as examples


def unwrap_expectation(code: str) -> str | None:
    """The test code with its ``with pytest.raises(...)``/``assertRaises`` wrapper replaced by the
    wrapped statements: what a user runs to get the error."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    lines = code.splitlines()
    target: ast.With | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.With) and any(
            isinstance(i.context_expr, ast.Call) and _callee(i.context_expr) in _EXPECT_CALLS for i in node.items
        ):
            target = node
    if target is None or target.end_lineno is None:
        return None
    body = textwrap.dedent("\n".join(lines[target.body[0].lineno - 1:target.end_lineno]))
    indent = lines[target.lineno - 1][: len(lines[target.lineno - 1]) - len(lines[target.lineno - 1].lstrip())]
    body = textwrap.indent(body, indent)
    out = [*lines[: target.lineno - 1], *body.splitlines()]
    return "\n".join(out) + "\n"


def _callee(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def test_examples(f: Facts) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for link in f.tests[:3]:
        t = link.test
        body = unwrap_expectation(t.code)
        if body is None:
            continue
        header = "\n".join(t.imports)
        code = (header + "\n\n" if header else "") + body
        out.append((f"test {t.path}:{t.line}", code))
    return out


# --------------------------------------------------------------------------- generic try / validate


def dependency_check(module: str) -> str:
    return (f"import importlib.util\n\nif importlib.util.find_spec({module.split('.', 1)[0]!r}) is None:\n"
            f"    raise SystemExit('install the package that provides {module}')\n")


# --------------------------------------------------------------------------- advice applied to an example

_WRAP = re.compile(r"\bwrap (?:your|the|it|this|a) `?(\w+)`?(?: call)? (?:in|with|inside) `([\w.]+)(?:\(\))?`",
                   re.IGNORECASE)


def apply_wrap_advice(code: str, sentences: list[str]) -> str | None:
    """``before`` with the message's "wrap your X in `W`" done: every call of ``X(...)`` becomes
    ``W(X(...))``.  None when no sentence says so or the code has no such call."""
    for s in sentences:
        m = _WRAP.search(s)
        if m is None:
            continue
        target, wrapper = m.group(1), m.group(2)
        try:
            tree = ast.parse(code)
        except SyntaxError:
            return None
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _callee(n) == target
                 and n.end_lineno is not None and n.lineno == n.end_lineno]
        if not calls:
            continue
        lines = code.splitlines()
        for c in sorted(calls, key=lambda n: (n.lineno, n.col_offset), reverse=True):
            ln = lines[c.lineno - 1]
            # column offsets are in UTF-8 bytes
            raw = ln.encode()
            seg = raw[c.col_offset:c.end_col_offset].decode()
            lines[c.lineno - 1] = (raw[:c.col_offset].decode() + f"{wrapper}({seg})"
                                   + raw[c.end_col_offset:].decode())
        return "\n".join(lines) + "\n"
    return None
