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
from errdex.analyze.static.samples import set_expr
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
        s1 = f"{place(f)} {verb} {exc_name(f)} when " + _join(conds) + "."
        ev.extend(guard_evidence(f))
    else:
        s1 = f"{place(f)} {verb} {exc_name(f)} every time this line runs: no condition in the function guards it."
        ev.append(raise_evidence(f))
    sentences = [s1]
    doc = first_sentence(f.exception.docstring)
    if doc:
        sentences.append(f"The class {exc_name(f)} is documented as: \"{doc}\"")
        ev.append(Evidence(kind="class-doc", text=doc, path=f.exception.path, line=f.exception.line,
                           url=f.snapshot.source_url(f.exception.path, f.exception.line) if f.exception.path else ""))
    fdoc = first_sentence(f.docstring)
    if fdoc:
        sentences.append(f"`{f.site.qualname}` is documented as: \"{fdoc}\"")
        ev.append(Evidence(kind="docstring", text=fdoc, path=f.site.path, line=f.site.line))
    for o in f.options[:1]:
        if o.help:
            sentences.append(f"The `{o.name}` option's help says: \"{first_sentence(o.help)}\"")
            ev.append(option_evidence(o, f))
    if f.site.kind == "error":
        sentences.append("The call stops there with the exception; the code after the check does not run.")
    elif f.site.kind == "warning":
        sentences.append("This is a warning: the program goes on unless warnings are turned into errors.")
    else:
        sentences.append("An `assert` is an internal consistency check; Python skips it under `-O`.")
    return " ".join(sentences[:4]), ev


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


# --------------------------------------------------------------------------- solutions


def solutions(f: Facts) -> list[Solution]:
    out: list[Solution] = []
    for o in f.options:
        out.append(_option_solution(o, f))
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
        if neg:
            out.append(Solution(text=f"Make sure that {neg} before {_callee(f)} runs.",
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
            text=f"This combination is not implemented in {place(f)}: use another path the library supports "
                 "for this input, or open an issue with the library.",
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
    if not out:
        out.append(Solution(
            text=f"The raise has no condition inside {place(f)}: the fix is in the code that calls it. "
                 "Find the caller in your traceback and avoid the call that reaches it.",
            evidence=(raise_evidence(f),)))
    return out


def _callee(f: Facts) -> str:
    if f.public_function:
        return f"`{f.public_function}`"
    return f"`{f.site.qualname}`"


def _one_guard(f: Facts, line: int, source: str, kind: str) -> Evidence:
    return Evidence(kind="guard", text=f"{kind} {source}", path=f.site.path, line=line,
                    url=f.snapshot.source_url(f.site.path, line))


def _test_evidence(path: str, line: int, name: str, url: str) -> Evidence:
    return Evidence(kind="test", text=name, path=path, line=line, url=url)


def _option_solution(o: ConfigOption, f: Facts) -> Solution:
    g = next((g for g in f.guards if o in g.options), None)
    state = g.words if g is not None and g.words else f"the `{o.name}` option has the value that triggers it"
    parts = [f"The error happens because {state}."]
    if o.set_call and g is not None and g.words.endswith((" is on", " is off")):
        good = "False" if g.words.endswith(" is on") else "True"
        parts.append(f"Set it the other way: `{set_expr(o, good)}`.")
        if o.env_var:
            parts.append(f"It can also come from the environment variable `{o.env_var}` "
                         f"(read when the option is defined): unset it or set it to `{good.lower()}`.")
    elif o.kind == "env":
        neg = describe_negation(g.guard, g.options) if g is not None else ""
        if neg:
            parts.append(f"Make sure that {neg}: set the environment variable before starting Python.")
        else:
            parts.append(f"Unset the environment variable `{o.name}` (or change its value) before starting Python.")
    elif o.kind == "flag":
        parts.append(f"Change it on the command line: `{o.set_hint.split(' ', 1)[0]}`.")
    elif o.set_hint:
        neg = describe_negation(g.guard, g.options) if g is not None else ""
        parts.append((f"Make sure that {neg}: " if neg else "") + f"change it with `{o.set_hint}`.")
    parts.append(f"Defined at `{o.path}:{o.line}`" + (f" with default `{o.default}`." if o.default else "."))
    return Solution(text=" ".join(parts), evidence=(option_evidence(o, f),))


# --------------------------------------------------------------------------- prevention / when


def prevention(f: Facts) -> list[str]:
    out: list[str] = []
    for o in f.options:
        if o.default is not None:
            out.append(f"Leave `{o.name}` at its default (`{o.default}`) unless you need what it does"
                       + (f" (\"{first_sentence(o.help, 120)}\")." if o.help else "."))
    for g in actionable(f):
        if g.options or g.rule == "import-failed":
            continue
        neg = describe_negation(g.guard, g.options)
        if neg:
            out.append(f"Check where your values come from that {neg}: {_callee(f)} requires it.")
    for g in f.guards:
        if g.rule == "import-failed":
            out.append("Install the optional dependency in every environment that runs this code path "
                       "(pin it in your requirements).")
            break
    if f.tests:
        t = f.tests[0].test
        out.append(f"Keep a test like `{t.test_name}` (`{t.path}:{t.line}`) for your own use of this path.")
    if not out:
        out.append(f"Catch {exc_name(f)} where you call into the library and report the input that led to "
                   f"{place(f)}.")
    return out


def trigger(f: Facts) -> str:
    conds = conditions(f)
    if conds:
        return f"Reaching {place(f)} while " + _join(conds) + "."
    return f"Reaching {place(f)}: every call that gets there raises {exc_name(f)}."


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
    if f.public_function:
        out.append(f"Calling `{f.public_function}` (the public name of `{f.site.qualname}`).")
    for c in f.comments[:2]:
        c = " ".join(c.lstrip("#").split())
        if c:
            out.append(f"A comment next to the raise says: \"{c[:200]}\"")
    if not out:
        out.append(f"Any call path that reaches {place(f)}" + (
            " while " + _join(conditions(f)) if conditions(f) else "") + ".")
    return out
