"""Prevention: the rule to keep in the user's code so the raise is not reached (the negated guard, the
message's advice, the option, a test like the library's)."""

from __future__ import annotations

from errdex.analyze.adapters import inside_words
from errdex.analyze.facts import Facts
from errdex.analyze.static import narrowedtext, roles, scope
from errdex.analyze.static.advice import advice, names_beyond
from errdex.analyze.static.factory import factory_prevention
from errdex.analyze.static.fallback import negations, own_argument_guards
from errdex.analyze.static.kinds import held_with
from errdex.analyze.static.nextchecks import next_checks
from errdex.analyze.static.observed import (
    entry_call,
    observations,
    test_name,
)
from errdex.analyze.static.optiontext import option_prevention
from errdex.analyze.static.sectionbase import constant_instead, instance_wanted, user_guards
from errdex.analyze.static.siblings import set_at_creation
from errdex.analyze.static.words import (
    callee,
    comment_when,
    conditions,
    exc_name,
    join,
    naming,
    package,
)


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
    if (wanted := instance_wanted(f)):
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
