"""What the user can guard on, for the Defensive patterns section when no sample is proven
(``pagenotes``): the check to make before the call, from the decisive guard on the user's arguments or
option, in public terms; or why there is none, and why no try / except is offered in its place."""

from __future__ import annotations

import re

from errdex.analyze.facts import Facts, GuardFact
from errdex.analyze.options import OptionFacts
from errdex.analyze.static import narrowedtext, roles, scope
from errdex.analyze.static.factory import factory_call
from errdex.analyze.static.fallback import negations, own_argument_guards
from errdex.analyze.static.kinds import held_with
from errdex.analyze.static.optiontext import cached_by
from errdex.analyze.static.samples import catch_clause
from errdex.analyze.static.words import (
    assigned,
    callee,
    comment_when,
    decisive,
    entry_words,
    exc_name,
    fixed_words,
    function_params,
    join,
    package,
    user_reads,
    worked_out_clause,
)


def _no_try(f: Facts, named: bool = False) -> str:
    """Why the section offers no try / except (rating 8: the generic sample that matched the message, added a
    note and re-raised defended nothing on 8ee0, 027b, 9fa3, 7554, ad70, a1ee): catching the error helps only
    with somewhere else to go (a fallback call, another value to retry with), and errdex knows of none here;
    one that re-raises leaves the program failing exactly as before.  The call and the class make the line
    the page's own (no boilerplate); ``named``: the clause before it has named the call."""
    _imp, exc = catch_clause(f)
    return (f"a try / except would not help either: errdex knows no fallback for "
            f"{'that call' if named else callee(f)}, and one that only re-raises `{exc}` leaves the program "
            "failing as before.")


def _setting_fallback(f: Facts) -> str:
    """What to guard when an internal check is made only under one value of a public enum and the package's own
    checks compare the setting with other values too (``Facts.enum_settings``, ``enum_others``): the setting
    is the user's, so the one fallback is the other value, taken only for this error (its message's fixed
    words), with the failure kept; "" otherwise.  Not written as code: whether the other value builds the
    same thing is not known without running it."""
    if not (f.enum_settings and f.enum_others):
        return ""
    attr, member, enum = f.enum_settings[0]
    cls = enum.rsplit(".", 1)[-1]
    other = f"`{cls}.{f.enum_others[0]}`"
    _imp, exc = catch_clause(f)
    fixed = fixed_words(f)
    which = f" whose message starts \"{fixed[:80]}\"" if fixed else ""
    return (f"what to guard is the setting: the check is made only under `{cls}.{member}`, so code that must run "
            f"either way can catch `{exc}`{which} (only that one) and run again with `{attr}` set to {other} (the "
            f"other value {package(f)}'s own checks compare `{attr}` with; errdex has not run it), logging the "
            f"`{member}` failure for a report. A catch that only re-raises `{exc}` leaves the program failing as "
            "before.")


def _unstated(f: Facts) -> str:
    """The opening of the note when errdex cannot say the check in the user's terms, naming the call (the same
    words on every such page were on 3,019 of jax's 5,724, 53%), and then the check itself, in words, with what
    it reads: rating 8 wanted the Defensive section to say plainly what to guard and why errdex writes no test."""
    return (f"errdex cannot state this check in terms of what you pass to {callee(f)}, so it names no test to make "
            "before the call" + (f" (the check: {said})" if (said := check_words(f)) else "") + "; ")


_UNSTATED = re.compile(r"errdex cannot state this check in terms of what you pass to (.+?), so it names no test to "
                       r"make before the call(?: \(the check: .*?\))?; ", re.DOTALL)


def check_words(f: Facts) -> str:
    """The decisive check in words with what it reads, when no test on the user's arguments can be written:
    values the function works out (``worked_out_clause``), arguments it rebuilds before the check (bce3:
    ``Mesh`` makes an array of ``devices`` first), or a value worked out on the way below the public call; ""
    when the check has no words."""
    gs = decisive(f)
    if not gs or not all(g.words for g in gs) or len(gs) > 3:
        return ""
    if (clause := worked_out_clause(f)):
        return clause
    cond = " and ".join(g.words for g in gs)
    heads = list(dict.fromkeys(n.split(".", 1)[0] for g in gs for n in g.names))
    own = function_params(f)
    params = [h for h in heads if h in own and h not in ("self", "cls")]
    if params and any(assigned(f.site.snippet, h) for h in params) and f.public_path.depth == 0:
        said = " and ".join(f"`{p}`" for p in params[:3])
        return f"{cond}, on what the call makes of the {said} you pass before it checks"
    # below the public call, a check on the raising function's own parameters may be on what the user passed
    # (03ef: `click.progressbar` hands `iterable` and `length` down): only one on none of them is "worked out"
    if f.public_path.depth > 0 and own and not params and not any(h == "self" for h in heads):
        return f"{cond}, on a value {package(f)} works out on the way down from your call"
    return ""


