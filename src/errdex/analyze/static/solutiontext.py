"""Solutions: what to change, each from one fact (the message's advice, the negated guard, the branches the
call handles, the options, the tests), with the fact as evidence."""

from __future__ import annotations

from errdex.analyze.dispatch import dispatch_alternatives
from errdex.analyze.facts import Facts
from errdex.analyze.static import narrowedtext, roles, scope
from errdex.analyze.static.advice import advice, comment_advice, names_beyond
from errdex.analyze.static.argdocs import documented, single_value
from errdex.analyze.static.factory import factory_solution
from errdex.analyze.static.fallback import fallback, negations
from errdex.analyze.static.kinds import held_with, kind_solutions
from errdex.analyze.static.nextchecks import later_dispatch
from errdex.analyze.static.optiontext import option_solution
from errdex.analyze.static.precondition import chosen_solution
from errdex.analyze.static.sectionbase import constant_instead, instance_wanted, internal, user_guards
from errdex.analyze.static.siblings import setting_call
from errdex.analyze.static.words import (
    callee,
    conditions,
    contrast,
    decisive,
    guard_evidence,
    issues_url,
    join,
    message_text,
    naming,
    one_guard,
    package,
    raise_evidence,
    sole_placeholder,
    test_evidence,
    user_reads,
    worked_out_clause,
)
from errdex.model import Solution


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
    wanted = instance_wanted(f)
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
    if internal(f) and f.enum_settings:
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
    if internal(f) and issues_url(f):
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
