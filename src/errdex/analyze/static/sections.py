"""The page's prose sections, each sentence built from one fact (and naming it as evidence).

What it means, Solutions, Prevention, When it happens.  No sentence here
states anything the facts do not: conditions come from the guards' plain
words (or the code itself, quoted), options from their definitions,
advice from the message, examples from the tests.  Sentences speak of the
user's call (``words.who``/``callee``), the arguments it passes and the
object it holds, never of the raising function's locals; where the facts are
thin a section says less (Prevention and When may be empty) rather than pad.
"""

from __future__ import annotations

import re

from errdex.analyze.adapters import inside_words
from errdex.analyze.dispatch import dispatch_alternatives
from errdex.analyze.facts import Facts, GuardFact
from errdex.analyze.static import narrowedtext, roles, scope
from errdex.analyze.static.advice import advice, comment_advice, names_beyond
from errdex.analyze.static.argdocs import documented, single_value
from errdex.analyze.static.factory import factory_prevention, factory_situation, factory_solution
from errdex.analyze.static.fallback import fallback, inputs, literal, negations, own_argument_guards
from errdex.analyze.static.kinds import held_with, kind_solutions
from errdex.analyze.static.nextchecks import later_dispatch, next_checks
from errdex.analyze.static.observed import (
    caught_inside,
    clean,
    distinct_cases,
    entry_call,
    observations,
    observed_evidence,
    observed_sentence,
    test_name,
)
from errdex.analyze.static.optiontext import cached_by, option_prevention, option_solution
from errdex.analyze.static.precondition import chosen_solution
from errdex.analyze.static.purpose import check_purpose, named_elsewhere
from errdex.analyze.static.siblings import enum_setting, refused_at_creation, set_at_creation, setting_call
from errdex.analyze.static.words import (
    callee,
    comment_when,
    conditions,
    contrast,
    decisive,
    entry_words,
    exc_name,
    first_sentence,
    fixed_words,
    guard_evidence,
    issues_url,
    join,
    message_text,
    naming,
    one_guard,
    option_evidence,
    package,
    place,
    raise_evidence,
    sole_placeholder,
    test_evidence,
    user_reads,
    who,
    worked_out_clause,
)
from errdex.model import Evidence, Solution

__all__ = ["advice", "cached_by", "conditions", "meaning", "prevention", "situations", "solutions", "trigger"]

def user_guards(f: Facts) -> list[GuardFact]:
    """Decisive guards on what the user passes (arguments, or the object they hold when the message
    gives no advice of its own), on a page whose public call is known."""
    if not f.public_path.entries and not f.public_function:
        return []
    told = bool(advice(f))
    return [g for g in decisive(f) if user_reads(f, g) and not g.options and g.rule != "import-failed"
            and not (told and all(n == "self" or n.startswith("self.") for n in g.names))]


def _instance_wanted(f: Facts) -> str:
    """"`ParamType`" when the raise fires on a class where the message asks for an instance."""
    if "instan" not in message_text(f).lower():
        return ""
    for g in decisive(f):
        m = re.search(r"is a subclass of a `([\w.]+)`", g.words)
        if m and not g.guard.negated:
            return m.group(1)
    return ""


def _internal(f: Facts) -> bool:
    return roles.internal_check(f, any(user_reads(f, g) for g in decisive(f)))


# --------------------------------------------------------------------------- what it means


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
    elif _internal(f) and literal(f):
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
    if (later := refused_at_creation(f)):
        sentences.insert(1, later)
    if _internal(f) and (setting := enum_setting(f)):
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
    if _internal(f):
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
    return " ".join(sentences[:5]), ev


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


# --------------------------------------------------------------------------- solutions


