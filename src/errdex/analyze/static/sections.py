"""The page's prose sections, each sentence built from one fact (and naming it as evidence).

What it means, Solutions, Prevention, When it happens.  No sentence here
states anything the facts do not: conditions come from the guards' plain
words (or the code itself, quoted), options from their definitions,
advice from the message, examples from the tests.
"""

from __future__ import annotations

import re

from errdex.analyze.dispatch import dispatch_alternatives
from errdex.analyze.facts import Facts, GuardFact
from errdex.analyze.guardwords import describe_negation
from errdex.model import ConfigOption, Evidence, Solution

MAX_GUARDS = 4
_ADVICE = re.compile(
    r"^(?:please|use|try|consider|pass|set|call|wrap|make sure|ensure|did you mean|you can|you may|you should|"
    r"to fix|instead|specify|provide|add|remove|install|upgrade|downgrade|enable|disable|either)\b",
    re.IGNORECASE,
)


def first_sentence(text: str, limit: int = 300) -> str:
    text = " ".join(text.strip().split())
    if not text:
        return ""
    m = re.search(r"(?<=[.!?])\s+(?=[A-Z`])", text)
    out = text[: m.start()] if m else text
    if len(out) > limit:
        out = out[:limit].rsplit(" ", 1)[0] + " ..."
    return out


def place(f: Facts) -> str:
    return f"`{f.site.qualname}` (`{f.site.path}:{f.site.line}`)"


def entry_words(f: Facts, limit: int = 3) -> str:
    """The public calls that reach the raise: "`jax.jit`", "`a`, `b` or `c`"; "" when none is known."""
    names = [f"`{e}`" for e in f.public_path.entries[:limit]]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def where(f: Facts) -> str:
    """Who raises, in the user's terms: the public call when known, else the internal function."""
    if f.public_path.entries:
        return f"A call of {entry_words(f)}"
    return f"The internal function {place(f)}"


def route(f: Facts) -> str:
    """How the public call gets to the raise: through a registered rule, or through internal calls."""
    p = f.public_path
    if not p.entries or p.depth == 0:
        return ""
    prims = [c for c in p.chain[1:-1] if c.rsplit(".", 1)[-1].endswith("_p")]
    if prims:
        return (f"The raise is in {place(f)}, the rule registered for the `{prims[-1].rsplit('.', 1)[-1]}` "
                f"operation that `{p.entries[0]}` binds.")
    hops = p.depth - 1
    via = f" through {hops} internal call{'s' if hops != 1 else ''}" if hops else " directly"
    return f"The raise is in {place(f)}, which `{p.entries[0]}` reaches{via}."


def subject(f: Facts, name: str) -> str:
    """``x`` as the page names it: "the argument `x` of `jax.jit`" for a parameter, else the code."""
    if name in f.params:
        if f.public_path.entries and f.public_path.depth == 0:
            return f"the `{name}` argument of `{f.public_path.entries[0]}`"
        return f"the parameter `{name}` of `{f.site.qualname}`"
    return f"`{name}`"


def exc_name(f: Facts) -> str:
    return f"`{f.exception.public_name or f.exception.name}`"


def conditions(f: Facts) -> list[str]:
    """The guards as words, innermost last; code quoted when no rule read it."""
    out: list[str] = []
    for g in f.guards[-MAX_GUARDS:]:
        if g.words:
            out.append(g.words)
        elif g.guard.normalized and len(g.guard.normalized) <= 100:
            out.append(f"`{g.guard.normalized}` holds")
    return out


def actionable(f: Facts) -> list[GuardFact]:
    """Guards a user can act on: the ones that hold as written.  ``else``/``elif`` negations of a
    dispatch (``not (prim is lax.while_p)``) say which branch was not taken, not what to change."""
    pos = [g for g in f.guards[-MAX_GUARDS:] if not g.guard.negated and g.words]
    return pos or [g for g in f.guards[-MAX_GUARDS:] if g.words][-1:]


