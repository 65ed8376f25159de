"""Which "set-up mistake" notes a re-analysis keeps.  ``prove/stored.with_change`` turns the Defensive note
of an error whose proven after changed the call's set-up into "This is a mistake to fix in the code, not an
error to handle ...: the proven fix changes how the code sets the call up ..., not data that varies from run
to run".  Two cases make that wrong (rating 9: 916, click's ``NoSuchOption``):

- the error is a usage error (the static note says it is about the command line the program was run with):
  its input is the command line, data that varies from run to run, so "fix the code, catch nothing" contradicts
  the page's own Solutions and Prevention;
- the proven after is a labelled non-fix (it only takes the trigger away: "the example only shows where the
  error comes from"): it proves nothing about how the call should be set up, so quoting it as "the proven
  fix" misleads.

The first keeps the static analysis' own note; the second keeps the set-up-mistake note without the quote.

And the other way (rating 9: 0480): a proven try / except that logs and returns a fallback around a call of a
private function (``_tiled_wgmma_layout(shape=())``) hides a set-up mistake, against the same rule: code that
calls a private function with arguments it refuses is wrong whatever data it runs on.  The page shows no such
try; its note says why and names the public replacement a solution gives ("use the public `WGMMA_LAYOUT`
instead"), which the proven example's line points to as well."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from errdex.analyze.static.guardnote import USAGE_NOTE
from errdex.model import Analysis
from errdex.pagenotes import KEPT_PUBLIC, PRIVATE_SHOWN, SETUP_MISTAKE

NON_FIX = "(the example only shows where the error comes from)"
PROVEN_FIX = "the proven fix changes how the code sets the call up"
_TRIED = re.compile(r"^\s+try:\n\s+return ([\w.]+)\(", re.MULTILINE)
_PUBLIC = re.compile(r"use the public `([\w.]+)` instead")
_PROVEN_LINE = "The proven example below"
_CALLED = re.compile(r"\b([A-Za-z_][\w.]*)\(")
_QUOTED = re.compile(re.escape(PROVEN_FIX) + r"(?: \(.*?\))?, not data that varies from run to run")


def misread(fresh: Analysis, kept: Analysis) -> bool:
    """Whether ``kept``'s set-up-mistake note should give way to ``fresh``'s static note: a usage error."""
    note = kept.guard_note
    if not note.startswith(SETUP_MISTAKE) or not fresh.guard_note or fresh.guard_note.startswith(SETUP_MISTAKE):
        return False
    return fresh.guard_note.startswith(USAGE_NOTE)


def unquoted(note: str) -> str:
    """The set-up-mistake note without "the proven fix changes ... (`a` becomes `b` ...)" where the example is a
    labelled non-fix: the set-up still decides it, but the non-fix is not quoted as its fix."""
    if NON_FIX not in note or PROVEN_FIX not in note:
        return note
    return _QUOTED.sub("how the code sets the call up decides it, not data that varies from run to run (the proven "
                       "example only takes the trigger away and is no fix)", note, count=1)


def keep_static_notes(fresh: Sequence[Analysis], kept: Sequence[Analysis]) -> list[Analysis]:
    """``kept`` (``keep_proofs`` of ``fresh``), with the static note back where the set-up-mistake note misreads
    the error (``misread``), a labelled non-fix not quoted as the fix (``unquoted``), no fallback try around a
    private call (``without_private_fallback``) and no truth test of a rebuilt value (``without_raw_truth_check``)."""
    by_id = {a.error_id: a for a in fresh}
    out: list[Analysis] = []
    for k in kept:
        f = by_id.get(k.error_id)
        k = dataclasses.replace(k, guard_note=f.guard_note if f is not None and misread(f, k) else unquoted(k.guard_note))
        out.append(without_raw_truth_check(without_private_fallback(k)))
    return out


def private_call(try_sample: str) -> str:
    """The private function a try sample wraps (a dotted part starts with ``_``), or ""."""
    m = _TRIED.search(try_sample)
    if m is None or not any(p.startswith("_") and not p.startswith("__") for p in m.group(1).split(".")):
        return ""
    return m.group(1)


def raised_privately(before: str) -> str:
    """The private function the proven failing call calls (its last line that calls one), or "": a page whose
    example calls a private function is about code that calls it (the same rule holds on a re-analysis, after the
    try sample is gone)."""
    for line in reversed(before.splitlines()):
        for m in _CALLED.finditer(line):
            if any(p.startswith("_") and not p.startswith("__") for p in m.group(1).split(".")[1:]):
                return m.group(1)
    return ""


def without_private_fallback(a: Analysis) -> Analysis:
    """``a`` without a try / except that returns a fallback around a private function's call (a set-up
    mistake), its note saying why and pointing to the public replacement a solution names."""
    call = private_call(a.try_sample) or (raised_privately(a.example_fix.before) if a.example_fix.proof else "")
    public = next((m.group(1) for s in a.solutions if (m := _PUBLIC.search(s.text)) is not None), "")
    a = private_labelled(a, public)
    if not call or a.guard_note.startswith(SETUP_MISTAKE):
        return a
    fix = (f"take the public `{public}` instead, as the solutions say" if public else
           "call a public API, or pass the private function what it checks, as the solutions say")
    short = call.rsplit(".", 1)[-1]
    note = (f"{SETUP_MISTAKE}: calling the private `{short}` with arguments it refuses is a mistake in the "
            f"code, whatever data it runs on. Fix it: {fix}; a try / except around `{call}` that returns a "
            "fallback would hide the mistake and let the program go on with a wrong setup, so none is offered.")
    if a.guard_note.startswith("What you can check") and a.validate_proof is None:  # the check still helps
        note += " " + a.guard_note
    sols = a.solutions
    if public:
        tail = (" The example calls the private function only to show where the error comes from: the fix to "
                f"copy is the public `{public}`.")
        sols = tuple(dataclasses.replace(s, text=s.text.rstrip() + tail)
                     if s.text.startswith(_PROVEN_LINE) and f"`{public}`" not in s.text else s for s in sols)
    return dataclasses.replace(a, try_sample="", try_proof=None, guard_note=note, solutions=sols)


def private_labelled(a: Analysis, public: str) -> Analysis:
    """``a`` with its proof's arguments mark (``Proof.arguments``, the line under the example) saying that the
    example calls a private function only to show where the error comes from and which public name to take
    instead (rating 10, 0480: the label was in Solutions only, the Example section read as a fix to copy)."""
    proof = a.example_fix.proof
    call = raised_privately(a.example_fix.before) if proof is not None else ""
    if proof is None or not call or not public or PRIVATE_SHOWN in proof.arguments \
            or proof.arguments.startswith(KEPT_PUBLIC):  # the example already takes the public name (``prove/direct.py``)
        return a
    mark = f"{proof.arguments}{PRIVATE_SHOWN}{call.rsplit('.', 1)[-1]} -> {public}"
    return dataclasses.replace(a, example_fix=dataclasses.replace(
        a.example_fix, proof=dataclasses.replace(proof, arguments=mark)))


_REBUILT = re.compile(r"`(\w+)` is passed, even as `([^`]+)`")


def without_raw_truth_check(a: Analysis) -> Analysis:
    """``a`` without a validate sample that tests the truth of an argument the page says the call rebuilds
    before its check ("`collective_axes` is passed, even as `None` (the call turns the value into a true one
    ...)", from a proof): ``if collective_axes:`` on the value as passed lets ``0`` / ``None`` through, and the
    call raises for both (rating 9: 4423's proven validate sample, re-run by the reader).  The note, which says
    the check on the rebuilt value, stands in its place."""
    if not a.validate_sample:
        return a
    text = " ".join([a.meaning, a.trigger, *a.prevention, a.guard_note, *(s.text for s in a.solutions)])
    for name, value in dict.fromkeys(_REBUILT.findall(text)):
        if re.search(rf"^\s*(?:el)?if\s+(?:not\s+)?{re.escape(name)}\s*:", a.validate_sample, re.MULTILINE):
            said = (f" The check is on `{name}` as the call rebuilds it, not as passed: `{value}` is false, but the "
                    "call turns it into a true value before the check, so testing the argument itself is no guard; "
                    "Prevention says what to pass.")
            note = a.guard_note.replace(" and check it with the validate sample", "")
            return dataclasses.replace(a, validate_sample="", validate_proof=None,
                                       guard_note=note + (said if said.strip() not in note else ""))
    return a