def solutions(f: Facts) -> list[Solution]:
    out: list[Solution] = [*kind_solutions(f)]
    if (narrowed := narrowedtext.solution(f)) is not None:
        out.append(narrowed)
        out.extend(x for x in (narrowedtext.compiled_solution(f),) if x is not None)  # 9fa3: the lowering's
    for o in f.options:
        out.extend(option_solution(o, f))
    alternatives = dispatch_alternatives(f.site.guards)
    in_dispatch = {g for alt in alternatives for g in alt.guards}
    negs = negations(f, [g for g in user_guards(f) if g.guard not in in_dispatch])  # not-taken dispatch
    # the held object's ``with`` block, or the negated guard in the call's own names, says it concretely
    for text in [] if held_with(f) else [a for a in advice(f)[:2] if not negs or names_beyond(a, negs[0])]:
        out.append(Solution(text=f"Do what the message says: \"{text}\"", evidence=(raise_evidence(f),)))
    for g in decisive(f):
        if g.rule == "import-failed":
            mod = g.words.split("`")[1] if "`" in g.words else "the module"
            out.append(Solution(text=f"Make `import {mod}` work: install (or repair) the package that provides it.",
                                evidence=tuple(guard_evidence(f))))
    wanted = _instance_wanted(f)
    if wanted:
        out.append(Solution(text=f"Pass an instance of a `{wanted}` subclass (`MyType()`), not the class itself "
                                 f"(`MyType`), where {callee(f)} expects a parameter type.",
                            evidence=tuple(guard_evidence(f))))
    if negs:  # branches are said better by the alternatives below
        text, gs = negs
        only = f" {scope.restricted_where(f)}" if scope.restricted(f) else ""
        said = documented(f, gs)  # the argument in the library's words (b806: the layout `meta` must have)
        said += single_value(f, text, gs)  # 707f: one `Mesh` where the docs ask for a sequence only under a condition
        out.append(Solution(text=f"Make sure that {text} when you call {callee(f)}{naming(f, gs[0])}{only}{said}.",
                            evidence=tuple(one_guard(f, g.guard.line, g.guard.source, g.guard.kind) for g in gs)))
        for param, handled, later in later_dispatch(f):  # b806: what the call handles of another argument
            out.append(Solution(
                text=f"Once that holds, {callee(f)} also needs `{param}` to be one it handles: {handled} (else it "
                     f"raises `{later.exception_name}` at line {later.line}: \"{' '.join(later.template.render().split())[:120]}\").",
                evidence=tuple(one_guard(f, g.line, g.source, g.kind) for g in later.guards)))
    users = [alt for alt in alternatives if any(user_reads(f, g) for g in f.guards if g.guard in alt.guards)]
    for alt in users:  # a value the library worked out along the way is not the user's to change
        what = "an instance of one of" if alt.kind == "type" else "one of"
        choices = ", ".join(f"`{c}`" for c in alt.choices)
        out.append(Solution(
            text=f"Use a case that {callee(f)} handles: the branches before this raise take `{alt.subject}` "
                 f"as {what} {choices}.",
            evidence=tuple(one_guard(f, g.line, g.source, g.kind) for g in alt.guards)))
    # the narrowed solution says which case and what to do instead (the user's calls): no "not supported" as well
    unsupported = narrowed is None and f.exception.name.endswith("NotImplementedError")
    if (unsupported and not roles.abstract_method(f) and f.public_path.depth > 0
            and (alternatives or not any(user_reads(f, g) for g in decisive(f)))):
        out.append(Solution(
            text=f"{callee(f, cap=True)} does not support this case, and what reached the check in "
                 f"`{roles.outer_name(f)}` is a value {package(f)} worked out on the way, not one of your arguments: "
                 "change the part of your call that leads to it, or ask for this case"
                 + (f" at {issues_url(f)}" if issues_url(f) else "")
                 + f" (the message shows the value: \"{message_text(f)[:160]}\").",
            evidence=(raise_evidence(f),)))
    elif (unsupported and not alternatives and not roles.abstract_method(f)
          and not conditions(f) and (value := sole_placeholder(f))):
        worked = worked_out_clause(f)  # rating 12, a28d: the case it refuses, in the user's terms, when known
        out.append(Solution(
            text=f"{callee(f, cap=True)} does not handle the value the message shows (`{value}`)"
                 + (f", which it refuses when {worked}" if worked and "inside the call" not in worked else "")
                 + ": pass data of a kind it supports instead"
                 + (f", or ask for this one at {issues_url(f)}." if issues_url(f) else "."),
            evidence=(raise_evidence(f),)))
    elif unsupported and not alternatives and not roles.abstract_method(f):
        conds = conditions(f)
        out.append(Solution(
            text=f"{callee(f, cap=True)} does not implement the case where " + join(conds)
                 + ": stay within the cases it supports" + (f", or ask for this one at {issues_url(f)}."
                                                            if issues_url(f) else ".")
            if conds else f"{callee(f, cap=True)} does not implement this case: stay within the cases it supports.",
            evidence=(raise_evidence(f),)))
    for name, ok, bad in contrast(f)[:1]:
        out.append(Solution(
            text=f"Do the work that succeeds first, outside the failing state: in the test `{name}`, "
                 f"`{ok}` runs without this error before `{bad}` raises it.",
            evidence=tuple(test_evidence(t.test.path, t.test.line, t.test.test_name, t.url) for t in f.tests[:1])))
    for link in f.tests[:1]:
        out.append(Solution(
            text=f"Compare with the test `{link.test.test_name}` (`{link.test.path}:{link.test.line}`), "
                 "which triggers this error on purpose: your code does what it does.",
            evidence=(test_evidence(link.test.path, link.test.line, link.test.test_name, link.url),)))
    if _internal(f) and f.enum_settings:
        attr, member, enum = f.enum_settings[0]
        cls = enum.rsplit('.', 1)[-1]
        # the other values the package's own checks compare with: a value to try, not only "another" (rating 8)
        named = (" (" + join([f"`{cls}.{m}`" for m in f.enum_others[:3]], "or") + ", the other value"
                 + ("s" if len(f.enum_others) > 1 else "") + f" {package(f)}'s own checks compare `{attr}` with)"
                 if f.enum_others else "")
        setter = (f" (as {setting_call(f)}, the call {package(f)}'s own code sets it with)" if setting_call(f)
                  else "")
        out.append(Solution(text=f"While it is reported, try another `{cls}` than `{member}`{named} for "
                                 f"`{attr}` where your code sets it{setter}: the failing check is made only under "
                                 f"`{member}`.",
                            evidence=tuple(guard_evidence(f))))
    if _internal(f) and issues_url(f):
        out.append(Solution(text=f"Report it at {issues_url(f)}: the shortest program that still raises it, the "
                                 f"full traceback and the message (\"{message_text(f)[:80]}\"); {package(f)} should "
                                 "have rejected the input earlier with a clear error, or handled it.",
                            evidence=(raise_evidence(f),)))
    if not out and (said := comment_advice(f)):
        out.append(Solution(text=f"A comment at the raise says what is left to you: \"{said}\"",
                            evidence=(raise_evidence(f),)))
    if not out and (chosen := chosen_solution(f)):  # the call picks the value itself when given None (027b)
        out.append(Solution(text=chosen, evidence=tuple(guard_evidence(f))))
    elif not out and (fb := fallback(f)) is not None:
        out.append(fb)
    if (made := factory_solution(f)) is not None:  # the public function that creates the class (bce3)
        out.append(made if out else Solution(text=made.text.replace("Or let", "Let", 1), evidence=made.evidence))
    out.extend(Solution(text=text, evidence=(raise_evidence(f),)) for text in scope.context_solutions(f))
    if f.returns_constant:  # rating 8, 0480: the public `WGMMA_LAYOUT` the private function returns
        out.append(Solution(text=constant_instead(f), evidence=(raise_evidence(f),)))
    return out