# Prevention sentences that state what must hold before the call or where the call is made (``own_precondition``,
# the negated guard, what to give it): a guard the user can write, not a habit ("Keep a test like ...")
GUARD_OPENINGS = ("Before calling ", "Wherever your code ", "Where your code ")
# ``precondition._usage``'s opening: the command line a program builds, which is no guard around one call (a9dd)
_COMMAND_LINE = "Where your code builds the command line itself"


def with_prevention(note: str, prevention: tuple[str, ...], later_use: str = "", going: str = "") -> str:
    """The fallback note with the page's Prevention in it when that names something to do before the call.

    Rating 8 graded the Defensive section weak where it only pointed elsewhere ("What to do before calling ...
    is under Prevention"): a reader of Defensive wants the guard itself.  A Prevention sentence that states a
    precondition (``GUARD_OPENINGS``) is said here as the guard, with what to do where it fails: stop with an
    error of the user's own, before the library's call, rather than catch the library's; any other Prevention
    (a habit, a test to keep) is still only pointed to.  ``going``: the check the call then makes, as code
    (``precondition.going_ahead``; rating 13, 027b), said after the guard."""
    m = _UNSTATED.match(note)
    if not prevention or m is None:
        return note
    rest = note[m.end():]
    guard = next((p for p in prevention if p.startswith(GUARD_OPENINGS) and not p.startswith(_COMMAND_LINE)), "")
    if not guard:
        return f"What to do before calling {m.group(1)} is under Prevention; " + rest
    # what fails the check, by the name the Prevention checks (`idxs`, `sys.stderr`): the sentence the page's own
    checked = re.match(r"Before calling .+?, check (?:that )?(?:the )?`([^`]+)`", guard)
    stop = (f" Where `{checked.group(1)}` fails that check, stop with an error of your own that says what it must be, "
            "before the call." if checked else "")
    rest = rest.replace("a try / except would not help either", "a try / except is no substitute for it", 1)
    # a handed-out object's method raises on a later read or write, not at the call (``roles.handed_use``): the
    # guard goes where the code reads or writes it (rating 13, eb3a: "before the call" contradicted "not at the call")
    where = (f"Guard your {later_use}s {'from' if later_use == 'read' else 'to'} that object, not the call that "
             "returns it," if later_use else "Guard it before the call")
    code = f" {GOING_LEAD} {going}." if going else ""
    return (f"{where} rather than catching it: {guard[0].lower()}{guard[1:].rstrip('.')}."
            f"{code}{stop} {rest[:1].upper()}{rest[1:]}")


GOING_LEAD = "In code, the call passes this check when"


CHECK_LABEL = "a check to write, not code errdex ran"


def package_of(name: str) -> str:
    return name.split(".", 1)[0]


def would_raise(cache: str) -> str:
    """"the call would raise", or, when the raise sits behind a cache (``cached_by``), that only a call the
    cache has not seen can raise (rating 7, 53c4: a warm call with ``jax_no_tracing`` on does not raise)."""
    if not cache:
        return "the call would raise"
    why = cache if cache.startswith("the raise is in") else f"the raising function is cached ({cache})"
    return (f"the call would raise if the cache has not seen it ({why}: a call it has seen before is answered "
            "from the cache and does not reach the check)")


def option_check(of: OptionFacts, cache: str = "") -> str:
    """The option read in the one form the library offers for reading it (``jax.config.jax_no_execution``:
    jax's ``Config.read`` refuses options that are also context managers), as code: the test under which
    the call raises, so the program can skip it or do only what the option allows ("" when the library
    has no public reading or the guard is not a plain on/off test).  ``cache``: ``cached_by``'s words when
    the raise is behind a cache, so the branch only may raise."""
    read = of.option.read_attr
    if not read or of.safe_value not in ("True", "False"):
        return ""
    test = read if of.safe_value == "False" else f"not {read}"
    return (f", in the form {package_of(read)} allows for reading it: `if {test}: ...` is the branch where "
            f"{would_raise(cache)}, so " + ("there make only calls it has already seen, or skip the call" if cache
                                            else "skip the call there or do only what the option allows")
            + f" ({CHECK_LABEL})")


def argument_check(f: Facts, gs: list[GuardFact]) -> str:
    """The guard as code on the public call's own parameters (the raising function is the public call, so
    the names are what the user passes, unchanged on the way), with ``...`` where the call would raise; ""
    when the guard is on anything else, or the function rebinds a name it reads before the guard (the
    check would be on a value the user never passes: ``if not isinstance(x, tuple): x = (x,)``)."""
    if f.public_path.depth != 0 or not f.public_path.entries or len(gs) != 1:
        return ""
    g = gs[0]
    heads = {n.split(".", 1)[0] for n in g.names}
    cond = g.guard.normalized
    if not heads or not heads <= set(f.params) or "self" in heads or len(cond) > 90 or "\n" in cond:
        return ""
    if any(assigned(f.site.snippet, h) for h in heads):
        return ""
    return f"; in code, `if {cond}: ...` is where {would_raise(cached_by(f))} ({CHECK_LABEL})"


