"""Afters a user would write where the proven one only shows where the error comes from (rating 11, issue 16).

Two rules, parsing only (the engine runs what they build, ``Prover.kept``, and prefers the first that runs clean):

- **The public replacement of a private call** (0480): a before that calls a private function which returns one
  public module constant whenever its checks pass (``analyze/returnedname.returned_constant``: jax's
  ``_tiled_wgmma_layout`` -> ``jax.experimental.mosaic.gpu.WGMMA_LAYOUT``) gets an after that is the same script
  with the public name in place of the private call (``wgmma_layout = jax.experimental.mosaic.gpu.WGMMA_LAYOUT``,
  its module imported).  Changing the private call's arguments until it passes is no fix to copy: the page said
  so, and a reader graded it weak.
- **Both sides of a failed equality kept** (bce3): an after that drops an element of a sequence literal that one
  side of the site's equality measures (``len(axis_names)``: ``('x', 'y')`` -> ``('y',)``) gives way to afters
  that keep every element and change the other side to match: the argument whose ``.ndim`` the other side reads
  reshaped to the literal's length (``numpy.reshape(jax.devices(), (-1, 1))`` first, which fits any size,
  then ``(2, -1, ...)``).

``public_used`` and ``matched_ndim`` tell such an after from its before again, for the proof's mark and the
page's line (``keep.arguments_mark``, ``mistake.change_sentence``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from errdex.analyze.returnedname import returned_constant
from errdex.model import ErrorSite

PUBLIC_LABEL = "the public replacement of the private call"
NDIM_LABEL = "reshaped to match"
_NDIM_LEN = re.compile(r"^\s*(\w+)\.ndim\s*!=\s*len\((\w+)\)\s*$|^\s*len\((\w+)\)\s*!=\s*(\w+)\.ndim\s*$")


def parse_module(code: str) -> ast.Module | None:
    """The script's module, None when it does not parse (a sample is text until proven)."""
    try:
        return ast.parse(code)
    except SyntaxError:
        return None


def dotted(node: ast.expr) -> str:
    """``a.b.c`` of a chain of names, "" for anything else (a call, a subscript)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    return ".".join([node.id, *reversed(parts)])


def _private(name: str) -> bool:
    return any(p.startswith("_") and not p.startswith("__") for p in name.split(".")[1:])


def _snake(name: str) -> str:
    short = name.rsplit(".", 1)[-1]
    return short.lower() if short.isupper() else "value"


def public_after(before: str, function: str, public: str) -> str:
    """``before`` with its calls of the private ``function`` (its short name, ``_tiled_wgmma_layout``) replaced by
    the public dotted ``public``; a statement that was only the call binds the value to a name; the public
    name's module imported first.  "" when the before calls no such function (or ``public`` is no dotted name)."""
    m = parse_module(before)
    if m is None or "." not in public or not function.startswith("_"):
        return ""
    found = False
    for i, stmt in enumerate(m.body):
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and _private(name := dotted(stmt.value.func)) \
                and name.rsplit(".", 1)[-1] == function:
            m.body[i] = ast.Assign(targets=[ast.Name(_snake(public), ast.Store())],
                                   value=ast.parse(public, mode="eval").body, lineno=stmt.lineno)
            found = True
            continue
        for node in ast.walk(stmt):
            for field, value in ast.iter_fields(node):
                if isinstance(value, ast.Call) and _private(name := dotted(value.func)) \
                        and name.rsplit(".", 1)[-1] == function:
                    setattr(node, field, ast.parse(public, mode="eval").body)
                    found = True
    if not found:
        return ""
    module = public.rsplit(".", 1)[0]
    if not any(isinstance(s, ast.Import) and any(a.name == module and a.asname is None for a in s.names) for s in m.body):
        m.body.insert(0, ast.Import(names=[ast.alias(module)]))
    return ast.unparse(ast.fix_missing_locations(m)) + "\n"


def public_instead(site: ErrorSite, symbols: Mapping[str, tuple[str, ...]], before: str) -> list[tuple[str, str]]:
    """[(label, source)] of the after that takes the public constant the site's private function returns in place
    of its call (``returned_constant``), or [] when the function returns none or the before does not call it."""
    public = returned_constant(site, symbols)
    src = public_after(before, site.qualname.rsplit(".", 1)[-1], public) if public else ""
    return [(f"{public} ({PUBLIC_LABEL})", src)] if src else []


def public_used(before: str, after: str) -> tuple[str, str] | None:
    """(private function's short name, public name) when ``after`` is ``public_after`` of ``before``; else None."""
    b, a = parse_module(before), parse_module(after)
    if b is None or a is None:
        return None
    privates = {dotted(n.func).rsplit(".", 1)[-1] for n in ast.walk(b)
                if isinstance(n, ast.Call) and _private(dotted(n.func))}
    names = {dotted(n) for n in ast.walk(a) if isinstance(n, ast.Attribute)} - \
        {dotted(n) for n in ast.walk(b) if isinstance(n, ast.Attribute)}
    for public in sorted(x for x in names if x and not _private(x)):
        for f in sorted(privates):
            if public_after(before, f, public) == ast.unparse(a) + "\n":
                return f, public
    return None