def contrast(f: Facts) -> list[tuple[str, str, str]]:
    """(test, statement that runs fine, statement that raises) from linked tests: a test's statements
    before its ``with pytest.raises`` block ran without the error, or the test would have failed."""
    out: list[tuple[str, str, str]] = []
    for link in f.tests[:2]:
        code = link.test.code.splitlines()
        inside = [i for i, ln in enumerate(code) if re.search(r"\b(raises|assertRaises\w*|warns)\(", ln)]
        if not inside:
            continue
        k = inside[-1]
        before = [ln.strip() for ln in code[:k] if re.match(r"\s*(?:\w+\s*=\s*)?\w+\(.*\)\s*(?:#.*)?$", ln)]
        after = [ln.strip() for ln in code[k + 1:] if ln.strip() and not ln.strip().startswith(("with ", "#"))]
        if before and after:
            out.append((link.test.test_name, before[-1].split("#")[0].strip(), after[-1].split("#")[0].strip()))
    return out


def guard_evidence(f: Facts) -> list[Evidence]:
    return [Evidence(kind="guard", text=f"{g.guard.kind} {g.guard.source}".strip(), path=f.site.path,
                     line=g.guard.line, url=f.snapshot.source_url(f.site.path, g.guard.line))
            for g in f.guards[-MAX_GUARDS:]]


def raise_evidence(f: Facts) -> Evidence:
    return Evidence(kind="template", text=f.site.template.render(), path=f.site.path, line=f.site.line,
                    url=f.source_url)


def option_evidence(o: ConfigOption, f: Facts) -> Evidence:
    text = f"{o.name} (default {o.default})" + (f": {o.help}" if o.help else "")
    return Evidence(kind="config", text=text, path=o.path, line=o.line, url=f.snapshot.source_url(o.path, o.line))


def advice(f: Facts) -> list[str]:
    """Sentences of the message that tell the user what to do ("Please wrap your shard_map in `jax.jit`.")."""
    text = " ".join(f.site.template.render().split())
    out: list[str] = []
    for sentence in re.split(r"(?<=[.!?;])\s+|\s+-\s+", text):
        s = sentence.strip()
        if len(s) >= 8 and (_ADVICE.search(s) or " instead" in s.lower()) and "{" not in s[:2]:
            out.append(s)
    return out


# --------------------------------------------------------------------------- what it means


def meaning(f: Facts) -> tuple[str, list[Evidence]]:
    ev: list[Evidence] = []
    conds = conditions(f)
    verb = {"warning": "warns with", "assertion": "fails an assertion,"}.get(f.site.kind, "raises")
    if conds:
        s1 = f"{where(f)} {verb} {exc_name(f)} when " + _join(conds) + "."
        ev.extend(guard_evidence(f))
    else:
        s1 = (f"{where(f)} {verb} {exc_name(f)} whenever it reaches `{f.site.qualname}`: that function "
              "checks nothing before this line." if f.public_path.entries else
              f"{where(f)} {verb} {exc_name(f)} every time it runs: it checks nothing before this line.")
        ev.append(raise_evidence(f))
    sentences = [s1]
    forms = message_forms(f)
    if forms:
        sentences.append(f"The message takes {len(f.site.templates)} forms, depending on the values; what sets "
                         "them apart: " + "; ".join(f"\"{x}\"" for x in forms[:4])
                         + (f"; and {len(forms) - 4} more" if len(forms) > 4 else "") + ".")
    r = route(f)
    if r:
        sentences.append(r)
    for of in f.option_facts[:1]:
        o = of.option
        if of.diagnostic and of.purpose:
            sentences.append(f"`{o.name}` is a check, not a setting that changes results (\"{of.purpose}\"): "
                             "this error is that check firing.")
            ev.append(option_evidence(o, f))
        elif of.purpose:
            sentences.append(f"The `{o.name}` option (default `{o.default}`) is for this: \"{of.purpose}\"")
            ev.append(option_evidence(o, f))
    doc = first_sentence(f.exception.docstring)
    if doc:
        sentences.append(f"The class {exc_name(f)} is documented as: \"{doc}\"")
        ev.append(Evidence(kind="class-doc", text=doc, path=f.exception.path, line=f.exception.line,
                           url=f.snapshot.source_url(f.exception.path, f.exception.line) if f.exception.path else ""))
    fdoc = first_sentence(f.docstring)
    if fdoc and len(sentences) < 4:
        sentences.append(f"`{f.site.qualname}` is documented as: \"{fdoc}\"")
        ev.append(Evidence(kind="docstring", text=fdoc, path=f.site.path, line=f.site.line))
    if f.site.kind == "warning":
        sentences.append(f"As a warning, {exc_name(f)} does not stop the program unless warnings are turned "
                         "into errors (`-W error`).")
    elif f.site.kind == "assertion":
        sentences.append(f"The `assert` in `{f.site.qualname}` is an internal consistency check; "
                         "Python skips it under `-O`.")
    return " ".join(sentences[:5]), ev


