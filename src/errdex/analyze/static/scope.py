"""Where a restriction applies, from the message's own words and the rule's stage: "... outside of
Pallas" (so inside Pallas it does not), "Eager shard_map ...", a rule of the Pallas interpreter (so the
compiled path does not use it).  The page quotes that context and offers the way around it."""

from __future__ import annotations

import re

from errdex.analyze.adapters import inside_words, mode_switch
from errdex.analyze.facts import Facts
from errdex.analyze.static import roles
from errdex.analyze.static.words import conditions, join, message_text


def literal(f: Facts) -> str:
    return "".join(s.text for s in f.site.template.segments if s.is_literal).strip()


_CONTEXT = re.compile(r"\b(?:outside|inside|eager|interpret\w*|mode|when using|within|under)\b", re.IGNORECASE)


def message_context(f: Facts) -> str:
    """The message's own account of where this happens ("... outside of Pallas", "Eager shard_map ..."),
    for a page whose meaning would otherwise leave that context out."""
    msg = message_text(f)
    if len(literal(f)) < 20 or not _CONTEXT.search(literal(f)) or roles.forwarder(f):
        return ""
    return f"The message says where: \"{msg[:200]}\""


_OUTSIDE = re.compile(r"\b[Oo]utside (?:of )?(?:an? |the )?`?([A-Z][\w.]*|\w+ kernel)`?")


def outside(f: Facts) -> str:
    """"Pallas" for a message that limits itself to "... outside of Pallas ..."."""
    m = _OUTSIDE.search(literal(f))
    return m.group(1) if m else ""


def context_solutions(f: Facts) -> list[str]:
    """Where the message or the rule's stage says the restriction applies, the way around it."""
    out: list[str] = []
    conds = conditions(f)
    where = outside(f)
    if where and conds:
        how = f" ({inside_words(f.site.module, where)})" if inside_words(f.site.module, where) else ""
        out.append(f"Or run the code inside {where}{how}: the restriction is on use outside of it (the message: "
                   f"\"{message_text(f)[:160]}\"), so inside {where} this rule does not refuse the case where "
                   f"{join(conds)}.")
    switch, _what = mode_switch(f.site.module, roles.stage(f))
    if switch and conds:
        out.append(f"Or run it compiled: leave out {switch}. This rule belongs to that mode only, so the compiled "
                   f"path does not go through it when {join(conds)}.")
    elif "interpreter" in roles.stage(f) and conds:
        out.append("Or run it compiled instead of under the Pallas interpreter: this rule belongs to interpret "
                   f"mode only, so the compiled path does not go through it when {join(conds)}.")
    return out


def mode_sentence(f: Facts) -> str:
    """"Interpret mode is what `interpret=True` ... turns on: ..." for a rule of a mode the user switches on."""
    switch, what = mode_switch(f.site.module, roles.stage(f))
    if not switch:
        return ""
    return f"That mode is what {switch} turns on: {what}."


def mode_prevention(f: Facts) -> str:
    """For a rule of a mode the user switches on: keep the refused case out of that mode."""
    switch, _what = mode_switch(f.site.module, roles.stage(f))
    conds = conditions(f)
    if not switch or not conds:
        return ""
    return (f"Code in which {join(conds)} cannot run in that mode: test it compiled on the accelerator, not with "
            f"{switch}.")


def first_clause(f: Facts) -> str:
    """The message's first sentence when it says where the raise happens ("Eager shard_map cannot return
    a `jax.Ref`."), for a trigger that has no condition of its own; else ""."""
    if not message_context(f):
        return ""
    return re.split(r"(?<=[.!?])\s+", message_text(f))[0][:160].rstrip(".")


def registrations(f: Facts) -> list[tuple[str, str]]:
    """Where the snippet registers the raising function: ``(table, key)`` for ``eager_rules[core.ref_p] =
    fn`` and ``(register call, key)`` for ``@functools.partial(mlir.register_lowering, run_scoped_p)``."""
    fn = re.escape(roles.outer_name(f))
    snippet = f.site.snippet
    out = [(m.group(1), m.group(2)) for m in re.finditer(rf"^\s*([\w.]+)\[([\w.]+)\]\s*=\s*{fn}\s*$", snippet, re.M)]
    for m in re.finditer(rf"^\s*@(?:functools\.)?partial\(([\w.]+),\s*([\w.]+)\)\s*\n(?:\s*@.*\n)*\s*def {fn}\(",
                         snippet, re.M):
        out.append((m.group(1), m.group(2)))
    out += [(m.group(1), m.group(2)) for m in re.finditer(rf"^\s*([\w.]+)\(([\w.]+),\s*{fn}\)\s*$", snippet, re.M)]
    return out


def _op(key: str) -> str:
    return key.rsplit(".", 1)[-1].removesuffix("_p")


_WRAP = re.compile(r"\bwrap\b[^.]*?\bin\s+`?([\w.]+)`?", re.IGNORECASE)


