"""Where a restriction applies, from the message's own words and the rule's stage: "... outside of
Pallas" (so inside Pallas it does not), "Eager shard_map ...", a rule of the Pallas interpreter (so the
compiled path does not use it).  The page quotes that context and offers the way around it."""

from __future__ import annotations

import re

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
        out.append(f"Or run the code inside {where}: the restriction is on use outside of it (the message: "
                   f"\"{message_text(f)[:160]}\"), so inside {where} this rule does not refuse the case where "
                   f"{join(conds)}.")
    if "interpreter" in roles.stage(f) and conds:
        out.append("Or run it compiled instead of under the Pallas interpreter: this rule belongs to interpret "
                   f"mode only, so the compiled path does not go through it when {join(conds)}.")
    return out


def first_clause(f: Facts) -> str:
    """The message's first sentence when it says where the raise happens ("Eager shard_map cannot return
    a `jax.Ref`."), for a trigger that has no condition of its own; else ""."""
    if not message_context(f):
        return ""
    return re.split(r"(?<=[.!?])\s+", message_text(f))[0][:160].rstrip(".")
