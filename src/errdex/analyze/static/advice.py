"""The message's and the comments' own advice: sentences of the message that tell the user what to do
("Please wrap your shard_map in `jax.jit`."), and a comment at the raise that leaves the fix to the user."""

from __future__ import annotations

import re

from errdex.analyze.facts import Facts
from errdex.analyze.static.words import message_text

_ADVICE = re.compile(
    r"^(?:please|use|try|consider|pass|set|call|wrap|make sure|ensure|did you mean|you can|you may|you should|"
    r"you need to|you must|hint|to fix|instead|specify|provide|add|remove|install|upgrade|downgrade|enable|"
    r"disable|either)\b",
    re.IGNORECASE,
)


def advice(f: Facts) -> list[str]:
    """Sentences of the message that tell the user what to do ("Please wrap your shard_map in `jax.jit`.")."""
    out: list[str] = []
    for sentence in re.split(r"(?<=[.!?;])\s+|\s+-\s+", message_text(f)):
        s = sentence.strip().removeprefix("Hint:").strip()
        if len(s) >= 8 and (_ADVICE.search(s) or " instead" in s.lower()) and "{" not in s[:2]:
            out.append(s)
    return out


def names_beyond(advice_text: str, said: str) -> bool:
    """Whether the message's advice names code the negated guard does not (``hopper_matmul_mgpu``)."""
    names = set(re.findall(r"[A-Za-z_][\w.]*(?:_|\.)[\w.]*|\w+\(", advice_text))
    return any(n.rstrip("(") not in said for n in names)


_LEFT_TO_USER = re.compile(r"\b(?:up to the (?:user|caller)|users? (?:should|can|may|must)|callers? (?:should|can|may|"
                           r"must)|use \S+ instead|instead,? use)\b", re.IGNORECASE)


def comment_advice(f: Facts) -> str:
    """A comment next to the raise that tells the user what to do ("It's left up to the user to write a
    callback to do it if needed."): the sentences that say so, or ""."""
    text = " ".join(w for c in f.comments[:3] for w in c.lstrip("#").split())
    said = [x for x in re.split(r"(?<=[.!?])\s+", text) if _LEFT_TO_USER.search(x)]
    return " ".join(said)[:240]
