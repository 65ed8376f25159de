"""A not-run Before/After for a check that two optional parameters are given together.

A function with two optional parameters that only make sense as a pair checks that the caller gave both or
neither: ``if (a_scale is not None) != (b_scale is not None): raise`` (jax's ``tcgen05.mma``, 5d88),
``if bool(num_threads) ^ bool(thread_name): raise``.  Rating 15 graded 5d88's Example fix absent and asked for
"a Before/After that passes both `a_scale` and `b_scale`, or neither".  errdex proves examples by running them
(5d88 is now proven in Mosaic GPU's own kernel, docs/prove.md), and where no program it ran reaches the check and
runs clean once changed, the page had nothing.  But the fix needs no run to be read: it is the call with one of the pair (the before), the same call with both, or
with neither (the after).  So the page shows that, written from the call's own signature (its required
arguments by name, the pair by keyword) and labelled as not run, saying why.

Only where the raising function is the call the user makes (``public_path.depth == 0``: nothing rebuilds
the arguments on the way down) and is a plain function (not a method, whose receiver the sample cannot
name), and both names of the pair are its parameters.  Parsing only.
"""

from __future__ import annotations

import ast
import re

from errdex.analyze.facts import Facts
from errdex.analyze.static.words import decisive, package
from errdex.extract.guards import without_walrus


def _given(node: ast.expr) -> tuple[str, bool] | None:
    """(name, given when true) for ``x is not None`` (True), ``x is None`` (False), ``bool(x)`` / ``x`` (True)."""
    if isinstance(node, ast.NamedExpr):  # ``(is_scaled := a_scale is not None)``: its value
        return _given(node.value)
    if (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Is | ast.IsNot)
            and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None
            and isinstance(node.left, ast.Name)):
        return node.left.id, isinstance(node.ops[0], ast.IsNot)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool"
            and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and not node.keywords):
        return node.args[0].id, True
    return None


def exactly_one(cond: str) -> tuple[str, str] | None:
    """The pair ``(a, b)`` when ``cond`` is true exactly when one of them is given and the other is not:
    ``(a is not None) != (b is not None)``, ``(a is None) == (b is not None)``, ``bool(a) ^ bool(b)``."""
    try:
        node = ast.parse(cond.strip(), mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq | ast.NotEq):
        left, right, differ = node.left, node.comparators[0], isinstance(node.ops[0], ast.NotEq)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitXor):
        left, right, differ = node.left, node.right, True
    else:
        return None
    a, b = _given(left), _given(right)
    if a is None or b is None or a[0] == b[0]:
        return None
    # "given" on both sides alike: true when they differ; one side read as "not given": true when they agree
    return (a[0], b[0]) if differ == (a[1] == b[1]) else None


def _signature(text: str) -> ast.arguments | None:
    """The ``def``'s parameters, from the function's text (its header, however many lines)."""
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if re.match(r"\s*(?:async\s+)?def\s", ln)), None)
    if start is None:
        return None
    indent = len(lines[start]) - len(lines[start].lstrip())
    for end in range(start, min(len(lines), start + 60)):
        header = "\n".join(ln[indent:] for ln in lines[start:end + 1])
        try:
            tree = ast.parse(header + "\n    pass\n")
        except SyntaxError:
            continue
        fn = tree.body[0] if tree.body else None
        return fn.args if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) else None
    return None


def _kind(args: ast.arguments, name: str) -> str:
    """What the parameter's annotation says it takes, without its ``None``: ``TMEMRef | None`` -> ``TMEMRef``."""
    for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
        if a.arg == name and a.annotation is not None:
            text = ast.unparse(a.annotation)
            m = re.fullmatch(r"(?:typing\.)?Optional\[(.+)\]", text)
            parts = [p.strip() for p in (m.group(1) if m else text).split("|") if p.strip() != "None"]
            return " | ".join(parts)
    return ""


def _required(args: ast.arguments, pair: tuple[str, str]) -> tuple[list[str], list[str]] | None:
    """(positional, keyword-only) parameters without a default, ``self``/``cls`` aside; None when one of the
    pair is not a parameter, or is itself required (then it is always given: no pair to give together)."""
    positional = [*args.posonlyargs, *args.args]
    firsts = len(positional) - len(args.defaults)
    pos = [a.arg for a in positional[:firsts] if a.arg not in ("self", "cls")]
    kw = [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None]
    names = {a.arg for a in (*positional, *args.kwonlyargs)}
    if any(n not in names or n in pos or n in kw for n in pair):
        return None
    return pos, kw


def pair_sample(f: Facts) -> tuple[str, str]:
    """(the call with one of the pair, then with both or neither, as code; why errdex has not run it) for a
    check that two optional parameters of the public call are given together; ("", "") otherwise."""
    if f.public_path.depth != 0 or "." in f.site.qualname or not (f.public_path.entries or f.public_function):
        return "", ""
    entry = (f.public_path.entries[0] if f.public_path.entries else f.public_function).split("(", 1)[0]
    home, _, name = entry.rpartition(".")
    if not home or name != f.site.qualname:
        return "", ""
    g = next(((g, p) for g in decisive(f) if (p := exactly_one(g.guard.normalized or g.guard.source))), None)
    args = _signature(f.function_text) if g else None
    parts = _required(args, g[1]) if g and args else None
    if g is None or args is None or parts is None:
        return "", ""
    (a, b), (pos, kw) = g[1], parts
    if "." in home:
        parent, _, mod = home.rpartition(".")
        imp, call = f"from {parent} import {mod}", f"{mod}.{name}"
    else:
        imp, call = f"import {home}", f"{home}.{name}"
    base = [*pos, *(f"{k}={k}" for k in kw)]

    def _call(*given: str) -> str:
        return f"{call}({', '.join([*base, *(f'{n}={n}' for n in given)])})"

    kinds = [k for k in (_kind(args, a), _kind(args, b)) if k]
    takes = (f" (`{a}` and `{b}`: `{kinds[0]}` or None)" if len(kinds) == 2 and kinds[0] == kinds[1] else "")
    exc = f.exception.public_name or f.exception.name
    message = f.site.template.render()
    raised = f"{exc}: {message}" if message and "{" not in message else exc
    code = (f"{imp}\n\n"
            f"# {', '.join([*pos, *kw, a, b])}: your own values{takes}\n"
            f"# Before: `{a}` given without `{b}` raises {raised}\n"
            f"{_call(a)}\n\n"
            f"# After: both given ...\n"
            f"{_call(a, b)}\n"
            f"# ... or neither\n"
            f"{_call()}\n")
    why = (f"written from the signature of `{entry}` and its own check `{without_walrus(g[0].guard.normalized or g[0].guard.source)}`"
           f" (`{f.site.path}:{g[0].guard.line or f.site.line}`): errdex has no proven example of this error "
           f"(no program it ran with {package(f)}'s code both raised it and ran clean once changed), so it has "
           "nothing to run this against")
    return code, why
