"""What it means: the page's opening paragraph, each sentence from one fact (and naming it as evidence)."""

from __future__ import annotations

import re

from errdex.analyze.facts import Facts
from errdex.analyze.static import narrowedtext, roles, scope
from errdex.analyze.static.fallback import inputs, literal
from errdex.analyze.static.handedread import platform_evidence, platform_sentence
from errdex.analyze.static.observed import (
    observed_evidence,
    observed_sentence,
)
from errdex.analyze.static.optiontext import cached_by
from errdex.analyze.static.purpose import check_purpose, named_elsewhere
from errdex.analyze.static.sectionbase import internal
from errdex.analyze.static.siblings import enum_setting, refused_at_creation
from errdex.analyze.static.words import (
    callee,
    comment_when,
    conditions,
    exc_name,
    first_sentence,
    guard_evidence,
    join,
    message_text,
    option_evidence,
    package,
    raise_evidence,
    sole_placeholder,
    who,
    worked_out_clause,
)
from errdex.model import Evidence


def meaning(f: Facts) -> tuple[str, list[Evidence]]:
    ev: list[Evidence] = []
    verb = {"warning": "warns with", "assertion": "fails an assertion,"}.get(f.site.kind, "raises")
    stage = roles.stage(f)
    conds = conditions(f)
    sentences: list[str] = []
    if (narrowed := narrowedtext.meaning(f)):  # an earlier dispatch narrowed what reaches it: the user's calls
        sentences.append(narrowed)
        ev.extend(narrowedtext.evidence(f))
    elif roles.module_getattr(f):
        sentences.append(f"The module `{f.site.module}` has no attribute by the name you asked for: the message "
                         f"is that name. `{f.site.module}.__getattr__` is only asked for names the module does "
                         "not define, and it provides none but the ones it checks for before this raise.")
        ev.append(raise_evidence(f))
    elif (cls := roles.abstract_method(f)):
        meth = f.site.qualname.split(".")[1]
        sentences.append(f"`{meth}` of `{cls}` is abstract: `{cls}` only declares it and its subclasses provide it. "
                         f"{who(f)} raised {exc_name(f)} because the object is a `{cls}` itself or a subclass "
                         f"that does not define `{meth}`.")
        ev.append(raise_evidence(f))
    elif roles.control_flow(f):
        p = f.public_path
        if p.depth == 0 and len(p.entries) > 1:  # the others only reach it through calls of their own
            others = " or ".join(f"`{e}`" for e in p.entries[1:])
            sentences.append(f"Calling `{p.entries[0]}` raises {exc_name(f)} every time: that is what it is for, "
                             f"not a failure. {others} raise it only when a call of theirs gets there, not "
                             "every time they are called.")
        else:
            sentences.append(f"{who(f)} raises {exc_name(f)} every time: that is what it is for, not a failure.")
        ev.append(raise_evidence(f))
    elif (field := roles.forwarder(f)):
        forms = [t.render() for t in f.site.templates[:3]]
        cls = f.site.qualname.split(".")[0]
        lead = ("A value given for an option or argument was rejected by its type: " if roles.usage_error(f)
                else "")
        text = (f"{lead}the `{cls}` classes call `{f.site.qualname}` when they refuse a value, and it "
                f"raises {exc_name(f)} with the message they pass as `{field}`"
                + (", e.g. " + "; ".join(f"\"{x}\"" for x in forms) if forms else "")
                + ". The check that failed is the caller's; the message names the value.")
        sentences.append(text[:1].upper() + text[1:])
        ev.append(raise_evidence(f))
    elif internal(f) and literal(f):
        sentences.append(f"{who(f)} {verb} {exc_name(f)}" + (f" {stage}" if stage else "")
                         + f": an internal check failed (\"{message_text(f)[:200]}\").")
        ev.extend(guard_evidence(f))
    elif conds:
        sentences.append(f"{who(f)} {verb} {exc_name(f)}" + (f" {stage}," if stage else "")
                         + " when " + join(conds) + ".")
        ev.extend(guard_evidence(f))
    elif roles.usage_error(f) and literal(f):
        sentences.append(f"{who(f)} raises {exc_name(f)} when the command line does not fit the command: "
                         f"\"{message_text(f)[:200]}\"")
        ev.append(raise_evidence(f))
    elif (worked := worked_out_clause(f)):
        sentences.append(f"{who(f)} {verb} {exc_name(f)}" + (f" {stage}," if stage else "") + f" when {worked}"
                         + (f": \"{message_text(f)[:200]}\"" if literal(f) else "."))
        ev.extend(guard_evidence(f))
    elif f.guards and literal(f):
        src = inputs(f)
        sentences.append(f"{who(f)} {verb} {exc_name(f)}" + (f" {stage}," if stage else "")
                         + " when a value it works out" + (f" from {src}" if src else
                                                           " from your arguments" if f.params else "")
                         + " fails its check; the message says "
                         f"which: \"{message_text(f)[:200]}\"")
        ev.extend(guard_evidence(f))
    elif f.guards and (value := sole_placeholder(f)):
        sentences.append(f"{who(f)} {verb} {exc_name(f)}" + (f" {stage}," if stage else "")
                         + f" for a value it does not handle, and the message is only that value (`{value}`). The "
                         f"checks that decide it read values {package(f)} works out inside the call, not your "
                         "arguments as you pass them.")
        ev.extend(guard_evidence(f))
    elif _shows_checks_above(f):
        sentences.append(f"{who(f)} {verb} {exc_name(f)}" + (f" {stage}" if stage else "")
                         + " after the checks shown above the raise in the source let it through.")
        ev.append(raise_evidence(f))
    elif scope.eager(f) is not None:
        sentences.append(f"{who(f)} {verb} {exc_name(f)} {scope.eager_words(f)}: \"{message_text(f)[:200]}\"")
        ev.append(raise_evidence(f))
    elif roles.operation(f) and f.public_path.depth > 0:
        sentences.append(f"{who(f)} {verb} {exc_name(f)}" + (f" {stage}" if stage else "")
                         + f" when JAX applies the rule `{f.site.qualname}` of `{f.site.module}` to the "
                         f"`{roles.operation(f)}` operation: that rule raises whenever it runs, so what matters "
                         "is where the operation is used; the message says: \"" + message_text(f)[:200] + "\"")
        ev.append(raise_evidence(f))
    else:
        sentences.append(f"{who(f)} {verb} {exc_name(f)}" + (f" {stage}" if stage else "")
                         + ", with no condition of its own: every call that gets there raises.")
        ev.append(raise_evidence(f))
    if scope.restricted_sentence(f):
        sentences.append(scope.restricted_sentence(f))
    if scope.mode_sentence(f):
        sentences.append(scope.mode_sentence(f))
    if (only := platform_sentence(f)):  # the module checks the platform at import (rating 13, eb3a)
        sentences.insert(1, only)
        ev.append(platform_evidence(f))
    if (later := refused_at_creation(f)):
        sentences.insert(1, later)
    if internal(f) and (setting := enum_setting(f)):
        sentences.insert(2, setting)
    context = scope.explain(f) or scope.message_context(f)
    if context and context.split(": ", 1)[1] not in " ".join(sentences):
        sentences.append(context)
    when_said = comment_when(f)
    if roles.usage_error(f) and when_said:
        sentences.append(f"{exc_name(f)} is a usage error, but a comment at the raise says when this one "
                         f"happens: \"{when_said}\"")
    elif roles.usage_error(f):
        sentences.append(f"{exc_name(f)} is a usage error: it is about the command line the program was run "
                         "with (an option, an argument or its value), and is reported to the person who ran it.")
    if internal(f):
        sentences.append(f"It is a consistency check in `{roles.outer_name(f)}` of {package(f)}'s own work, not a "
                         "check of your arguments: a valid program is not expected to reach it, so it most likely "
                         f"points at a bug in {package(f)} or at an input it does not handle.")
    forms = message_forms(f)
    if forms and not roles.forwarder(f):
        sentences.append(f"The message takes {len(f.site.templates)} forms, depending on the values; what sets "
                         "them apart: " + "; ".join(f"\"{x}\"" for x in forms[:4])
                         + (f"; and {len(forms) - 4} more" if len(forms) > 4 else "") + ".")
    for of in f.option_facts[:1]:
        o = of.option
        if of.diagnostic and of.purpose and (what_for := check_purpose(f, of)):  # what the check is for
            sentences.append(f"{what_for} This error is that check firing" + _when_it_fires(f) + ".")
            ev.append(option_evidence(o, f))
        elif of.diagnostic and of.purpose:
            sentences.append(f"`{o.name}` is a check, not a setting that changes results (\"{of.purpose}\"): "
                             "this error is that check firing" + _when_it_fires(f) + ".")
            ev.append(option_evidence(o, f))
        elif of.purpose:
            sentences.append(f"The `{o.name}` option (default `{o.default}`) is for this: \"{of.purpose}\"")
            ev.append(option_evidence(o, f))
    if (named := named_elsewhere(f)):  # the message names a public call that is not the page's route
        sentences.append(named)
    seen = observed_sentence(f)
    if seen:
        sentences.insert(1, seen)
        ev.extend(observed_evidence(f))
    doc = first_sentence(f.exception.docstring)
    if doc and not f.exception.builtin:
        sentences.append(f"The class {exc_name(f)} is documented as: \"{doc}\"")
        ev.append(Evidence(kind="class-doc", text=doc, path=f.exception.path, line=f.exception.line,
                           url=f.snapshot.source_url(f.exception.path, f.exception.line) if f.exception.path else ""))
    fdoc = first_sentence(f.docstring)
    public_here = f.public_path.depth == 0 and bool(f.public_path.entries)
    if fdoc and len(sentences) < 4 and (public_here or f.public_function) and ".<locals>." not in f.site.qualname:
        sentences.append(f"`{f.public_path.entries[0] if public_here else f.public_function}` is documented as: "
                         f"\"{fdoc}\"")
        ev.append(Evidence(kind="docstring", text=fdoc, path=f.site.path, line=f.site.line))
    if f.site.kind == "warning":
        said = f" (\"{message_text(f)[:60]}\")" if roles.module_getattr(f) or not f.public_path.entries else ""
        sentences.append(f"As a warning, {exc_name(f)}{said} does not stop {callee(f)} unless warnings are turned "
                         "into errors (`-W error`).")
    return " ".join(_ended(x) if i < len(sentences[:5]) - 1 else x for i, x in enumerate(sentences[:5])), ev


