"""Does a test's expected-message pattern describe an error's template?

Two ways to agree, strongest first:

1. ``regex``: the pattern (``re.search``, as pytest's ``match=`` and
   ``assertRaisesRegex`` do) matches the template rendered with plausible
   values in its placeholders ("", "x", "1", ...).
2. ``literals``: the pattern's literal runs (the text between its regex
   operators) can each be laid over the template, placeholders standing for
   any text, and together they cover enough of the template's own words.

Patterns are indexed code and may be hostile: ones longer than
``MAX_PATTERN`` or with nested quantifiers (the shape of catastrophic
backtracking) are never handed to ``re``; renderings are at most a few
hundred characters.  The literal check is a linear-time automaton.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from errdex.model import Template

MAX_PATTERN = 400
MAX_TEXT = 2000
_PLAUSIBLE = ("", "x", "1", "0", "2", "3", "float32", "int32", "(2, 3)", "None", "'x'", "foo", "[1, 2]")
_NESTED_QUANT = re.compile(r"\((?:[^()\\]|\\.)*[*+](?:[^()\\]|\\.)*\)[*+{]")
_WILD = None
_SPECIAL_ESC = set("dDwWsSbBAZ")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")


@dataclass(frozen=True, slots=True)
class PatternMatch:
    how: str  # "regex" | "literals"
    score: float  # characters of template literal text the pattern accounts for


def safe_compile(pattern: str) -> re.Pattern[str] | None:
    if len(pattern) > MAX_PATTERN or _NESTED_QUANT.search(pattern):
        return None
    try:
        return re.compile(pattern)
    except (re.error, RecursionError, OverflowError, ValueError):
        return None


def renderings(template: Template) -> list[str]:
    out: list[str] = []
    for v in _PLAUSIBLE:
        text = "".join(s.text if s.is_literal else v for s in template.segments)
        if len(text) <= MAX_TEXT and text not in out:
            out.append(text)
    return out


def literal_runs(pattern: str) -> tuple[list[list[str]], bool]:
    """The literal runs of each top-level alternative, and whether the pattern ignores case.

    Conservative: a quantified character is dropped from its run (it may be
    absent), classes and groups end a run.
    """
    ignore_case = pattern.startswith("(?i)") or "(?i" in pattern[:8]
    branches: list[list[str]] = [[]]
    run: list[str] = []
    depth = 0
    groups: list[list[int]] = []  # per open group: [runs before it, 1 if it holds a "|"]
    i = 0

    def end_run() -> None:
        if run:
            branches[-1].append("".join(run))
            run.clear()

    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            n = pattern[i + 1]
            i += 2
            if n in _SPECIAL_ESC or n.isdigit():
                end_run()
            elif n in "ntrfv":
                run.append({"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v"}[n])
            elif n.isalpha():
                end_run()  # \x.., \u...., \N{...}: not worth decoding
            else:
                run.append(n)
            continue
        if c in "*?+{":
            optional = c in "*?" or (c == "{" and re.match(r"\{\d*,?\d*\}", pattern[i:]) is not None)
            if optional and run:
                run.pop()
            end_run()
            if c == "{":
                close = pattern.find("}", i)
                i = close + 1 if close > 0 else i + 1
            else:
                i += 1
            continue
        if c == "[":
            end_run()
            close = i + 1
            if close < len(pattern) and pattern[close] == "^":
                close += 1
            if close < len(pattern) and pattern[close] == "]":
                close += 1
            while close < len(pattern) and pattern[close] != "]":
                close += 2 if pattern[close] == "\\" else 1
            i = close + 1
            continue
        if c in "()":
            end_run()
            depth += 1 if c == "(" else -1
            if c == "(":
                groups.append([len(branches[-1]), 0])
            elif groups:
                start, alt = groups.pop()
                # an optional group, or one with alternatives, guarantees none of its text
                if alt or pattern[i + 1:i + 2] in ("?", "*") or pattern[i + 1:i + 4] == "{0,":
                    del branches[-1][start:]
            if c == "(" and pattern[i + 1:i + 2] == "?":
                head = re.match(r"\(\?[a-zA-Z:=!<>P]*", pattern[i:])
                i += head.end() if head else 1
                continue
            i += 1
            continue
        if c == "|":
            end_run()
            if depth == 0:
                branches.append([])
            elif groups:
                groups[-1][1] = 1
            i += 1
            continue
        if c in ".^$":
            end_run()
            i += 1
            continue
        run.append(c)
        i += 1
    end_run()
    return branches, ignore_case


def _tokens(template: Template, lower: bool) -> list[str | None]:
    out: list[str | None] = []
    for s in template.segments:
        if s.is_literal:
            out.extend(s.text.lower() if lower else s.text)
        elif not out or out[-1] is not _WILD:
            out.append(_WILD)
    return out


def cover(run: str, tokens: list[str | None]) -> int:
    """The most template-literal characters ``run`` can match as a substring of a rendering
    (placeholders match any text), or -1 when it cannot be one."""
    n = len(tokens)
    states: dict[int, int] = {}
    for i in range(n + 1):
        states[i] = 0
    for c in run:
        new: dict[int, int] = {}
        for i, score in states.items():
            if i < n:
                t = tokens[i]
                if t is _WILD:
                    if new.get(i, -1) < score:
                        new[i] = score
                elif t == c and new.get(i + 1, -1) < score + 1:
                    new[i + 1] = score + 1
        # leaving a placeholder costs nothing
        for i in sorted(new):
            if i < n and tokens[i] is _WILD and new.get(i + 1, -1) < new[i]:
                new[i + 1] = new[i]
        if not new:
            return -1
        states = new
    return max(states.values())


def match_pattern(pattern: str | None, template: Template, compiled: re.Pattern[str] | None = None) -> PatternMatch | None:
    if not pattern:
        return None
    literal_len = sum(len(t) for t in template.literals)
    if literal_len == 0:
        return None
    rx = compiled if compiled is not None else safe_compile(pattern)
    branches, ignore_case = literal_runs(pattern)
    if rx is not None:
        chars = _run_chars(branches)
        if chars >= 6:
            for text in renderings(template):
                if rx.search(text):
                    # prefer the template the pattern explains best: most of its literal text
                    return PatternMatch("regex", 1000.0 + 100.0 * min(1.0, chars / literal_len))
    tokens = _tokens(template, ignore_case)
    best: PatternMatch | None = None
    for runs in branches:
        runs = [r.lower() if ignore_case else r for r in runs if r.strip()]
        total = sum(len(r) for r in runs)
        if total < 6:
            continue
        covered = 0
        ok = True
        for r in runs:
            c = cover(r, tokens)
            if c < 0 or (len(r) >= 4 and c < len(r) // 2):
                ok = False
                break
            covered += c
        if ok and covered >= min(12, literal_len) and covered >= 0.6 * total:
            m = PatternMatch("literals", float(covered))
            if best is None or m.score > best.score:
                best = m
    return best


def _run_chars(branches: list[list[str]]) -> int:
    return max((sum(len(r) for r in b) for b in branches), default=0)


def pattern_words(pattern: str) -> list[str]:
    """Words of 4+ characters in the pattern's literal runs (for the candidate index)."""
    branches, _ = literal_runs(pattern)
    words: list[str] = []
    for runs in branches:
        for r in runs:
            for w in _WORD.findall(r):
                lw = w.lower()
                if lw not in words:
                    words.append(lw)
    return words


def template_words(template: Template) -> set[str]:
    return {w.lower() for t in template.literals for w in _WORD.findall(t)}
