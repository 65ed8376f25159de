"""Proofs survive a re-analysis: ``errdex analyze`` writes a fresh static analysis, which would drop the
examples ``errdex prove`` ran.  A proven example is better evidence than any generated one, so it is
carried over (light: model only, no sandbox)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from errdex.analyze.earlyexit import filled_when_none
from errdex.analyze.static.optiontext import WARM_LEAD
from errdex.catalog.base import Catalog
from errdex.model import Analysis, ErrorSite, Solution
from errdex.pagenotes import KEPT_GIVEN, KEPT_RESHAPED, KEPT_STREAM, TURNS_OFF, WARMS_UP
from errdex.prove.bodycase import lowering_check, proven_case, scoped_solution
from errdex.prove.contradict import shared_contradictions, with_clean_spellings, without_contradicted
from errdex.prove.keep import KEPT, reshaped
from errdex.prove.mistake import (
    change_sentence,
    changes,
    diagnostic_turned_off,
    only_drops,
    raising_call,
    setup_note,
    taken_away,
)
from errdex.prove.noop import no_op_before
from errdex.prove.settingform import setting_solution
from errdex.prove.warmup import warms_up


def keep_proofs(catalog: Catalog, analyses: Sequence[Analysis]) -> list[Analysis]:
    out: list[Analysis] = []
    sites: dict[str, dict[str, ErrorSite]] = {}  # by snapshot, read once: the raising function's own lines
    for a in analyses:
        old = catalog.get_analysis(a.error_id, a.snapshot)
        if old is not None and old.example_fix.proof is not None:
            a = dataclasses.replace(a, example_fix=old.example_fix)
        if old is not None and old.try_proof is not None:
            a = dataclasses.replace(a, try_sample=old.try_sample, try_proof=old.try_proof)
        if old is not None and old.validate_proof is not None:
            a = dataclasses.replace(a, validate_sample=old.validate_sample, validate_proof=old.validate_proof)
        site = None
        if a.example_fix.proof is not None and a.example_fix.before:
            if a.snapshot not in sites:
                sites[a.snapshot] = {x.error_id: x for x in catalog.sites(a.snapshot)}
            site = sites[a.snapshot].get(a.error_id)
        out.append(with_change(a, site))
    shared = shared_contradictions(out)  # a related error's proof shows the public call normalises the name
    return [without_contradicted(a, shared[a.error_id]) if a.error_id in shared else a for a in out]


def chosen_by_call(before: str, after: str, site: ErrorSite | None) -> str:
    """The parameter (``vec_size``) a proven after sets to ``None`` or leaves out, its one change, when the raising
    function fills that parameter in itself when it is ``None``, above the raise (``earlyexit.filled_when_none``):
    the call then chooses a value that passes its check (027b: jax works out a `vec_size` dividing the output),
    which is the fix, not the trigger taken away; "" otherwise."""
    cs = changes(before, after) if site is not None else []
    if site is None or len(cs) != 1:
        return ""
    m = re.fullmatch(r"(\w+)=.+", cs[0].old)
    if m is None or cs[0].new not in ("", f"{m.group(1)}=None"):
        return ""
    return m.group(1) if filled_when_none(site, m.group(1), site.line) else ""


def with_change(a: Analysis, site: ErrorSite | None = None) -> Analysis:
    """A proven example explained: what its after changed, as the last solution (after the analysis' own:
    the smallest change that ran clean is evidence, not always the fix a user wants, e.g. ``mesh=None`` or an
    axis dropped, so it never leads, as rating 6 found); and, for a set-up
    mistake (``mistake.py``), why no try / except is offered (``guard_note``) and no try sample kept."""
    fix = a.example_fix
    if fix.proof is None or not fix.before or not fix.after:
        return a
    a = without_contradicted(a)  # a stated check the proven failing call satisfies is wrong (rating 6: 91c3)
    a = with_clean_spellings(a)  # and one said so that a spelling that ran clean passes it (rating 10: 5931)
    if no_op_before(fix.before, a.snapshot):
        # a before that asks the call to do nothing is no example (``noop.py``; rating 12, 5931: ``dimensions=[]``): the
        # page does not show it (``documents.shown_example``) nor speak of it; what its runs showed still words the check
        return a
    said = change_sentence(fix.before, fix.after)
    if said and fix.proof.needs:  # each change needed (``needed.py``; rating 9, b806: float32 -> float16 unsaid)
        said += f" Each is needed: {fix.proof.needs}."
    if said and fix.proof.arguments.startswith(KEPT_GIVEN):  # rating 14, 707f: the call's other form (``keep.given_mark``)
        name, _, rest = fix.proof.arguments.removeprefix(KEPT_GIVEN).partition(" | ")
        how = " the function passed in the call instead of using the call as a decorator" if rest.endswith(" | function") else ""
        said += f" That is the call's other form,{how}: every argument that raised is kept, and `{name}` is given."
    warm = warms_up(fix.before, fix.after)
    off = "" if warm else diagnostic_turned_off(a.guard_note, fix.before, fix.after)
    if warm:  # the check kept on and satisfied (rating 10, 53c4): said as what it does, not as a diff
        said = warm_sentence(warm)
        a = _marked_warm(a, warm)
    own = [s for s in a.solutions if not s.text.startswith("The proven example")]
    chosen = "" if warm or off else chosen_by_call(fix.before, fix.after, site)
    if said and chosen:  # ``vec_size=None``: the call works the value out itself (a fix, nothing taken away)
        said += (f" With `{chosen}=None` the call works out a `{chosen}` itself before this check, one that passes "
                 "it: that is the fix, unless you need a particular value.")
    dropped = bool(said) and not off and not warm and not chosen and bool(own) and only_drops(fix.before, fix.after)
    if said and off:
        said += (f" That only turns the `{off}` option off: it shows the error is this option's, and drops the "
                 "check you turned on; to keep the check, satisfy it as the solutions above say.")
    elif dropped:  # the after takes the trigger away: where the error comes from, not the fix to copy
        said = (said.replace("The proven example below changes", "The proven example below only shows where the "
                             "error comes from; it changes", 1)
                + f" That takes away what {raising_call(fix.before) or 'the call'} was asked to do rather than giving it "
                "what it needs, so it is "
                "no fix to copy: do what the solutions above say.")
    if chosen and fix.proof.arguments.startswith(TAKES_AWAY):  # marked so by an earlier analysis: kept, a fix
        a = dataclasses.replace(a, example_fix=dataclasses.replace(fix, proof=dataclasses.replace(fix.proof, arguments=KEPT)))
    a = _marked_reshaped(a if chosen else _marked_taken_away(a, off))
    if said and not any(s.text == said for s in a.solutions):
        at = next((i + 1 for i, s in enumerate(a.solutions) if warm and s.text.startswith(WARM_LEAD)), len(a.solutions))
        a = dataclasses.replace(a, solutions=(*a.solutions[:at], Solution(text=said), *a.solutions[at:]))
    if (declared := setting_solution(a)) and not any(s.text == declared for s in a.solutions):
        a = dataclasses.replace(a, solutions=(*a.solutions, Solution(text=declared)))  # rating 12, 916
    # where the fix is: the example, unless it only turned the check off or took the trigger away
    where = (f"as the example shows (a warm-up: the same calls made once before `{warm}`, so the check stays on)"
             if warm else
             f"as the solutions say (the example only turns `{off}` off, to show it is the cause)" if off else
             "as the solutions say (the example only shows where the error comes from)" if dropped else
             "as the example shows")
    # a raise that depends on the process's standard stream (``streams.py``: the after runs with the process's own)
    # is no set-up mistake: what the stream is depends on how the program is started (pythonw's ``None``, a
    # notebook's or a capture's text-only stream), so the page keeps its check on the stream (rating 11, ad70)
    environment = fix.proof.arguments.startswith(KEPT_STREAM)
    note = "" if environment else setup_note(fix.before, fix.after, fix.proof.before.exception,
                                             a.validate_proof is not None, where)
    if note:  # what the user can check before the call still helps when no validate sample is proven
        # a check to make before the call, not the advice to catch it (which the note has just declined)
        check = a.guard_note.startswith(("What you can check", "What decides it")) and "catch `" not in a.guard_note
        keep = f" {a.guard_note}" if check else f" {guard}" if (guard := guard_said(a.guard_note)) else ""
        keep = keep if a.validate_proof is None else ""
        # a program that ends by lowering for another platform on a CPU: that lowering is a check a test can make
        lowered = lowering_check(fix.before, fix.proof.library) if a.validate_proof is None else ""
        keep += f" {lowered}" if lowered and lowered not in keep else ""
        a = dataclasses.replace(a, guard_note=note + keep, try_sample="", try_proof=None)
    # a value the program's own function makes (``bodycase.py``; rating 13, a28d): one proven case, not the kind
    sols = tuple(dataclasses.replace(s, text=scoped_solution(s.text, fix.before, fix.after)) for s in a.solutions)
    case = "" if a.prevention else proven_case(fix.before, fix.after)
    if sols != a.solutions or case:
        a = dataclasses.replace(a, solutions=sols, prevention=(case,) if case else a.prevention)
    return a


_GUARD_LEAD = "Guard it before the call rather than catching it: "
_NO_SUBSTITUTE = " A try / except is no substitute for it"


def guard_said(note: str) -> str:
    """The guard a static note states before the call (``guardnote.with_prevention``: "Guard it before the call
    rather than catching it: before calling ..., pass `vec_size=None` ... In code, the call passes this check when ..."),
    without its word on try / except, which the set-up-mistake note says itself; "" for any other note.  Rating 13
    (027b): the set-up-mistake note replaced it whole, and Defensive was left with prose only."""
    if not note.startswith(_GUARD_LEAD) or _NO_SUBSTITUTE not in note:
        return ""
    # "rather than catching it" goes: the set-up-mistake note before it has just said why nothing is caught
    return "Guard it before the call: " + note[len(_GUARD_LEAD):note.index(_NO_SUBSTITUTE)]


TAKES_AWAY = "takes away: "


def warm_sentence(setting: str) -> str:
    """The solution a proven warm-up gives (``warmup.warms_up``; ``setting``: the statement that turns the
    option on)."""
    return (f"The proven example below keeps the check on and satisfies it: it binds the call's functions and "
            f"values to names, makes the call once before `{setting}`, then makes the same call after it, which runs "
            "clean: the second call, with the same function objects and shapes, is served from the cache. Do the "
            "same with every call the checked code makes.")


def _marked_warm(a: Analysis, setting: str) -> Analysis:
    """The proof marked as a warm-up (``pagenotes.WARMS_UP``), whatever it was marked when proven."""
    proof = a.example_fix.proof
    if proof is None or proof.arguments == WARMS_UP + setting:
        return a
    proof = dataclasses.replace(proof, arguments=WARMS_UP + setting)
    return dataclasses.replace(a, example_fix=dataclasses.replace(a.example_fix, proof=proof))


def _marked_reshaped(a: Analysis) -> Analysis:
    """A proof marked "kept" (stored before ``keep.values_only``) whose after does more than change values
    (a ``with`` block removed, arguments added) marked with what it does (rating 9: fef1, 669a said
    "changes values only")."""
    proof = a.example_fix.proof
    if proof is None or not (proof.arguments == KEPT or proof.arguments.startswith(KEPT_RESHAPED)):
        return a
    more = reshaped(a.example_fix.before, a.example_fix.after)  # said afresh: the rule may have changed
    mark = KEPT_RESHAPED + more if more else KEPT
    if mark == proof.arguments:
        return a
    proof = dataclasses.replace(proof, arguments=mark)
    return dataclasses.replace(a, example_fix=dataclasses.replace(a.example_fix, proof=proof))


def _marked_taken_away(a: Analysis, off: str) -> Analysis:
    """The proof's arguments mark (``Proof.arguments``, shown under the example by ``pagenotes.arguments_note``)
    for an after that keeps every argument but only takes the trigger away (``['--my-help']`` -> ``[]``,
    ``mesh=[]`` -> ``mesh=None``, another attribute read): "kept" read as a fix that keeps the call's intent
    (rating 8: 809c, 916, 5b54 said "keeps every argument" over an example the solutions called no fix)."""
    proof = a.example_fix.proof
    if proof is None or (proof.arguments not in ("", KEPT) and not proof.arguments.startswith("drops ")
                         and not (off and proof.arguments.startswith(KEPT_RESHAPED))):
        return a
    # a diagnostic option turned off: the example is labelled so, whatever it kept (rating 9: 53c4), also when proven
    # afresh with the ``with`` block dropped marked "kept, reshaped" (pages26: re-proving fef1 lost its label)
    if off:
        proof = dataclasses.replace(proof, arguments=TURNS_OFF + off)
        return dataclasses.replace(a, example_fix=dataclasses.replace(a.example_fix, proof=proof))
    if proof.arguments.startswith("drops "):
        return a
    what = taken_away(a.example_fix.before, a.example_fix.after)
    if not what:
        return a
    proof = dataclasses.replace(proof, arguments=TAKES_AWAY + what)
    return dataclasses.replace(a, example_fix=dataclasses.replace(a.example_fix, proof=proof))