def message_forms(f: Facts, limit: int = 140) -> list[str]:
    """For a raise with several templates: the sentences (or lines) that not every template has."""
    if len(f.site.templates) < 2:
        return []
    split = [[p.strip() for p in re.split(r"(?<=[.;])\s+|\n", t.render()) if p.strip()] for t in f.site.templates]
    common = set(split[0]).intersection(*split[1:])
    out: list[str] = []
    for parts in split:
        for p in parts:
            if p not in common and p not in out:
                out.append(p if len(p) <= limit else p[:limit].rsplit(" ", 1)[0] + " ...")
    return out


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


# --------------------------------------------------------------------------- solutions


def solutions(f: Facts) -> list[Solution]:
    out: list[Solution] = []
    for o in f.options:
        out.extend(_option_solution(o, f))
    for text in advice(f)[:2]:
        out.append(Solution(text=f"Do what the message says: \"{text}\"", evidence=(raise_evidence(f),)))
    alternatives = dispatch_alternatives(f.site.guards)
    in_dispatch = {g for alt in alternatives for g in alt.guards}
    for g in actionable(f):
        if g.options or g.guard in in_dispatch:
            continue  # a not-taken dispatch branch: the alternatives below say it better
        if g.rule == "import-failed":
            mod = g.words.split("`")[1] if "`" in g.words else "the module"
            out.append(Solution(text=f"Make `import {mod}` work: install (or repair) the package that provides it.",
                                evidence=tuple(guard_evidence(f))))
            continue
        neg = describe_negation(g.guard, g.options)
        if neg and _user_reachable(f, g):
            out.append(Solution(text=f"Make sure that {neg} when you call {_callee(f)}{_naming(f, g)}.",
                                evidence=(_one_guard(f, g.guard.line, g.guard.source, g.guard.kind),)))
    for alt in alternatives:
        what = "an instance of one of" if alt.kind == "type" else "one of"
        choices = ", ".join(f"`{c}`" for c in alt.choices)
        out.append(Solution(
            text=f"Use a case that {place(f)} handles: the branches before this raise take `{alt.subject}` "
                 f"as {what} {choices}.",
            evidence=tuple(_one_guard(f, g.line, g.source, g.kind) for g in alt.guards)))
    if f.exception.name == "NotImplementedError" or f.exception.name.endswith("NotImplementedError"):
        out.append(Solution(
            text=f"{_callee(f, cap=True)} does not implement this case (the check is in {place(f)}): "
                 "give it inputs of a kind it supports, or open an issue with the library.",
            evidence=(raise_evidence(f),)))
    for name, ok, bad in contrast(f)[:1]:
        out.append(Solution(
            text=f"Do the work that succeeds first, outside the failing state: in the test `{name}`, "
                 f"`{ok}` runs without this error before `{bad}` raises it.",
            evidence=tuple(_test_evidence(t.test.path, t.test.line, t.test.test_name, t.url)
                           for t in f.tests[:1])))
    for link in f.tests[:1]:
        out.append(Solution(
            text=f"Compare with the test `{link.test.test_name}` (`{link.test.path}:{link.test.line}`), "
                 "which triggers this error on purpose: your code does what it does.",
            evidence=(_test_evidence(link.test.path, link.test.line, link.test.test_name, link.url),)))
    if not out and not f.guards:
        text = (f"Every call that reaches {place(f)} raises; from your code that is a call of {entry_words(f)}, "
                "so change how you call it or call another function for this case."
                if f.public_path.entries else
                f"Every call that reaches {place(f)} raises: look in your traceback for the first frame of "
                f"`{f.site.module.split('.', 1)[0]}` below your own code; that call is the one to change.")
        out.append(Solution(text=text, evidence=(raise_evidence(f),)))
    elif not out:
        out.append(Solution(
            text=f"{_callee(f, cap=True)} raises this when " + _join(conditions(f)) + ": change the input or "
                 "state that makes it so before the call.",
            evidence=tuple(guard_evidence(f))))
    return out


