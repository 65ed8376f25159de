"""What a page says when no rule of its kind applies: what must hold for the raise not to happen
(the decisive guards' negations, any one of which is enough), and the fallback solution (the argument
the failing check is worked out from, the state a function without arguments reads, the caller to look
for in the traceback), or nothing: "change the arguments until it holds" tells the user nothing."""

from __future__ import annotations

import re

from errdex.analyze.earlyexit import passed_chains
from errdex.analyze.facts import Facts, GuardFact
from errdex.analyze.guardwords import describe_guard
from errdex.analyze.helperflags import case_kinds, cases_words, kinds_words
from errdex.analyze.static import roles
from errdex.analyze.static.handedread import layer_uses
from errdex.analyze.static.words import (
    callee,
    conditions,
    decisive,
    guard_evidence,
    inputs_of,
    issues_url,
    join,
    message_text,
    negation,
    package,
    place,
    process_state,
    raise_evidence,
    state_read,
    unseen_argument,
)
from errdex.model import ErrorSite, Guard, Solution


def inputs(f: Facts) -> str:
    """"`idxs`" (the arguments the failing check's locals are computed from), or ""."""
    names: list[str] = []
    for g in decisive(f):
        for n in g.names:
            names.extend(p for p in inputs_of(f, n.split(".", 1)[0]) if p not in names)
    return join([f"`{n}`" for n in names[:3]])


def read_params(f: Facts) -> str:
    """"`name`": the parameters the decisive guards read themselves (``name in _REGISTRY``), or ""."""
    unseen = not f.whole_function and f.public_path.depth == 0 and bool(f.public_path.entries)
    names = [h for g in decisive(f) for h in dict.fromkeys(n.split(".", 1)[0] for n in g.names)
             if h in f.params or (unseen and h != "self" and unseen_argument(f, h))]
    return join([f"`{n}`" for n in dict.fromkeys(names)][:3])


def named_params(f: Facts) -> str:
    """"`in_axes`": parameters of the public call the message itself names ("vmap in_axes must be ..."),
    when the raising function is that call (its parameters are the user's arguments), or ""."""
    if f.public_path.depth != 0 or not f.public_path.entries:
        return ""
    words = set(re.findall(r"[A-Za-z_]\w*", literal(f)))
    return join([f"`{p}`" for p in f.params if p in words and len(p) > 1 and p not in ("self", "cls")][:3])


def literal(f: Facts) -> str:
    return "".join(s.text for s in f.site.template.segments if s.is_literal).strip()


def negations(f: Facts, gs: list[GuardFact]) -> tuple[str, list[GuardFact]] | None:
    """What must hold for the raise not to happen: the decisive guards all hold on the way to it, so
    any one of their negations is enough ("`iterable` is not None or `length` is not None") -- except
    a guard whose negation only leads, with the others still holding, to another raise of the same
    function (``if body is NotSpecified: if isinstance(mesh, Sequence): raise`` beside a later
    ``if isinstance(mesh, Sequence): raise`` for a given ``body``): that way out is no way out."""
    said = [(negation(f, g), g) for g in gs]
    said = [(n, g) for n, g in said if n]
    blocked = [(n, g, s) for n, g in said if (s := elsewhere(f, g, [h for _, h in said if h is not g]))]
    if blocked and len(blocked) < len(said):
        said = [(n, g) for n, g in said if not any(g is b for _, b, _ in blocked)]
    else:
        blocked = []
    if not said:
        return None
    text = join([n for n, _ in said], "or") + (" (either is enough)" if len(said) == 2 else
                                               " (any one is enough)" if len(said) > 2 else "")
    for _, g, s in blocked[:1]:
        names = [n for n in g.names if n.split(".", 1)[0] in f.params] or list(g.names[:1])
        what = join([f"`{n}`" for n in names[:2]]) or f"`{g.guard.normalized}`"
        msg = s.template.render().strip()[:120]
        other = f"\"{msg}\"" if msg else f"`{s.exception_name}` at line {s.line}"
        ways = escapes(f, g, s, [h for _, h in said])
        if ways is None:
            text += f" (changing {what} alone does not help: the call then raises {other} instead)"
        elif ways:  # an ``elif`` between the two raises is a way out (rating 8, 707f: `body` a sequence)
            text += f" (changing {what} alone helps only when {join(ways, 'or')}: otherwise the call raises {other} instead)"
        else:
            text += f" (changing {what} alone does not always help: the call may raise {other} instead)"
    return text, [g for _, g in said]


