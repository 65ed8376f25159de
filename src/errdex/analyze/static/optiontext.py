"""The solutions and prevention a configuration option gives a page: every way to set it, and, for a
diagnostic option, how to satisfy the check before turning it off."""

from __future__ import annotations

import re

from errdex.analyze.facts import Facts
from errdex.analyze.static import roles
from errdex.analyze.static.words import (
    callee,
    contrast,
    entry_words,
    first_sentence,
    negation,
    option_evidence,
)
from errdex.model import ConfigOption, ErrorSite, Solution

WARM_LEAD = "Warm the cache before turning the check on"  # the solution a proven warm-up is put after (prove/stored.py)


def option_solution(o: ConfigOption, f: Facts) -> list[Solution]:
    g = next((g for g in f.guards if o in g.options), None)
    of = next((x for x in f.option_facts if x.option == o), None)
    state = g.words if g is not None and g.words else f"the `{o.name}` option has the value that triggers it"
    ev = (option_evidence(o, f),)
    out: list[Solution] = []
    if of is not None and of.diagnostic and of.purpose:
        what = forbidden(of.purpose)
        demo = contrast(f)[:1]
        how = (f" The test `{demo[0][0]}` shows it: `{demo[0][1]}` runs before the check is on, "
               f"and `{demo[0][2]}` inside it raises." if demo else "")
        cache = cached_by(f)
        if cache:
            text = (f"{WARM_LEAD}: `{f.site.qualname.split('.<locals>.')[0]}` is "
                    f"cached ({cache}), so only a call with arguments it has not seen before needs {what}. "
                    f"Run {callee(f)} once with every argument it will get before `{o.name}` is on; inside the "
                    f"check the same calls are then served from the cache.{keyed_on_function(f)}{how}")
        elif roles.returned_call(f) and roles.function_name(f) == "__call__":
            text = (f"While `{o.name}` is on, stop at building: {entry_words(f)} can still trace, lower and "
                    f"compile the function (its help: \"{of.purpose}\"), only running what it returns is refused "
                    f"(`{f.site.qualname}`). Call the compiled function after the option is off again, or in a "
                    f"part of the program that does not turn it on.{how}")
        else:
            text = (f"Satisfy the check before turning it off: `{o.name}` is there to catch {what} (its help: "
                    f"\"{of.purpose}\"), and {callee(f)} was about to do that. Keep the code that runs while the "
                    f"option is on to work that needs none of it, and do what does need it before turning the "
                    f"option on.{how}")
        out.append(Solution(text=text, evidence=ev))
    if of is not None and of.ways:
        ways = "; ".join(f"`{w.code.splitlines()[0]}` ({w.note})" for w in of.ways)
        lead = (f"If you do not want this check here, turn `{o.name}` off"
                if of.diagnostic and of.purpose else f"Set `{o.name}` to `{of.safe_value}`")
        out.append(Solution(text=f"{lead} (the error happens because {state}); any one of: {ways}. "
                                 f"Its default is `{o.default}` (`{o.path}:{o.line}`).", evidence=ev))
        return out
    parts = [f"The error happens because {state}."]
    if o.kind == "env":
        neg = negation(f, g) if g is not None else ""
        parts.append(f"Make sure that {neg}: set the environment variable before starting Python." if neg
                     else f"Unset the environment variable `{o.name}` (or change its value) before starting Python.")
    elif o.kind == "flag":
        parts.append(f"Change it on the command line: `{o.set_hint.split(' ', 1)[0]}`.")
    elif o.set_hint:
        neg = negation(f, g) if g is not None else ""
        parts.append((f"Make sure that {neg}: " if neg else "") + f"change it with `{o.set_hint}`.")
    parts.append(f"Defined at `{o.path}:{o.line}`" + (f" with default `{o.default}`." if o.default else "."))
    out.append(Solution(text=" ".join(parts), evidence=ev))
    return out


def cached_by(f: Facts) -> str:
    """"`@weakref_lru_cache`" when the raising function is memoised (a decorator naming a cache above
    its ``def`` in the snippet), "a cache miss" when it is the miss path of one; else ""."""
    return cached_site(f.site)


def cached_site(site: ErrorSite) -> str:
    """``cached_by`` of a site (``prove/warmup.py`` asks it too, with no facts built)."""
    if "cache_miss" in site.qualname:
        return f"the raise is in `{site.qualname}`, the path taken on a cache miss"
    name = site.qualname.split(".<locals>.")[0].rsplit(".", 1)[-1]
    lines = site.snippet.splitlines()
    for i, ln in enumerate(lines):
        if re.match(rf"\s*(?:async\s+)?def\s+{re.escape(name)}\b", ln):
            j = i - 1
            while j >= 0 and lines[j].lstrip().startswith("@"):
                deco = lines[j].strip()
                if "cache" in deco.lower() or "memo" in deco.lower():
                    return f"`{deco.split('(')[0]}`"
                j -= 1
    return ""


_FUNCTION_PARAMS = ("fun", "fn", "func", "function", "f", "callback")


def keyed_on_function(f: Facts) -> str:
    """For a cached function whose first argument is a function (``fun: Callable``): the cache is keyed
    on that function object, so a warm-up helps only for the same object ("" otherwise)."""
    if not cached_by(f) or "cache_miss" in f.site.qualname:
        return ""
    first = next((p for p in f.params if p not in ("self", "cls")), "")
    typed = bool(first) and re.search(rf"\b{re.escape(first)}\s*:\s*(?:typing\.|t\.)?Callable\b", f.site.snippet)
    if not first or not (typed or first in _FUNCTION_PARAMS):
        return ""
    return (f" The cache is keyed on the function object passed as `{first}`: the warm-up helps only when the "
            "same function object is passed again, and a `lambda` or a function defined inline at the call is a "
            "new object every time, traced again; define it once and pass that same object.")


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def forbidden(purpose: str, strict: bool = False) -> str:
    """What a diagnostic option's help says it stops: "Disallow tracing for JIT compilation." → that; when
    the help says no such thing, "what the option checks for (...)", or "" when ``strict``."""
    m = re.match(r"\s*(?:disallow|forbid|prevent|disable|check for|detect)s?\s+(.+?)\.?$", purpose, re.IGNORECASE)
    if m is None and strict:
        return ""
    return _lower_first(m.group(1)) if m else "what the option checks for (\"" + purpose.rstrip(".") + "\")"


def option_prevention(f: Facts) -> list[str]:
    out: list[str] = []
    for of in f.option_facts:
        o = of.option
        if of.diagnostic and of.purpose:
            if cached_by(f):
                out.append(f"Turn `{o.name}` on only after a warm-up that has called {callee(f)} with every "
                           "argument shape and type the checked code will use"
                           + (", passing the same function objects (defined once, not inline lambdas)."
                              if keyed_on_function(f) else "."))
            elif roles.returned_call(f) and roles.function_name(f) == "__call__":
                out.append(f"Turn `{o.name}` on only around code that builds with {entry_words(f)} (traces, lowers, "
                           "compiles) and does not call what it returns.")
            else:
                out.append(f"Turn `{o.name}` on only around code that needs no {forbidden(of.purpose)}.")
            if o.env_var:
                out.append(f"Set `{o.env_var}` only for the run that needs the check, not in a shell profile or a "
                           "CI-wide environment: it is read when the option is defined and applies to the whole "
                           "process.")
        elif o.default is not None:
            out.append(f"Leave `{o.name}` at its default (`{o.default}`) unless you need what it does"
                       + (f" (\"{first_sentence(o.help, 120)}\")." if o.help else "."))
    return out