USAGE_NOTE = "Nothing to guard in your code"  # a usage error: the command line, not the code, is wrong


def guard_note(f: Facts, code_shown: bool = False) -> str:
    """What the user can guard on, in words.  ``code_shown``: the page shows the check as code
    (``checksample``), so the note does not repeat it inline."""
    if roles.control_flow(f):
        return f"Do not guard against it: {callee(f)} raises it on purpose; let it propagate."
    if (narrowed := narrowedtext.guard_note(f)):
        return narrowed
    if roles.module_getattr(f):
        mod = f.site.module
        return (f"What you can check before reading a name from `{mod}`: `hasattr({mod}, name)`, or read it with "
                f"`getattr({mod}, name, None)` where a missing name is expected.")
    if roles.usage_error(f) and not roles.forwarder(f) and not comment_when(f):
        return (f"{USAGE_NOTE}: {exc_name(f)} is about the command line the program was run with, and "
                f"{package(f)} reports it to the person who ran it as a usage message; catch it only where your code "
                "runs the command itself and must carry on.")
    if (held := held_with(f)):
        fac, _meth, var = held
        return (f"There is no value to test before the call: use `{var}` only inside `with {fac}(...) as {var}:`.")
    if (ran := eager_check(f)):
        return ran
    for g in f.guards:
        if g.rule == "import-failed" and "`" in g.words:
            mod = g.words.split("`")[1]
            return f"What you can check before the call: that `{mod}` is installed (`importlib.util.find_spec(\"{mod}\")`)."
    for of in f.option_facts[:1]:
        og = next((x for x in f.guards if of.option in x.options), None)
        when = f" ({og.words})" if og is not None and og.words else ""
        return (f"What decides it is the `{of.option.name}` option{when}: read it before the call rather than "
                "catching the error" + option_check(of, cached_by(f)) + (
                    "; it is a check you turned on, so satisfy it (Solutions) and keep it on" if of.diagnostic
                    else "") + ".")
    gs = [g for g in decisive(f) if user_reads(f, g) and not g.options] or (own_argument_guards(f) if f.uncalled else [])
    negs = negations(f, gs)
    made = factory_call(f)  # bce3: the public function that builds the object right is the path to guard with
    path = (f"take the supported path around it: let `{made[0]}` create the `{made[1]}` (its docstring's example: "
            f"`{made[3]}`), which builds the arguments this check compares." if made else "")
    if negs and (f.public_path.entries or f.public_function or f.uncalled):
        inline = "" if code_shown else argument_check(f, negs[1])
        return (f"What you can check before calling {callee(f)}: that {negs[0]}" + inline + "."
                + (f" Or {path}" if path else ""))
    if roles.internal_check(f, False):
        return (f"Nothing you pass decides this check ({package(f)}'s own consistency check), so there is nothing "
                "to test before the call; " + (_setting_fallback(f) or _no_try(f)))
    # Not "nothing to test": the check may well depend on what the user passes, in a way errdex cannot state.
    if path:
        return _unstated(f) + "rather than catching the error, " + path
    return _unstated(f) + _no_try(f, named=True)


def eager_check(f: Facts) -> str:
    """Rating 13 (abf6): a rule of a table of eager rules raises whenever it runs (no condition of its own), so
    what decides it is which operations the body of the eagerly run function makes (``scope.eager``): the check
    before running it eagerly is that its body makes none of them, and where it must, what the message says to
    wrap it in (the public calls that make the operations, else the operations).  "" when it is no eager rule."""
    e = scope.eager(f)
    if e is None:
        return ""
    subject, table, ops, wrap = e
    ops_said = join([f"`{o}`" for o in dict.fromkeys(ops)], "or")
    made = (f"calls none of {entry_words(f)} (each makes an operation `{table}` refuses)" if f.public_path.entries
            else f"makes no {ops_said} operation (`{table}` refuses it)")
    where = f" (not inside `{wrap}`)" if wrap else ""
    instead = (f"run the `{subject}` inside `{wrap}`, as the message says" if wrap else
               f"do not run the `{subject}` eagerly")
    return (f"What you can check before running a `{subject}` eagerly{where}: that the function it runs {made}; "
            f"where it must, {instead}.")


def prevention_from_note(note: str) -> str:
    """A page with no Prevention gets the check its guard note states, as a habit before the call
    ("Before reading a name from `click.core`, check `hasattr(click.core, name)` ..."; rating 5: 809c had
    the check under Defensive and the Prevention placeholder); "" when the note states no check."""
    m = re.match(r"What you can check before (.+?): (.+)$", note, re.DOTALL)
    if m is None:
        return ""
    return f"Before {m.group(1)}, check {m.group(2)}"
