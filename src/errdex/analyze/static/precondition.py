"""Prevention's last resort: this error's own precondition, said before the public call.

Rating 7 graded eight Prevention sections absent because the rules had nothing to say and the page said so
("the facts errdex has support none beyond the solutions").  Every raise has a condition, and the page
knows who calls it; so Prevention can always say what holds when the call does not raise, in the order of
what the facts support best:

- a usage error (the command line the program runs with): an argument list the code builds itself should
  hold only what the command declares;
- a library's internal check made only under a public enum setting: that setting is the user's choice, so
  a test under it is the prevention (none of the arguments predicts the check);
- a check on values the function works out: the arguments they come from and the condition in words,
  before the public call (or wherever the code reaches a function no public call reaches);
- a parameter the function fills in itself when it is ``None`` (``if p is None: p = ...``): pass ``None``;
- a check that also reads the function's locals: the parameters it reads, held to what the message asks.
"""

from __future__ import annotations

import ast
import builtins
import re
import sys

from errdex.analyze.earlyexit import filled_when_none
from errdex.analyze.facts import Facts
from errdex.analyze.static import roles
from errdex.analyze.static.fallback import read_params
from errdex.analyze.static.handedread import read_advice
from errdex.analyze.static.siblings import setting_call
from errdex.analyze.static.words import (
    callee,
    decisive,
    entry_words,
    message_text,
    package,
    place,
    state_read,
    user_reads,
    worked_out,
    worked_out_clause,
)
from errdex.extract.guards import NEGATED_COMPARISON


def own_precondition(f: Facts) -> str:
    """One Prevention sentence from this error's own condition, or "" when it has none the page can say."""
    if roles.usage_error(f):
        return _usage(f)
    if roles.internal_check(f, any(user_reads(f, g) for g in decisive(f))):
        if not f.enum_settings:
            return ""  # the library's own consistency check: nothing of the user's predicts it (Solutions: report it)
        attr, member, enum = f.enum_settings[0]
        cls = enum.rsplit(".", 1)[-1]
        if f.enum_others:  # rating 8, 8ee0: "run it in a test" fits any error; the other value is this one's own
            other = f"`{cls}.{f.enum_others[0]}`"
            made = f"; given as {setting_call(f)}" if setting_call(f) else ""
            return (f"Where your code sets `{attr}` to `{cls}.{member}` (`{enum}`), keep the same code able to run "
                    f"with {other} (the other value {package(f)}'s own checks compare `{attr}` with{made}), chosen "
                    f"in one place: this check is {package(f)}'s own and is made only under `{member}`, so no check of your "
                    f"arguments to {callee(f)} predicts it, and switching the setting is the way around it.")
        return (f"Where your code sets `{attr}` to `{enum.rsplit('.', 1)[-1]}.{member}` (`{enum}`), run every "
                f"call of {callee(f)} under that setting once in a test before relying on it: this check is "
                f"{package(f)}'s own and is made only under `{member}`, so no check of your arguments predicts it.")
    gs = decisive(f)
    where = (f"Before calling {callee(f)}" if f.public_path.entries else
             # errdex's graph missing a caller is no proof that none exists (a table of functions, a callback,
             # a platform's console reader): rating 8 found `click.get_binary_stream` reaching such a function
             f"Wherever your code reaches {place(f)} (the call graph errdex reads names no public call of "
             f"{package(f)} that leads there, which does not mean none does)")
    clause = worked_out_clause(f)
    if clause and "(" in clause:  # the check is on values the function works out: said in words, not its locals
        cond, paren = clause[:clause.rindex("(")].strip(), clause[clause.rindex("(") + 1:].rstrip(")")
        _conds, srcs = worked_out(f)
        if roles.handed_out(f):  # the standard library calls the raising method: its arguments are not the user's
            if (reads := read_advice(f)):  # rating 13, eb3a: the reads that pass a size check, in the user's terms
                return reads
            use = roles.handed_use(f)
            return (f"Where your code uses the object {callee(f)} returns, keep to what its "
                    f"`{f.site.qualname.rsplit('.', 1)[-1]}` accepts: it raises when {cond} ({paren}), with "
                    f"values Python's own code passes it for your {f'{use}s' if use else 'reads or writes'}"
                    + (f", on a later {use}, not at the call." if use else "."))
        state = state_read(f)
        if srcs and f.public_path.entries:
            if paren.startswith("values it works out") and paren.endswith(" you pass"):
                paren = "values it works out from them"  # the arguments were just named
            return (f"{where}, check the {', '.join(f'`{x}`' for x in srcs[:2])} you pass: the call raises when "
                    f"{cond} ({paren}).")
        if state:  # no argument decides it: the process state it reads does (rating 8, ad70: `sys.stderr`)
            return (f"{where}, check {state}: the call works out the value it checks from it and raises when "
                    f"{cond}; code that replaces {state} (a test's capture, a wrapper) must leave what the call "
                    "needs from it.")
        if not f.public_path.entries:  # where the raise is and what it checks: the route is for the user to find
            return f"{where}, know that it raises when {cond} ({paren})."
        # a check on values worked out inside the call from nothing the user passes or sets: no line to offer
        # (rating 8: "a test that makes the call ... shows it first" fits any error and was graded weak)
        return ""
    heads = {n.split(".", 1)[0] for g in gs for n in g.names if "." not in n}
    params = read_params(f)
    if (filled := chosen_when_none(f)):  # the function chooses the value itself when given `None` (027b)
        return f"{where}, {_pass_none(f, filled)}"
    if heads - set(f.params) - {p.strip("`") for p in params.split(", ")}:
        # the check also reads the function's own locals (`output_shape`): said in the message's words
        text = re.sub(r"\(?\{[^{}]*\}\)?", "…", message_text(f)).strip()  # no local by name, even in a placeholder
        return (f"{where}, choose the {params} you pass so that what the message asks holds: \"{text}\"."
                if params and text and f.public_path.entries else "")
    # A negated guard on what the user does not pass directly is no advice: the rules above (``prevention``)
    # already say it where the guard reads the user's own values, and below the public call the value may be
    # rebuilt first (bce3: `Mesh` turns a string `axis_names` into a tuple, so `len(axis_names)` misleads).
    return ""