def escapes(f: Facts, g: GuardFact, s: ErrorSite, kept: list[GuardFact]) -> list[str] | None:
    """The branches between ``g``'s and the other raise ``s`` that take another way, in words: ``s`` holds
    the negation of each ``elif`` test passed on the way (``not isinstance(body, Sequence)``), and a value
    making one of them true goes down that branch instead (pl.kernel's MPMD form, a sequence of bodies with a
    sequence of meshes).  None when ``s`` negates nothing but ``g`` (a plain ``else``: no other way);
    "" items are left out, so [] means branches errdex cannot say in words."""
    held = {h.guard.normalized for h in kept}
    tests = [x.source for x in s.guards if x.negated and x.normalized not in held]  # an ``else`` part's chain
    # a chain of leaving branches before the raise, in its snippet or, when that starts too late, in this one's
    tests += [x.source for x in passed_chains(s) or passed_chains(f.site, s.line)]
    others = list(dict.fromkeys(t for t in tests if t != g.guard.source and t not in held))
    if not others:
        return None
    words = [describe_guard(Guard(kind="if", source=t, normalized=t))[0] for t in others]
    return [w for w in words if w] if all(words) else []


def elsewhere(f: Facts, g: GuardFact, others: list[GuardFact]) -> ErrorSite | None:
    """Another raise of the same function that the other guards alone lead to when ``g`` does not hold:
    its conditions are theirs, plus at most ``else`` branches (negated guards), and ``g`` reads other
    names than they do (else "changing `x` alone" would say nothing)."""
    need = {h.guard.normalized for h in others}
    heads = {n.split(".", 1)[0] for n in g.names}
    if not need or heads & {n.split(".", 1)[0] for h in others for n in h.names}:
        return None
    for s in f.same_function:
        has = {x.normalized for x in s.guards}
        extra = [x for x in s.guards if x.normalized not in need]
        if need <= has and g.guard.normalized not in has and all(x.negated for x in extra):
            return s
    return None


