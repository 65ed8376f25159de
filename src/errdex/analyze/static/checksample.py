"""The Defensive section's check as code when no sample is proven (rating 7: the check was prose on 12 of
15 jax pages, "What you can check before calling `jax.lax.rev`: that `dimensions` equals `(0,)`", and a
reader cannot paste prose).

The code is the raising function's own condition, as the guard reads it, over the names the user passes
to the public call: a function that says whether given arguments reach the raise.  It is built only when
the raising function is that call (so nothing rebuilds the arguments on the way down), every name it reads
is such an argument (a parameter of the public call, or one the library's tests were
seen passing), the raise does not rebuild one of them first, and the condition calls nothing but
builtins; otherwise "" and the page keeps its prose.  The page labels it as not run: errdex has not proven
it (``errdex prove`` replaces it with a proven validate sample).
"""

from __future__ import annotations

import ast
import builtins
import re

from errdex.analyze.facts import Facts, GuardFact
from errdex.analyze.guardwords import unpacked_names
from errdex.analyze.static import roles
from errdex.analyze.static.fallback import negations, own_argument_guards
from errdex.analyze.static.kinds import held_with
from errdex.analyze.static.words import assigned, decisive, observed_args, unseen_argument, user_reads
from errdex.extract.guards import without_walrus

# what a condition may call besides the names the user passes: pure builtins that read a value
_CALLS = frozenset({"len", "isinstance", "callable", "any", "all", "tuple", "list", "set", "sorted", "min", "max",
                    "sum", "abs", "int", "float", "bool", "str", "type", "hasattr", "getattr", "range", "zip"})


def _snake(name: str) -> str:
    """``CompoundFactor`` -> ``compound_factor``; ``rev`` -> ``rev``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower().strip("_") or "call"


def _substituted(cond: str, local: dict[str, str]) -> str:
    """``cond`` with names bound by unpacking (``m, k, _2 = meta.shape``) written as what they unpack."""
    for name, value in local.items():
        cond = re.sub(rf"(?<![\w.]){re.escape(name)}\b", value, cond)
    return cond


def _reads(cond: str) -> list[str] | None:
    """The names ``cond`` reads, in order of first use; None when it does not parse or calls anything but
    a pure builtin (a sample cannot call the library's private helpers) or reads a private attribute."""
    try:
        tree = ast.parse(cond, mode="eval")
    except SyntaxError:
        return None
    called: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            if not (isinstance(n.func, ast.Name) and n.func.id in _CALLS):
                return None
            called.add(n.func.id)
        elif (isinstance(n, ast.Attribute) and n.attr.startswith("_")) or isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)):
            return None
    names = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id not in called]
    return list(dict.fromkeys(names))


_HEADER_END = re.compile(r"^\s*(?:(?:async\s+)?def\s.*|\)\s*(?:->.*)?):\s*(?:#.*)?$")


def _body_above(lines: list[str]) -> str:
    """The function body's lines above the check: after the last ``def`` line or signature end, so that a
    parameter's default (``a_scale: T | None = None``) or a dataclass field's is not taken for a value the
    function made."""
    ends = [i for i, ln in enumerate(lines) if _HEADER_END.match(ln)]
    return "\n".join(lines[ends[-1] + 1:] if ends else lines)


def _guards(f: Facts) -> list[GuardFact]:
    """The guards the page's prose check states (as ``guardnote.guard_note``), or [] when it states none."""
    if roles.control_flow(f) or roles.module_getattr(f) or roles.usage_error(f) or held_with(f) or f.option_facts:
        return []
    gs = [g for g in decisive(f) if user_reads(f, g) and not g.options] or (own_argument_guards(f) if f.uncalled else [])
    if not gs or negations(f, gs) is None or not (f.public_path.entries or f.public_function or f.uncalled):
        return []
    return gs


def check_sample(f: Facts) -> str:
    """A function ``<call>_would_raise(<arguments>)``: True for the arguments with which the public call
    reaches this raise, from the guards the page states; "" when they cannot be written as code on the
    user's own arguments."""
    # only where the raising function is the call the user makes (or a private one called directly): below it,
    # the public call may rebuild an argument on the way down (``run_scoped`` turns ``collective_axes=None``
    # into ``(None,)``, rating 7 on 4423), and code on the raw argument would be wrong
    if not (f.public_path.depth == 0 or f.uncalled):
        return ""
    gs = _guards(f)
    if not gs:
        return ""
    local = unpacked_names(f.site.snippet, gs[0].guard.line, f.site.snippet_start)
    # a dataclass's ``__post_init__`` checks its fields, which are the constructor's arguments (5739:
    # ``plgpu.Mesh(num_threads=..., thread_name=...)``)
    fields = f.site.qualname.endswith(".__post_init__")
    conds: list[str] = []
    reads: list[str] = []
    for g in gs:
        cond = without_walrus(_substituted(g.guard.normalized, local))
        if fields:
            cond = re.sub(r"\bself\.(?=[a-z]\w*)", "", cond)
        names = _reads(cond)
        if names is None or not names or len(cond) > 100 or "\n" in cond:
            return ""
        conds.append(cond)
        reads.extend(n for n in names if n not in reads)
    passed = set(f.params) | observed_args(f)
    if fields:
        passed |= {n.split(".")[1] for g in gs for n in g.names if n.startswith("self.") and n.count(".") >= 1}
    if "self" in reads or any(hasattr(builtins, n) or not (n in passed or unseen_argument(f, n)) for n in reads):
        return ""
    # the raise checks a value the function made from the argument before the check (a later assignment is
    # no matter: ``if a_scale is not None: a_scale = ...`` after the raise)
    above = _body_above(f.site.snippet.splitlines()[:max(0, gs[0].guard.line - f.site.snippet_start)])
    if any(n not in local and assigned(above, n) for n in reads):
        return ""
    entry = f.public_path.entries[0] if f.public_path.entries else f.public_function or f.site.qualname
    short = entry.split("(", 1)[0].rstrip(".").rsplit(".", 1)[-1]
    fn = f"{_snake(short)}_would_raise"
    # the raise needs every decisive guard; when some are not on the user's arguments, these are necessary only
    every = len(gs) == len(decisive(f))
    body = " and ".join(f"({c})" if len(conds) > 1 else c for c in conds)
    exc = f.exception.public_name or f.exception.name
    doc = (f"True when `{entry}` raises {exc} here with these arguments" if every else
           f"True when `{entry}` can raise {exc} here with these arguments (its other checks aside)")
    return (f"def {fn}({', '.join(reads)}):\n"
            f"    \"\"\"{doc}: its own check, as code to write before the call.\"\"\"\n"
            f"    return {body}\n")