# --------------------------------------------------------------------------- prevention / when


def constant_instead(f: Facts) -> str:
    """The public constant a private raising function returns whenever its checks pass, as what to use."""
    return (f"Where your code needs what {callee(f)} returns, use the public `{f.returns_constant}` instead: the "
            "function returns that constant whenever its checks pass, so taking it directly needs no arguments "
            "to get right.")


def prevention(f: Facts) -> list[str]:
    out = option_prevention(f)
    if (narrowed := narrowedtext.prevention(f)):
        out.append(narrowed)
    if f.returns_constant:
        out.append(constant_instead(f))
    if (held := held_with(f)):
        fac, meth, var = held
        out.append(f"Create it only in a `with` statement (`with {fac}(...) as {var}:`) and keep every use of "
                   f"`{var}`, `{var}.{meth}()` included, inside that block.")
    negs = negations(f, user_guards(f) or (own_argument_guards(f) if f.uncalled else []))
    # the negated guard says the same in the call's names, unless the advice names more (another function)
    for text in [] if held else [a for a in advice(f)[:1] if not negs or names_beyond(a, negs[0])]:
        if not f.options:
            out.append(f"Make the message's advice the rule wherever {callee(f)} is used: \"{text}\"")
    if negs:
        only = f" {scope.restricted_where(f)}" if scope.restricted(f) else ""
        out.append(f"Before calling {callee(f)}{only}, check that {negs[0]}{naming(f, negs[1][0])}.")
        if (later := next_checks(f, negs[1])):  # rating 8, 0480: the 64x8 check after the 2-D one
            out.append(f"Once that holds, {callee(f)} checks the same arguments again further on: it raises "
                       + "; and ".join(f"\"{msg}\" when {words}" for msg, words in later) + ".")
    if (wanted := _instance_wanted(f)):
        out.append(f"Wherever your code gives {callee(f)} a parameter type (a `type=`), give an instance of a "
                   f"`{wanted}` subclass (`MyType()`), never the class itself.")
    if scope.mode_prevention(f):
        out.append(scope.mode_prevention(f))
    if (created := set_at_creation(f)):
        out.append(created)
    if (shaped := factory_prevention(f)):  # rating 12, bce3: `jax.make_mesh(shape, names)` with equal lengths
        out.append(shaped)
    if scope.outside(f) and conditions(f):
        how = inside_words(f.site.module, scope.outside(f))
        out.append(f"Keep calls of {callee(f)} in which {join(conditions(f))} to code that runs inside "
                   f"{scope.outside(f)}" + (f" ({how})." if how else "."))
    for g in f.guards:
        if g.rule == "import-failed":
            out.append("Install the optional dependency in every environment that runs this code path "
                       "(pin it in your requirements).")
            break
    if roles.control_flow(f):
        base = next((b.rsplit(".", 1)[-1] for b in f.exception.bases if b), "")
        if base:
            out.append(f"Do not catch `{base}` broadly around code that may call {callee(f)}: {exc_name(f)} is a "
                       f"subclass of `{base}`.")
    if f.tests:
        t = f.tests[0].test
        out.append(f"Keep a test like `{t.test_name}` (`{t.path}:{t.line}`) for your own use of this path.")
    elif not out and not roles.module_getattr(f):
        out.extend(_observed_prevention(f))
    return out