def fallback(f: Facts) -> Solution | None:
    """When no other fact says what to change: the argument the failing check is worked out from, the
    state a function without arguments reads, or the caller to look for; else nothing (the meaning
    already quotes the message, and "change the arguments until it holds" tells the user nothing)."""
    msg = message_text(f)
    lit = literal(f)
    target = callee(f) if f.public_path.entries or f.public_function else f"the {package(f)} call in your traceback"
    conds = conditions(f)
    if f.uncalled:
        return uncalled_solution(f)
    if conds and not (f.public_path.entries or f.public_function):
        return Solution(text=f"No public function of {package(f)} reaches `{f.site.qualname}` in the call graph "
                             f"errdex reads, so look in your traceback for the {package(f)} call your code made: "
                             "what it passes down must avoid this: " + join(conds, "or") + ".",
                        evidence=tuple(guard_evidence(f)))
    if f.whole_function and not f.params and len(lit) >= 20:
        state = state_read(f)
        if process_state(f) and (f.public_path.entries or f.public_function):  # rating 10, ad70: the public call
            return Solution(text=f"The check that fails reads none of the arguments you pass to {callee(f)} but "
                                 f"the state of your process: the value it checks comes from {state}, so look at "
                                 f"what {state} is set to when the call runs (code that replaces it, such as a "
                                 "capture or a wrapper, must leave what the call needs from it).",
                            evidence=(raise_evidence(f),))
        return Solution(text=f"`{f.site.qualname}` takes no arguments, so the cause is not in how it is called "
                             "but in the state it reads" + (
                                 f": the value it checks comes from {state}, so look at what {state} is set to "
                                 "in your process when it runs." if state else
                                 f", which the message names: \"{msg[:200]}\""),
                        evidence=(raise_evidence(f),))
    src = inputs(f) or read_params(f) or named_params(f)
    if len(lit) >= 20 and not (f.public_path.entries or f.public_function):
        return Solution(text=f"No public function of {package(f)} reaches `{f.site.qualname}` in the call graph "
                             f"errdex reads, so the value it checks" + (f" (worked out from {src})" if src else "")
                             + f" is not one your code passes directly: find the {package(f)} call your code made "
                             "in the traceback; if its arguments are valid, the input reached this check through "
                             f"{package(f)} itself" + (f" (report it at {issues_url(f)})." if issues_url(f) else "."),
                        evidence=(raise_evidence(f),))
    if len(lit) >= 20 and roles.handed_out(f):
        return handed_out_solution(f, src, msg)
    heads = {n.split(".", 1)[0] for g in decisive(f) for n in g.names} if len(lit) >= 20 and src else set()
    flags = next((s for s in f.flag_sources if s[0] in heads), None)
    if flags is not None:
        # the helper that fills the list says which of what you pass makes a flag true (7554)
        local, call, tests, entry_of = flags
        clears = next((c[2] for c in f.flag_clears if c[0] == local and c[1] == call), ())
        bad, good = case_kinds(tests[:3]), case_kinds(clears[:3])
        if bad and good and entry_of and entry_of in f.params:  # what to pass as well as what not to (7554)
            return Solution(text=f"Give each entry of `{entry_of}` to {target} as {kinds_words(good)}, never as "
                                 f"{kinds_words(bad)}: `{call}` works out a flag for each entry, false for {kinds_words(good)} "
                                 f"and true for {kinds_words(bad)}, and the check fails on a true one (`{local}`); the "
                                 f"message: \"{msg[:200]}\"",
                            evidence=(*guard_evidence(f), raise_evidence(f)))
        return Solution(text=f"Look at the {src} you pass to {target}: `{call}` works out flags from "
                             f"{'them' if ' and ' in src else 'it'}, a true one where "
                             f"{cases_words(tests[:3], entry_of if entry_of in f.params else '')}, "
                             f"and the check fails on a true one (`{local}`); the message says what it must be: "
                             f"\"{msg[:200]}\"",
                        evidence=(*guard_evidence(f), raise_evidence(f)))
    if len(lit) >= 20 and src:
        return Solution(text=f"Look at the {src} you pass to {target}: the check that fails reads "
                             + ("them (or a value worked out from them)" if " and " in src else
                                "it (or a value worked out from it)")
                             + f", and the message says what it must be: \"{msg[:200]}\"",
                        evidence=(raise_evidence(f),))
    if len(lit) >= 20:
        return None
    if conds:
        return Solution(text=f"{target[:1].upper() + target[1:]} raises this when " + join(conds)
                             + ": pass values for which that does not hold.",
                        evidence=tuple(guard_evidence(f)))
    return Solution(text=f"Every call of {target} that reaches {place(f)} raises it: call it differently "
                         "or not at all in this case.", evidence=(raise_evidence(f),))


def own_argument_guards(f: Facts) -> list[GuardFact]:
    """The decisive guards that read only the raising function's own parameters (shown with its ``def``)."""
    if not f.whole_function or not f.params:
        return []
    return [g for g in decisive(f) if g.names and {n.split(".", 1)[0] for n in g.names} <= set(f.params)]


def uncalled_solution(f: Facts) -> Solution:
    """For a function nothing in the package calls: only outside code that imports the private name reaches it."""
    negs = negations(f, own_argument_guards(f))
    text = (f"Nothing in {package(f)} {f.snapshot.version or f.snapshot.ref or ''} calls `{f.site.qualname}` (in the call graph errdex "
            "reads), so the raise comes from code outside it that calls the private function directly: your own "
            "code or another library importing it. In that code, "
            + (f"make sure that {negs[0]} when you call it, or " if negs else "")
            + f"use a public {package(f)} API instead: a private function can change or go away in any release.")
    return Solution(text=" ".join(text.split()), evidence=tuple(guard_evidence(f)))


def handed_out_solution(f: Facts, src: str, msg: str) -> Solution:
    """The check of a method the standard library calls, in terms of what the user does with the object."""
    obj = f.site.qualname.rsplit(".", 1)[0]
    use = roles.handed_use(f)
    uses = f"the {use}s it asks for" if use else "the reads or writes it asks for"
    later = (f"; the raise comes on a later {use} from that object, not at the call of {callee(f)}"
             if use == "read" else "; the raise comes on a later write to it, not at the call" if use else "")
    decides = layer_uses(f) or f"how your code uses that object ({uses}){later}"
    return Solution(text=f"The object that {callee(f)} returns holds a `{obj}`, and Python's own code calls its "
                         f"`{f.site.qualname.rsplit('.', 1)[-1]}` with the {src or 'values'} it checks, not your "
                         f"code: what decides it is {decides}, and the message says what must hold: "
                         f"\"{msg[:200]}\"",
                    evidence=(raise_evidence(f),))