def _ended(sentence: str) -> str:
    """A sentence followed by another, with a full stop after a closing quote that has none (rating 15, eb3a:
    '...: "cannot read ... console" `_WindowsConsoleReader` exists only ...' read as one run-on sentence)."""
    return sentence + "." if re.search(r"[\w)`]\"$", sentence) else sentence


def _when_it_fires(f: Facts) -> str:
    """The moment a diagnostic option's check runs, from where it sits: in ``__call__`` of what the
    public call built (running it, not building it), or in a cached function (only on a cache miss)."""
    if cached_by(f):
        return (f", and only on a cache miss: `{roles.outer_name(f)}` is cached, so a call with arguments (shapes, "
                "dtypes, static values) that were traced before does not reach it")
    if roles.returned_call(f) and roles.function_name(f) == "__call__":
        return (f", at the moment the compiled function runs (`{f.site.qualname}`): building it (tracing, "
                "lowering, compiling) is not refused, only running it")
    return ""


def _shows_checks_above(f: Facts) -> bool:
    """Whether the snippet shows ``if`` statements at the raise's own indentation above it (branches
    that return before it): then "no condition" would be false even though no guard was recorded."""
    if f.whole_function:
        return False  # its early exits are guards already
    lines = f.site.snippet.splitlines()
    k = f.site.line - f.site.snippet_start
    if not 0 <= k < len(lines):
        return False
    indent = len(lines[k]) - len(lines[k].lstrip())
    return any(re.match(rf"\s{{{indent}}}(?:if|elif)\b", ln) for ln in lines[:k])


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