def _user_reachable(f: Facts, g: GuardFact) -> bool:
    """Whether the guard reads something a caller controls: a parameter, an attribute of ``self``
    (the object the user holds) or an option; not a local the function computed itself."""
    if g.options:
        return True
    names = [n for n in g.names if not any(p.startswith("_") for p in n.split(".")[1:])]  # no private attributes
    if len(names) < len(g.names):
        return False
    heads = {n.split(".", 1)[0] for n in names}
    return bool(heads & set(f.params)) or "self" in heads or (not f.params and not heads)


def _naming(f: Facts, g: GuardFact) -> str:
    """" (`x` is the `x` argument of `pkg.f`)" for the parameters the guard reads."""
    ps = [n for n in dict.fromkeys(n.split(".", 1)[0] for n in g.names) if n in f.params]
    if not ps or f.public_path.depth > 0:  # an internal function's parameter is not the user's to name
        return ""
    return " (" + "; ".join(f"`{p}` is {subject(f, p)}" for p in ps[:2]) + ")"


def _callee(f: Facts, cap: bool = False) -> str:
    if f.public_path.entries:
        return entry_words(f)
    if f.public_function:
        return f"`{f.public_function}`"
    return ("The" if cap else "the") + f" internal function `{f.site.qualname}`"


def _one_guard(f: Facts, line: int, source: str, kind: str) -> Evidence:
    return Evidence(kind="guard", text=f"{kind} {source}", path=f.site.path, line=line,
                    url=f.snapshot.source_url(f.site.path, line))


def _test_evidence(path: str, line: int, name: str, url: str) -> Evidence:
    return Evidence(kind="test", text=name, path=path, line=line, url=url)


def _option_solution(o: ConfigOption, f: Facts) -> list[Solution]:
    g = next((g for g in f.guards if o in g.options), None)
    of = next((x for x in f.option_facts if x.option == o), None)
    state = g.words if g is not None and g.words else f"the `{o.name}` option has the value that triggers it"
    ev = (option_evidence(o, f),)
    out: list[Solution] = []
    if of is not None and of.diagnostic and of.purpose:
        what = _forbidden(of.purpose)
        demo = contrast(f)[:1]
        how = (f" The test `{demo[0][0]}` shows it: `{demo[0][1]}` runs before the check is on, "
               f"and `{demo[0][2]}` inside it raises." if demo else "")
        cache = cached_by(f)
        if cache:
            text = (f"Warm the cache before turning the check on: `{f.site.qualname.split('.<locals>.')[0]}` is "
                    f"cached ({cache}), so only a call with arguments it has not seen before needs {what}. "
                    f"Run {_callee(f)} once with every argument it will get before `{o.name}` is on; inside the "
                    f"check the same calls are then served from the cache.{how}")
        else:
            text = (f"Satisfy the check before turning it off: with `{o.name}` on, {_callee(f)} may not need "
                    f"{what}. Do that work before the option is turned on, or outside the block that turns it "
                    f"on.{how}")
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
        neg = describe_negation(g.guard, g.options) if g is not None else ""
        parts.append(f"Make sure that {neg}: set the environment variable before starting Python." if neg
                     else f"Unset the environment variable `{o.name}` (or change its value) before starting Python.")
    elif o.kind == "flag":
        parts.append(f"Change it on the command line: `{o.set_hint.split(' ', 1)[0]}`.")
    elif o.set_hint:
        neg = describe_negation(g.guard, g.options) if g is not None else ""
        parts.append((f"Make sure that {neg}: " if neg else "") + f"change it with `{o.set_hint}`.")
    parts.append(f"Defined at `{o.path}:{o.line}`" + (f" with default `{o.default}`." if o.default else "."))
    out.append(Solution(text=" ".join(parts), evidence=ev))
    return out