def eager(f: Facts) -> tuple[str, str, list[str], str] | None:
    """("shard_map", "eager_rules", ["ref", "empty_ref"], "jax.jit") for a rule that a table of eager
    rules holds and whose message says "Eager shard_map ...": what runs the rule, the table, the
    operations it is registered for, and what the message says to wrap it in ("" if nothing)."""
    m = re.search(r"\b[Ee]ager(?:ly)?\s+`?(\w+)`?", literal(f))
    regs = [(t, k) for t, k in registrations(f) if "eager" in t.lower()]
    if not m or not regs:
        return None
    wrap = _WRAP.search(message_text(f))
    return m.group(1), regs[0][0], [_op(k) for _, k in regs], wrap.group(1).rstrip(".") if wrap else ""


def eager_words(f: Facts) -> str:
    """"inside the body of a `shard_map` that runs eagerly (not inside `jax.jit`)", or ""."""
    e = eager(f)
    if e is None:
        return ""
    subject, _, _, wrap = e
    return f"inside the body of a `{subject}` that runs eagerly" + (f" (not inside `{wrap}`)" if wrap else "")


def explain(f: Facts) -> str:
    """The message's own context words explained from how the code registers the rule: "Eager X"
    for a rule of a table of eager rules, "outside of X" for the general lowering; else ""."""
    e = eager(f)
    if e is not None:
        subject, table, ops, wrap = e
        return (f"\"Eager {subject}\" in the message: `{roles.outer_name(f)}` is in `{table}`, the rules a "
                f"`{subject}` applies when it runs its body directly, operation by operation, instead of tracing "
                "and compiling it" + (f" (as it does inside `{wrap}`)" if wrap else "") + "; it is registered for "
                + join([f"`{o}`" for o in dict.fromkeys(ops)], "and") + ", so the error comes from "
                + ("those operations" if len(set(ops)) > 1 else "that operation") + f" in the body of a `{subject}` "
                "called that way.")
    where = outside(f)
    lowering = [(r, k) for r, k in registrations(f) if r.endswith("register_lowering")]
    if where and lowering:
        reg, key = lowering[0]
        return (f"\"outside of {where}\" in the message: `{roles.outer_name(f)}` is the lowering registered with "
                f"`{reg}` for `{_op(key)}`, the one used when the operation is compiled as part of an ordinary "
                f"program rather than lowered by {where} itself (inside a {where} kernel it has its own rules).")
    return ""


def restricted(f: Facts) -> str:
    """"`register_lowering_rule(lax.rev_p, kernel_types=[...SC_VECTOR_SUBCORE])`": a registration of
    the raising rule that limits it with keyword arguments (one kind of kernel, one platform), so the
    restriction it raises is not the operation's general rule; else ""."""
    fn = re.escape(roles.outer_name(f))
    m = re.search(rf"@([\w.]+)\(\s*([\w.]+)\s*,\s*(\w+\s*=[^@]*?)\)\s*\n(?:\s*@.*\n)*\s*def {fn}\(", f.site.snippet)
    if m is None or "regist" not in m.group(1).rsplit(".", 1)[-1]:  # a registration, not ``partial(jit, ...)``
        return ""
    return f"`{m.group(1)}({m.group(2)}, {' '.join(m.group(3).split()).rstrip(',')})`"


def restricted_where(f: Facts) -> str:
    """Where the limiting registration applies, in words: "for `SC_VECTOR_SUBCORE` kernels" from its keyword's
    last names (``kernel_types=[tpu_core.CoreType.SC_VECTOR_SUBCORE]``), else "where `<registration>` applies"."""
    reg = restricted(f)
    if not reg:
        return ""
    m = re.search(r"(\w+?)s?\s*=\s*\[?([\w.,\s]+)\]?", reg.split(",", 1)[1]) if "," in reg else None
    if m is None:
        return f"where {reg} applies"
    values = [v.strip().rsplit(".", 1)[-1] for v in m.group(2).split(",") if v.strip()]
    kind = m.group(1).split("_")[0]
    makers = [(v, cls, method) for v in values for member, cls, method in f.kind_makers
              if member.rsplit(".", 1)[-1] == v]
    if makers and len({v for v, _c, _m in makers}) == len(values):  # the public class the user writes (5931)
        return (f"in a {kind} of {join([f'`{c}`' for _v, c, _m in makers], 'or')} (the only {kind} this rule is "
                "registered for: " + join([f"its `{meth}` is `{v}`" for v, _c, meth in makers], "or") + ")")
    return f"in a {join([f'`{v}`' for v in values], 'or')} {kind} (the only {kind} this rule is registered for)"


def restricted_sentence(f: Facts) -> str:
    reg = restricted(f)
    if not reg:
        return ""
    return (f"This is not the operation's general rule: `{roles.outer_name(f)}` is registered with {reg} in "
            f"`{f.site.module}`, so the restriction holds only where that registration applies; elsewhere the "
            "same call may accept it.")
