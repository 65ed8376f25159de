"""Which "set-up mistake" notes a re-analysis keeps.  ``prove/stored.with_change`` turns the Defensive note
of an error whose proven after changed the call's set-up into "This is a mistake to fix in the code, not an
error to handle ...: the proven fix changes how the code sets the call up ..., not data that varies from run
to run".  Two cases make that wrong (rating 9: 916, click's ``NoSuchOption``):

- the error is a usage error (the static note says it is about the command line the program was run with):
  its input is the command line, data that varies from run to run, so "fix the code, catch nothing" contradicts
  the page's own Solutions and Prevention;
- the proven after is a labelled non-fix (it only takes the trigger away: "the example only shows where the
  error comes from"): it proves nothing about how the call should be set up, so quoting it as "the proven
  fix" is not evidence of a set-up mistake (unless the class itself means a programming error, which the
  note then says instead).

In both the static analysis' own note is kept."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from errdex.analyze.static.guardnote import USAGE_NOTE
from errdex.model import Analysis
from errdex.pagenotes import SETUP_MISTAKE

NON_FIX = "(the example only shows where the error comes from)"
PROVEN_FIX = "the proven fix changes how the code sets the call up"


def misread(fresh: Analysis, kept: Analysis) -> bool:
    """Whether ``kept``'s set-up-mistake note should give way to ``fresh``'s static note."""
    note = kept.guard_note
    if not note.startswith(SETUP_MISTAKE) or not fresh.guard_note or fresh.guard_note.startswith(SETUP_MISTAKE):
        return False
    if fresh.guard_note.startswith(USAGE_NOTE):
        return True
    return NON_FIX in note and PROVEN_FIX in note


def keep_static_notes(fresh: Sequence[Analysis], kept: Sequence[Analysis]) -> list[Analysis]:
    """``kept`` (``keep_proofs`` of ``fresh``), with the static note back where the set-up-mistake note misreads
    the error (``misread``)."""
    by_id = {a.error_id: a for a in fresh}
    out: list[Analysis] = []
    for k in kept:
        f = by_id.get(k.error_id)
        out.append(dataclasses.replace(k, guard_note=f.guard_note) if f is not None and misread(f, k) else k)
    return out