def _observed_prevention(f: Facts) -> list[str]:
    """A test of the user's own modelled on the library's test that raised it, through a public call
    (its arguments as recorded): only where the page has nothing more direct to offer, and not for a
    usage error from the command line (the end user's input, which a test of the program does not
    prevent) unless a comment at the raise says it comes from the code."""
    if roles.usage_error(f) and not comment_when(f):
        return []
    for ob in observations(f):
        if not ob.entry or any(p.startswith("_") for p in ob.entry.split(".")):
            continue
        call = entry_call(ob)
        where = f" (`{ob.test_path}{f':{ob.test_line}' if ob.test_line else ''}`)" if ob.test_path else ""
        return [f"Test your own code the way {package(f)}'s test `{test_name(ob.test)}`{where} does, through "
                f"{call} with your own values: that test raises this error, so one like it shows the same mistake "
                "in your code before it runs for real."]
    return []


def trigger(f: Facts) -> str:
    if (narrowed := narrowedtext.trigger(f)):
        return narrowed
    if roles.forwarder(f) and roles.usage_error(f):
        return ("Running a command with a value for an option or argument that its type rejects (the type calls "
                f"`{f.site.qualname}` with its message).")
    if roles.module_getattr(f):
        return f"Reading a name from `{f.site.module}` (`{f.site.module}.<name>` or `from {f.site.module} import " \
               "<name>`) that the module does not define."
    conds = [] if _internal(f) else conditions(f)
    stage = roles.stage(f)
    head = who(f) if f.public_path.entries or f.public_function or f.uncalled else f"Reaching {place(f)}"
    if conds:
        where = f", outside {scope.outside(f)}," if scope.outside(f) else ""
        if scope.restricted(f):  # the rule is registered for one kind of kernel only: the trigger says which
            where += " " + scope.restricted_where(f).split(" (the only ")[0] + ","
        return (f"{head}" + (f" ({stage.removeprefix('while ')})" if stage else "") + where + " while " + join(conds)
                + ".")
    if scope.eager_words(f):
        return f"{head} {scope.eager_words(f)}."
    if _internal(f) and f.enum_settings:  # the setting is the condition the user controls (rating 8: 8ee0's When)
        return f"{head}" + (f" ({stage.removeprefix('while ')})" if stage else "") + _under_setting(f) + "."
    if not _internal(f) and (worked := worked_out_clause(f)):
        return f"{head}" + (f" ({stage.removeprefix('while ')})" if stage else "") + f" while {worked}."
    clause = scope.first_clause(f)
    return f"{head}" + (f" ({stage.removeprefix('while ')})" if stage else "") + (
        f", in the situation the message names: \"{clause}\"" if clause else "") + "."


