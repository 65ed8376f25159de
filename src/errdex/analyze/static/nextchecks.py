"""The checks the same function makes next on the arguments this page's check reads, for Prevention.

Rating 8 (0480): "check that the length of `shape` equals `2`" was right but stopped there, though the same
function refuses the 2-D shape next unless it is a multiple of 64x8; and 5d88's "both scales or neither" said
nothing of what passing both does, though the function's later checks name it ("block-scaled matmuls").  A
user who makes this page's check hold meets those next, so Prevention names them from the facts errdex holds:
the other raises of the same function (``Facts.same_function``) below this one, whose own conditions read the
arguments this check reads (or a name this check binds with ``:=``, read as its value) and otherwise only
other arguments of the call and type names.
"""

from __future__ import annotations

import ast
import re

from errdex.analyze.dispatch import dispatch_alternatives
from errdex.analyze.facts import Facts, GuardFact
from errdex.analyze.guardwords import describe_guard, guard_names
from errdex.analyze.static.words import function_params
from errdex.model import ErrorSite, Guard


def bound_names(conds: list[str]) -> dict[str, str]:
    """``{"is_scaled": "a_scale is not None"}`` for ``(is_scaled := a_scale is not None) != ...``."""
    out: dict[str, str] = {}
    for c in conds:
        try:
            tree = ast.parse(c, mode="eval")
        except SyntaxError:
            continue
        for n in ast.walk(tree):
            if isinstance(n, ast.NamedExpr):
                out[n.target.id] = ast.unparse(n.value)
    return out


def _substituted(cond: str, bound: dict[str, str]) -> str:
    for name, value in bound.items():
        cond = re.sub(rf"(?<![\w.]){re.escape(name)}\b", f"({value})", cond)
    return cond


def _own(s: ErrorSite, shared: set[str], own_conds: set[str]) -> list[Guard] | None:
    """The conditions of ``s`` beyond those it shares with this raise; None when one of them is the ``else``
    of something other than this raise's own check (a branch the check does not lead to)."""
    out: list[Guard] = []
    for x in s.guards:
        if x.normalized in shared:
            continue
        if x.kind == "except":
            return None  # raised only when something inside the ``try`` failed: not a check on the arguments
        if x.negated:
            if any(c in x.normalized for c in own_conds):
                continue  # the ``elif`` after this raise's own ``if``: holds once the check holds
            return None
        out.append(x)
    return out


def next_checks(f: Facts, gs: list[GuardFact], limit: int = 2) -> list[tuple[str, str]]:
    """(message, condition in words) of up to ``limit`` later raises of the same function on the arguments
    the guards ``gs`` read; [] when there are none or the words cannot be said."""
    # the raising function's parameters, from this snippet or, when it starts below the ``def``, from the
    # snippet of another raise of the same function that shows it (5d88: ``mma``'s first check)
    params = set(function_params(f)) - {"self", "cls"}
    if not gs or not params:
        return []
    own_conds = {g.guard.normalized for g in gs}
    bound = bound_names(list(own_conds))
    heads = {n.split(".", 1)[0] for g in gs for n in g.names} | set(bound)
    shared = {g.guard.normalized for g in f.guards} - own_conds
    mine = " ".join(f.site.template.render().split())
    out: list[tuple[str, str]] = []
    for s in sorted(f.same_function, key=lambda x: x.line):
        if s.line <= f.site.line or s.kind == "warning" or " ".join(s.template.render().split()) == mine:
            continue
        conds = _own(s, shared, own_conds)
        if not conds:
            continue
        said: list[str] = []
        for x in conds:
            text = _substituted(x.normalized, bound)
            names = guard_names(Guard(kind=x.kind, source=text, normalized=text, line=x.line))
            # each name an argument of the call or a type (``TMEMRef``, ``ir.VectorType``): nothing the
            # function works out, which the user could not check before the call
            if not all(n.split(".", 1)[0] in params or n.rsplit(".", 1)[-1][:1].isupper() for n in names):
                break
            words, _rule = describe_guard(Guard(kind=x.kind, source=text, normalized=text, line=x.line))
            if not words:
                break
            said.append(words)
        else:
            if any({n.split(".", 1)[0] for n in guard_names(x)} & heads for x in conds):
                out.append((" ".join(s.template.render().split())[:120], " and ".join(said)))
        if len(out) >= limit:
            break
    return out


def later_dispatch(f: Facts) -> list[tuple[str, str, ErrorSite]]:
    """(parameter, "`dtypes.itemsize_bits(operand_dtype)` is `8` or `16`", the raise) for a later raise of the
    same function that is the fall-through of a dispatch on a parameter, or on a local the snippet assigns from
    one (``bitsize = dtypes.itemsize_bits(operand_dtype)``), and on nothing else: what the call handles of that
    parameter, which a user who makes this page's check hold meets next (rating 12, b806: "`operand_dtype` must
    be an 8- or 16-bit type", where the proven example changed it and Solutions did not say why)."""
    params = set(function_params(f)) - {"self", "cls"}
    out: list[tuple[str, str, ErrorSite]] = []
    for s in sorted(f.same_function, key=lambda x: x.line):
        if s.line <= f.site.line or s.kind != "error":
            continue
        alts = dispatch_alternatives(s.guards)
        if len(alts) != 1 or set(s.guards) != set(alts[0].guards) or alts[0].kind != "value":
            continue
        subject = alts[0].subject
        said, param = subject, subject if subject in params else ""
        if not param and subject.isidentifier():
            rhs = [m.group(1).strip() for m in re.finditer(rf"^\s*{re.escape(subject)}\s*=\s*([^=].*)$", s.snippet, re.M)]
            heads = {n.split(".", 1)[0] for n in guard_names(Guard(kind="if", source=rhs[-1], normalized=rhs[-1],
                                                                    line=0))} if len(rhs) == 1 else set()
            found = sorted(heads & params)
            if len(found) == 1:
                said, param = rhs[0], found[0]
        if param:
            out.append((param, f"`{said}` is " + " or ".join(f"`{c}`" for c in alts[0].choices), s))
    return out[:1]