def cached_by(f: Facts) -> str:
    """"`@weakref_lru_cache`" when the raising function is memoised (a decorator naming a cache above
    its ``def`` in the snippet), "a cache miss" when it is the miss path of one; else ""."""
    if "cache_miss" in f.site.qualname:
        return f"the raise is in `{f.site.qualname}`, the path taken on a cache miss"
    name = f.site.qualname.split(".<locals>.")[0].rsplit(".", 1)[-1]
    lines = f.site.snippet.splitlines()
    for i, ln in enumerate(lines):
        if re.match(rf"\s*(?:async\s+)?def\s+{re.escape(name)}\b", ln):
            j = i - 1
            while j >= 0 and lines[j].lstrip().startswith("@"):
                deco = lines[j].strip()
                if "cache" in deco.lower() or "memo" in deco.lower():
                    return f"`{deco.split('(')[0]}`"
                j -= 1
    return ""


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def _forbidden(purpose: str) -> str:
    """What a diagnostic option's help says it stops: "Disallow tracing for JIT compilation." → that."""
    m = re.match(r"\s*(?:disallow|forbid|prevent|disable|check for|detect)s?\s+(.+?)\.?$", purpose, re.IGNORECASE)
    return _lower_first(m.group(1)) if m else "what the option checks for (\"" + purpose.rstrip(".") + "\")"


# --------------------------------------------------------------------------- prevention / when


def prevention(f: Facts) -> list[str]:
    out: list[str] = []
    for of in f.option_facts:
        o = of.option
        if of.diagnostic and of.purpose:
            if cached_by(f):
                out.append(f"Turn `{o.name}` on only after a warm-up that has called {_callee(f)} with every "
                           "argument shape and type the checked code will use.")
            else:
                out.append(f"Turn `{o.name}` on only around code that has already done {_forbidden(of.purpose)}, "
                           "outside the checked region.")
        elif o.default is not None:
            out.append(f"Leave `{o.name}` at its default (`{o.default}`) unless you need what it does"
                       + (f" (\"{first_sentence(o.help, 120)}\")." if o.help else "."))
    for g in actionable(f):
        if g.options or g.rule == "import-failed":
            continue
        neg = describe_negation(g.guard, g.options)
        if neg and _user_reachable(f, g):
            rest = len(conditions(f)) - 1
            out.append(f"Before calling {_callee(f)}, check that {neg}{_naming(f, g)}: then this raise cannot "
                       "happen" + (f" (it needs all {rest + 1} of its conditions)." if rest else "."))
    for g in f.guards:
        if g.rule == "import-failed":
            out.append("Install the optional dependency in every environment that runs this code path "
                       "(pin it in your requirements).")
            break
    if f.tests:
        t = f.tests[0].test
        out.append(f"Keep a test like `{t.test_name}` (`{t.path}:{t.line}`) for your own use of this path.")
    if not out:
        out.append(f"Catch {exc_name(f)} around your calls of {_callee(f)} and keep the input that led to "
                   f"{place(f)} for a report.")
    return out


def trigger(f: Facts) -> str:
    conds = conditions(f)
    how = f"Calling {entry_words(f)} in a way that reaches {place(f)}" if f.public_path.entries else f"Reaching {place(f)}"
    if conds:
        return f"{how} while " + _join(conds) + "."
    return f"{how}: every call that gets there raises {exc_name(f)}."


def situations(f: Facts) -> list[str]:
    out: list[str] = []
    for link in f.tests[:3]:
        t = link.test
        first = next((ln.strip() for ln in reversed(t.code.splitlines()) if ln.strip()), "")
        out.append(f"The test `{t.test_name}` (`{t.path}:{t.line}`) expects it"
                   + (f", after `{first[:100]}`." if first else "."))
    for o in f.options:
        if o.env_var:
            out.append(f"The environment variable `{o.env_var}` is set when the process starts.")
    if f.public_path.entries and f.public_path.depth == 0:
        out.append(f"Calling `{f.public_path.entries[0]}` directly (the public name of `{f.site.qualname}`).")
    elif f.public_path.entries:
        out.append(f"Calling {entry_words(f)}: the library's own call chain "
                   + " → ".join(f"`{c.rsplit('.', 1)[-1]}`" for c in f.public_path.chain[:5]) + " reaches the raise.")
    for other in f.same_text[:3]:
        out.append(f"The same message also comes from `{other.qualname}` (`{other.path}:{other.line}`); this page "
                   f"is the one raised in `{f.site.qualname}`"
                   + (f" when {conditions(f)[-1]}" if conditions(f) else "") + ".")
    for c in f.comments[:2]:
        c = " ".join(c.lstrip("#").split())
        if c:
            out.append(f"A comment next to the raise says: \"{c[:200]}\"")
    if not out:
        out.append(f"Any call path that reaches {place(f)}" + (
            " while " + _join(conditions(f)) if conditions(f) else "") + ".")
    return out