def _under_setting(f: Facts) -> str:
    """", with `lowering_semantics` set to `Semantics.Warpgroup` (`pkg.Semantics`), the only setting under which
    pkg makes this check, when its own check fails: "Scalar type must match"": the condition of an internal check
    made only under a public enum value, in the setting's terms and the message's fixed words (its text up to the
    first value it fills in, without a closing "got:")."""
    attr, member, enum = f.enum_settings[0]
    cls = enum.rsplit(".", 1)[-1]
    fixed = fixed_words(f)
    return (f", with `{attr}` set to `{cls}.{member}` (`{enum}`), the only setting under which {package(f)} makes "
            "this check, when its own check fails" + (f": \"{fixed[:120]}\"" if fixed else ""))


def situations(f: Facts) -> list[str]:
    out: list[str] = [x for x in (narrowedtext.situation(f), factory_situation(f)) if x]
    for ob in distinct_cases(observations(f), 3):
        call = entry_call(ob)
        where = f" (`{ob.test_path}{f':{ob.test_line}' if ob.test_line else ''}`)" if ob.test_path else ""
        out.append(f"The library's test `{test_name(ob.test)}`{where} raised it"
                   + (f" through {call}" if call else "") + f": \"{clean(ob.message, 160)}\""
                   + (f" ({package(f)} caught this one itself)" if caught_inside(ob) else ""))
    for link in f.tests[:3]:
        t = link.test
        first = next((ln.strip() for ln in reversed(t.code.splitlines()) if ln.strip()), "")
        out.append(f"The test `{t.test_name}` (`{t.path}:{t.line}`) expects it"
                   + (f", after `{first[:100]}`." if first else "."))
    for o in f.options:
        if o.env_var:
            out.append(f"The environment variable `{o.env_var}` is set when the process starts (a CI job or a "
                       "production environment that enforces the check).")
    for of in f.option_facts[:1]:
        if of.diagnostic and cached_by(f):
            out.append(f"The first call after `{of.option.name}` is turned on, or a call with argument shapes, "
                       "dtypes or static values not seen before: each is a cache miss.")
        elif of.diagnostic and roles.returned_call(f):
            out.append(f"Running a compiled function while `{of.option.name}` is on, as in a test or tool meant "
                       "only to build and compile.")
    if f.public_path.entries and f.public_path.depth > 0:
        chain = " → ".join(f"`{c.rsplit('.', 1)[-1]}`" for c in f.public_path.chain[:5])
        if (use := roles.handed_use(f)):  # the call builds the object; the raise comes on a later read (rating 13, eb3a)
            out.append(f"A {use} {'from' if use == 'read' else 'to'} the object {entry_words(f)} returns: the "
                       f"library's own call chain {chain} builds it when the call is made, and Python's own I/O code "
                       f"calls its `{roles.function_name(f)}` on a later {use}, which raises in {place(f)} (the call "
                       "itself does not raise it).")
        else:
            out.append(f"Calling {entry_words(f)}: the library's own call chain {chain} reaches the raise in "
                       f"{place(f)}.")
    direct = f.rerouted or f.public_path.depth == 0  # every other route checks first, or the call is direct
    for e, ents in list(zip(f.earlier, f.earlier_entries or [()] * len(f.earlier), strict=False))[:2] \
            if f.public_path.entries and not direct else ():
        if ents and not set(ents) & set(f.public_path.entries):
            entry, below, others = f.bypass
            past = (f" `{entry}` gets here only past that check, where `{below.rsplit('.', 1)[-1]}` is called by "
                    + join([f"`{o.rsplit('.', 1)[-1]}`" for o in others], "or") + " instead."
                    if entry in ents and others else "")
            out.append(f"`{e.qualname}` (`{e.path}:{e.line}`) makes the same check, with the same message, first "
                       f"when the call is {join([f'`{x}`' for x in ents], 'or')}: that call raises there instead (a "
                       f"page of its own), so this raise is reached by the calls named here.{past}")
            continue
        out.append(f"`{e.qualname}` (`{e.path}:{e.line}`) makes the same check, with the same message, earlier on "
                   f"some of the routes here; a call that goes through it raises there instead (a page of its own).")
    for e in f.earlier[:2] if f.public_path.entries and direct else ():  # no public call: no route to name
        between = [c.rsplit(".", 1)[-1] for c in f.public_path.chain[1:-1]][:3]
        route = "calling " + callee(f) + (" directly" if f.public_path.depth == 0 else
                                          " (through `" + "` → `".join(between) + "`)" if between else "")
        out.append(f"`{e.qualname}` (`{e.path}:{e.line}`) makes the same check before it gets here, so a call "
                   f"that goes through it raises there instead (a page of its own); this raise is reached by "
                   f"{route}.")
    conds = conditions(f)
    for other in [o for o in f.same_text if o not in f.earlier][:3]:
        as_type = f" as `{other.exception_name}`" if other.exception_name != f.site.exception_name else ""
        mine, theirs = f.site.qualname, other.qualname
        if mine == theirs and other.module != f.site.module:  # ``__getattr__`` of two modules: name the modules
            mine, theirs = f"{f.site.module}.{mine}", f"{other.module}.{theirs}"
        here = (f"the one at line {f.site.line}" if mine == theirs else f"the one raised in `{mine}`")
        out.append(f"The same message also comes{as_type} from `{theirs}` (`{other.path}:{other.line}`); this page "
                   f"is {here}" + (f" when {conds[-1]}" if conds else "") + ".")
    comment = " ".join(w for c in f.comments[:3] for w in c.lstrip("#").split())
    if comment:
        out.append(f"A comment next to the raise says: \"{comment[:240]}\"")
    if (how := roles.debug_only(f)):  # Python's ``-O`` removes the check (a1ee)
        out.append(f"Only while Python runs without `-O` (the usual way): the check in `{f.site.qualname}` {how}, "
                   "which `python -O` leaves out; an optimised run does not raise it but goes on with what it would "
                   "have refused, so do not count on catching it.")
    return out