def ndim_sides(site: ErrorSite) -> tuple[str, str] | None:
    """(array parameter, sequence parameter) of a guard ``a.ndim != len(b)`` on the way to the raise, or None."""
    for g in site.guards:
        if (m := _NDIM_LEN.match(g.normalized)) is not None:
            return (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    return None


def _shrunk(old: ast.expr, new: ast.expr) -> bool:
    """``new`` keeps some of ``old``'s elements and drops others (a tuple or list literal)."""
    if not isinstance(old, ast.Tuple | ast.List) or not isinstance(new, ast.Tuple | ast.List):
        return False
    kept = [ast.dump(e) for e in old.elts]
    return len(new.elts) < len(old.elts) and all(ast.dump(e) in kept for e in new.elts)


def _params(call: ast.Call, names: tuple[str, str]) -> tuple[ast.expr | None, ast.expr | None]:
    """The array and sequence arguments of ``call``: by keyword, else the first two positions in order."""
    got: dict[str, ast.expr] = {k.arg: k.value for k in call.keywords if k.arg in names}
    for name, arg in zip(names, call.args, strict=False):
        got.setdefault(name, arg)
    return got.get(names[0]), got.get(names[1])


def reshaped_to_match(before: str, after: str, site: ErrorSite) -> list[tuple[str, str]]:
    """(label, source): ``before`` with the array argument reshaped to as many dimensions as the sequence has
    elements, for a site guarded by ``array.ndim != len(sequence)`` whose proven ``after`` dropped elements of the
    sequence; [] otherwise."""
    sides = ndim_sides(site)
    b, a = parse_module(before), parse_module(after)
    if sides is None or b is None or a is None or len(b.body) != len(a.body):
        return []
    out: list[tuple[str, str]] = []
    for sb, sa in zip(b.body, a.body, strict=True):
        cbs = [n for n in ast.walk(sb) if isinstance(n, ast.Call)]
        cas = [n for n in ast.walk(sa) if isinstance(n, ast.Call)]
        for cb, ca in zip(cbs, cas, strict=False):
            arr, seq = _params(cb, sides)
            _, seq2 = _params(ca, sides)
            if arr is None or seq is None or seq2 is None or not _shrunk(seq, seq2):
                continue
            n = len(seq.elts)  # type: ignore[attr-defined]
            text = ast.unparse(arr)
            # the shape that fits any size first: a proof runs with the environment it was given (8 forced CPU
            # devices), a user copying the after may have one (rating 12: bce3's (2, -1) failed on one device)
            for shape in [(-1, *[1] * (n - 1)), *([(2, -1, *[1] * (n - 2))] if n >= 2 else [])]:
                new = ast.parse(f"numpy.reshape({text}, {shape!r})", mode="eval").body
                m = ast.parse(ast.unparse(b))
                target = next(n2 for n2 in ast.walk(m) if isinstance(n2, ast.Call) and ast.dump(n2) == ast.dump(cb))
                arr2, _ = _params(target, sides)
                for k in target.keywords:
                    if k.value is arr2:
                        k.value = new
                target.args = [new if x is arr2 else x for x in target.args]
                if not any(isinstance(s, ast.Import) and any(al.name == "numpy" and al.asname is None for al in s.names)
                           for s in m.body):
                    m.body.insert(0, ast.Import(names=[ast.alias("numpy")]))
                src = ast.unparse(ast.fix_missing_locations(m)) + "\n"
                if src not in (s for _, s in out):
                    out.append((f"{text} reshaped to {shape!r} ({NDIM_LABEL} len({sides[1]}); keeps every argument)", src))
    return out


def matched_ndim(before: str, after: str) -> tuple[str, str] | None:
    """(array argument as written, its reshape) when ``after`` is ``before`` with one argument wrapped in
    ``numpy.reshape(arg, shape)`` (and numpy imported): what ``reshaped_to_match`` builds; else None."""
    b, a = parse_module(before), parse_module(after)
    if b is None or a is None:
        return None
    for n in ast.walk(a):
        if isinstance(n, ast.Call) and dotted(n.func) == "numpy.reshape" and len(n.args) == 2:
            arg = ast.unparse(n.args[0])
            text, want = ast.unparse(a).replace(ast.unparse(n), arg), ast.unparse(b)
            if want in (text, text.replace("import numpy\n", "", 1)):
                return arg, ast.unparse(n)
    return None


def sample_after(before: str, after: str, ran: str) -> str:
    """The after the validate and try samples are built from: ``ran``, the value-only after that ran clean, when the
    kept ``after`` takes a public name in place of the private call (it passes the call no value to check); else
    ``after``."""
    return ran if public_used(before, after) is not None else after
