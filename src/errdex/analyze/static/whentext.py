"""When it happens: the trigger (one sentence, in the user's call's terms) and the situations (the library's
tests that raised it, the call chain, the earlier checks with the same message, the comments at the raise)."""

from __future__ import annotations

from errdex.analyze.facts import Facts
from errdex.analyze.static import narrowedtext, roles, scope
from errdex.analyze.static.factory import factory_situation
from errdex.analyze.static.handedread import handed_when
from errdex.analyze.static.observed import (
    caught_inside,
    clean,
    distinct_cases,
    entry_call,
    observations,
    test_name,
)
from errdex.analyze.static.optiontext import cached_by
from errdex.analyze.static.sectionbase import internal
from errdex.analyze.static.words import (
    callee,
    conditions,
    entry_words,
    fixed_words,
    join,
    package,
    place,
    who,
    worked_out_clause,
)


def trigger(f: Facts) -> str:
    said = _trigger(f)
    handed = handed_when(f)  # the guards of the factory that hands the object out (rating 15, eb3a)
    if f.site.requires and said.endswith("."):  # the module checks the platform at import (rating 13, eb3a)
        said = said[:-1] + f", and only on a platform where `{f.site.requires}` holds" + (
            f" and {handed.removeprefix('only ')}." if handed else ".")
    elif handed and said.endswith("."):
        said = said[:-1] + f", and {handed}."
    return said


def _trigger(f: Facts) -> str:
    if (narrowed := narrowedtext.trigger(f)):
        return narrowed
    if roles.forwarder(f) and roles.usage_error(f):
        return ("Running a command with a value for an option or argument that its type rejects (the type calls "
                f"`{f.site.qualname}` with its message).")
    if roles.module_getattr(f):
        return f"Reading a name from `{f.site.module}` (`{f.site.module}.<name>` or `from {f.site.module} import " \
               "<name>`) that the module does not define."
    conds = [] if internal(f) else conditions(f)
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
    if internal(f) and f.enum_settings:  # the setting is the condition the user controls (rating 8: 8ee0's When)
        return f"{head}" + (f" ({stage.removeprefix('while ')})" if stage else "") + _under_setting(f) + "."
    if not internal(f) and (worked := worked_out_clause(f)):
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
