"""What the page's sections share: the decisive guards on what the user passes, whether the raise is an
internal check, the parameter-type class the message wants an instance of, the public constant to use instead."""

from __future__ import annotations

import re

from errdex.analyze.facts import Facts, GuardFact
from errdex.analyze.static import roles
from errdex.analyze.static.advice import advice
from errdex.analyze.static.words import (
    callee,
    decisive,
    message_text,
    user_reads,
)


def user_guards(f: Facts) -> list[GuardFact]:
    """Decisive guards on what the user passes (arguments, or the object they hold when the message
    gives no advice of its own), on a page whose public call is known."""
    if not f.public_path.entries and not f.public_function:
        return []
    told = bool(advice(f))
    return [g for g in decisive(f) if user_reads(f, g) and not g.options and g.rule != "import-failed"
            and not (told and all(n == "self" or n.startswith("self.") for n in g.names))]


def instance_wanted(f: Facts) -> str:
    """"`ParamType`" when the raise fires on a class where the message asks for an instance."""
    if "instan" not in message_text(f).lower():
        return ""
    for g in decisive(f):
        m = re.search(r"is a subclass of a `([\w.]+)`", g.words)
        if m and not g.guard.negated:
            return m.group(1)
    return ""


def internal(f: Facts) -> bool:
    return roles.internal_check(f, any(user_reads(f, g) for g in decisive(f)))



def constant_instead(f: Facts) -> str:
    """The public constant a private raising function returns whenever its checks pass, as what to use."""
    return (f"Where your code needs what {callee(f)} returns, use the public `{f.returns_constant}` instead: the "
            "function returns that constant whenever its checks pass, so taking it directly needs no arguments "
            "to get right.")