def chosen_when_none(f: Facts) -> str:
    """The parameter a decisive guard reads that the raising function fills in itself when it is ``None``
    (``if vec_size is None: vec_size = ...`` before the check), on a page with a public call; "" when none."""
    gs = decisive(f)
    if not gs or not f.public_path.entries or roles.usage_error(f):
        return ""
    heads = {n.split(".", 1)[0] for g in gs for n in g.names if "." not in n}
    named = {p.strip("`") for p in read_params(f).split(", ") if p}
    filled = sorted(h for h in heads if h in named and filled_when_none(f.site, h, gs[0].guard.line))
    return filled[0] if filled else ""


def code_negation(cond: str) -> str:
    """The condition under which a guard does not hold, as code: ``a % b`` -> ``a % b == 0`` (a remainder tested
    for truth), ``not x`` -> ``x``, ``a < b`` -> ``a >= b``, ``a and b`` -> each negated, joined by ``or``; else
    ``not (cond)``; "" when it does not parse."""
    try:
        node = ast.parse(cond, mode="eval").body
    except SyntaxError:
        return ""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return ast.unparse(node.operand)
    if isinstance(node, ast.BoolOp):  # De Morgan: ``not a and b`` -> ``a or not b``
        parts = [code_negation(ast.unparse(v)) for v in node.values]
        if not all(parts):
            return ""
        joined = " or " if isinstance(node.op, ast.And) else " and "
        return joined.join(f"({p})" if " and " in p or " or " in p else p for p in parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return f"{ast.unparse(node)} == 0"
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in NEGATED_COMPARISON:
        return f"{ast.unparse(node.left)} {NEGATED_COMPARISON[type(node.ops[0])]} {ast.unparse(node.comparators[0])}"
    if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
        return f"not {ast.unparse(node)}"
    return f"not ({ast.unparse(node)})"


def going_ahead(f: Facts) -> str:
    """Rating 13 (027b): where the function fills a parameter in itself when it is ``None`` (``chosen_when_none``),
    the check it then makes, as code a reader can test before the call: "`vec_size is None or
    math.prod(output_shape) % vec_size == 0`", with the names it reads that are no argument said to be worked out
    inside the call; "" when a guard calls anything but a builtin or a standard-library function, or reads a name
    of the module (``utils.bitwidth(dtype)``, ``ir.VectorType``: not the user's terms)."""
    name = chosen_when_none(f)
    gs = decisive(f)
    if not name or not gs or len(gs) > 2:
        return ""
    args = {p.strip("`") for p in read_params(f).split(", ") if p}
    local: list[str] = []
    parts: list[str] = []
    for g in gs:
        try:
            node = ast.parse(g.guard.normalized, mode="eval").body
        except SyntaxError:
            return ""
        called = {id(c.func) for c in ast.walk(node) if isinstance(c, ast.Call)}
        for n in ast.walk(node):
            if isinstance(n, ast.Call) and not (isinstance(n.func, ast.Name) and hasattr(builtins, n.func.id)) and not (
                    isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
                    and n.func.value.id in sys.stdlib_module_names):
                return ""
            if isinstance(n, ast.Name) and id(n) not in called and not (
                    isinstance(n.ctx, ast.Load) and n.id in sys.stdlib_module_names and any(
                        isinstance(c, ast.Attribute) and c.value is n for c in ast.walk(node))):
                if n.id in ("self", "cls") or (hasattr(builtins, n.id) and n.id not in args):
                    return ""
                if n.id not in args and n.id not in local:
                    if not assigned_above(f, n.id):
                        return ""  # a module's name, not a value of this call
                    local.append(n.id)
        parts.append(code_negation(g.guard.normalized))
    if not all(parts):
        return ""
    cond = f"{name} is None or " + " and ".join(parts if len(parts) == 1 else [f"({p})" for p in parts])
    said = (" (" + ", ".join(f"`{n}`" for n in local) + (" is" if len(local) == 1 else " are")
            + " a value the call works out inside, not an argument)" if local else "")
    return f"`{cond}`{said}"


def assigned_above(f: Facts, name: str) -> bool:
    """Whether the raising function binds ``name`` itself (an assignment in its lines the snippet shows, or, when
    the snippet starts inside a long function, a name the guard reads that is no parameter and no module name)."""
    if re.search(rf"^\s*(?:\(?{re.escape(name)}\b[^=\n]*?\)?\s*(?::[^=\n]+)?=[^=]|.*\b{re.escape(name)}\s*:=)",
                 f.site.snippet, re.MULTILINE):
        return True
    return not f.whole_function and name not in f.params


def _pass_none(f: Facts, name: str) -> str:
    text = re.sub(r"\(?\{[^{}]*\}\)?", "…", message_text(f)).strip()
    return (f"pass `{name}=None` (or leave it out where that is its default) unless you need a particular value: "
            "the call then works one out itself before this check; a value you pass must satisfy what the message "
            f"asks: \"{text}\".")


def chosen_solution(f: Facts) -> str:
    """Solutions' form of the ``None`` advice (rating 12, 027b: it stood only in Defensive and Prevention, while
    Solutions said "look at the `vec_size` you pass"): "" when no parameter is filled in that way."""
    name = chosen_when_none(f)
    return f"Let {callee(f)} choose `{name}` itself: {_pass_none(f, name)}" if name else ""


def _usage(f: Facts) -> str:
    entries = entry_words(f)
    if not entries:
        return ""
    return (f"Where your code builds the command line itself (a list passed to {entries}, `main(args)` or a test "
            "runner), put in it only the options and arguments the command declares (its `--help` lists them); "
            "a command line typed by a person needs no prevention: it gets the usage message.")
