"""What the Example fix and Defensive patterns sections say when no sample has been proven.

Only code that ran (``errdex prove``) is shown as an example.  Without a proof, the Example fix names the
library's own test that raised the error (``errdex observe``), when there is one, and the Defensive
patterns section says once that nothing was proven and what the user can guard on (``Analysis.guard_note``,
from the guard, in public terms).  One wording for every renderer: web page, terminal, Markdown, review.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

NO_DEFENSIVE = "No validate or try / except sample has been proven for this error, so none is shown."
SETUP_MISTAKE = "This is a mistake to fix in the code, not an error to handle"
# ``Proof.arguments`` of a kept after that changes no value (written by ``prove/keep.arguments_mark``)
KEPT_CAUGHT = "kept, caught"  # the documented signal caught around the same call (``prove/fixes.caught``)
KEPT_WITH = "kept, with block"  # the object the call is made on used inside its ``with`` block
TURNS_OFF = "turns off: "  # the after only turns a diagnostic option off (``prove/stored.py``)
KEPT_RESHAPED = "kept, reshaped: "  # every argument kept, and more than values changed: what, in words
WARMS_UP = "warms up: "  # the after makes the calls once before the option-setting statement that follows (``prove/warmup.py``)
KEPT_RESPELT = "kept, respelt: "  # the after reads the name a misspelt one stands for: "old -> new"
KEPT_STREAM = "kept, own stream: "  # the after runs the call with the process's own standard stream (``sys.stderr``)
KEPT_SETTING = "kept, setting: "  # the after gives the call the setting that lets the refused input through
KEPT_PUBLIC = "kept, public: "  # the public name a private call returns used in its place: "short -> public"
KEPT_MATCHED = "kept, matched: "  # an array argument reshaped to the length the other side of a failed equality asks: "arg -> reshape"
KEPT_AXIS = "kept, along the accepted axis: "  # "selector | wanted | accepted | how | afters not run" (``prove/axis_slices.py``)
KEPT_GIVEN = "kept, given: "  # the after gives a parameter the raise's guard asks unset: "name | guard | function" (``keep.given_mark``)
PRIVATE_SHOWN = " | private: "  # appended: the example calls a private function; "short -> public replacement"


def _test_name(node: str) -> str:
    name = node.split("::", 1)[-1].replace("::", ".")
    return re.sub(r"\[.{24,}\]$", "[...]", name)


def _call(entry: str, args: Sequence[Mapping[str, Any]]) -> str:
    shown = ", ".join(f"{a['name']}={a['repr']}" for a in args[:3] if a.get("repr") and a.get("name") != "self")
    if len(shown) > 100 or shown.count("'") % 2 or shown.count('"') % 2:
        shown = "..."
    return f"`{entry}({shown})`"


def _caught_inside(o: Mapping[str, Any]) -> bool:
    """As ``analyze.static.observed.caught_inside``, on an observation's JSON: not escaped, and the test's own
    function not below the outermost frame (a library test helper wrapping the test)."""
    chain = [str(c) for c in (o.get("chain") or [])][1:]
    func = re.sub(r"\[.*\]$", "", str(o.get("test") or "").rsplit("::", 1)[-1])
    return not o.get("escaped") and not (func and any(c.split(" (", 1)[0].endswith("." + func) for c in chain))


def example_note(observed: Sequence[Mapping[str, Any]], raised_instead: Sequence[Mapping[str, Any]] = ()) -> str:
    """The Example fix's text when no example is proven: the error users see instead when the library always
    catches this one (``raised_instead``), the observed test that raises the error, or that no example could
    be proven."""
    if raised_instead:
        shown = "; ".join(f"`{str(r['exception']).rsplit('.', 1)[-1]}` (id {r['error_id']}), raised by "
                          f"`{r['raised_in']}`" for r in raised_instead[:3])
        return ("No example could be proven: users never see this error. When it happens, the library catches it "
                f"and raises another one instead, which is what a program stops with: {shown}.")
    # A test the error reached (escaped) shows it best; one where the library caught it itself may reach the
    # raise only on the way to something else, so it is named only when no test saw the error arrive.
    for o in sorted(observed, key=_caught_inside):
        entry = str(o.get("entry") or "")
        test = str(o.get("test") or "")
        if "::" not in test or test.startswith("<") or entry.endswith("<module>"):  # a test, not collection or import
            continue
        line = f":{o['test_line']}" if o.get("test_line") else ""
        where = f" (`{o['test_path']}{line}`)" if o.get("test_path") else ""
        public = entry and not any(p.startswith("_") for p in entry.split("."))
        through = f" through {_call(entry, o.get('entry_args') or [])}" if public else ""
        name = _test_name(str(o["test"]))
        if _caught_inside(o):  # the raise ran, but the library caught it: the test never saw this error
            # what was observed, not a claim that no user meets it: another call may reach the raise with no
            # handler on the way (rating 6: click's ``--nope`` gets NoSuchOption from ``cli.main``)
            return (f"No example could be proven. The library's own test `{name}`{where} reaches this raise"
                    f"{through}, but in that run the library caught the error itself and went on, so the test "
                    "never saw it; that is what the tests observed, not proof that no call of yours meets it: "
                    "where nothing on the way handles it, it reaches your code.")
        return (f"No example could be proven. The library's own test `{name}`{where} raises "
                f"this error{through}: it is a real call that reaches it.")
    return "No example could be proven for this error."


def defensive_note(analysis: Mapping[str, Any]) -> str:
    """The Defensive patterns section's text when neither sample is proven (else ""); for a set-up
    mistake (``prove/mistake.py``), why no try / except sample is offered, whatever is proven."""
    note = str(analysis.get("guard_note") or "")
    if analysis.get("try_proof"):
        return ""
    if analysis.get("validate_proof"):  # a set-up mistake says why no try / except is offered
        return note if note.startswith(SETUP_MISTAKE) else ""
    if note.startswith(SETUP_MISTAKE):
        return note
    return f"{NO_DEFENSIVE} {note}".strip()


def environment_note(env: Sequence[str] | None) -> str:
    """The environment a proof ran with beyond the library's own (``prove --env``), said on its "Proven on" line:
    an example proven with ``XLA_FLAGS=--xla_force_host_platform_device_count=8`` may need those 8 devices (rating
    12: bce3's ``reshape(jax.devices(), (2, -1))`` fails on one device), so the page names it ("" without any)."""
    if not env:
        return ""
    return ", with " + ", ".join(f"`{e}`" for e in env) + " set"


def passes_note(proof: Mapping[str, Any] | None) -> str:
    """For an after that passes the check and stops on what the proof machine lacks (``Proof.passes``,
    ``prove/passes.py``): what it passed, where it stopped and what it needs ("" for an after that ran clean)."""
    parts = str((proof or {}).get("passes") or "").split(" | ", 2)
    if len(parts) != 3:
        return ""
    needs, where, line = parts
    return (f"The after passes this check but does not run to the end here: its run gets past the check and stops "
            f"later, at `{where}` (`{line}`), on what the proof machine lacks: it needs {needs}. So it is proven to "
            "pass this check, not to run; its output is shown below.")


def arguments_note(proof: Mapping[str, Any] | None) -> str:
    """What the proven after did to the before's arguments (``Proof.arguments``, ``prove/keep.py``), one line
    under the Example fix ("" for a proof stored before the mark).  Rating 8: an after that only drops the
    trigger (``nargs=2`` gone) was graded weak; the page says which kind it shows.  An after that passes the
    check and stops on what the machine lacks says so first (``passes_note``)."""
    passes = passes_note(proof)
    said = _arguments_note(proof)
    return f"{passes} {said}".strip() if passes else said


def _arguments_note(proof: Mapping[str, Any] | None) -> str:
    mark = str((proof or {}).get("arguments") or "")
    if PRIVATE_SHOWN in mark:  # rating 10, 0480: the label in the Example section itself, not only in Solutions
        mark, _, private = mark.partition(PRIVATE_SHOWN)
        short, _, public = private.partition(" -> ")
        said = _arguments_note({"arguments": mark}).rstrip(".")
        label = (f"the example calls the private `{short}` only to show where the error comes from: the fix to copy "
                 f"is the public `{public}`, as the solutions say.")
        return f"{said}; but {label}" if said else label[:1].upper() + label[1:]
    if mark.startswith(KEPT_PUBLIC):  # rating 11, 0480: the public replacement in place of the private call
        short, _, public = mark.removeprefix(KEPT_PUBLIC).partition(" -> ")
        return (f"The after uses the public `{public}` instead of the private call `{short}(...)`: the private "
                "function returns that constant whenever its checks pass, so taking it directly leaves no argument to "
                "get wrong; the rest of the script is the same.")
    if mark.startswith(KEPT_MATCHED):  # rating 11, bce3: both sides of the failed equality kept, one made to match
        arg, _, shaped = mark.removeprefix(KEPT_MATCHED).partition(" -> ")
        return (f"The after keeps every argument and reshapes `{arg}` to match: `{shaped}` has as many dimensions as "
                "the other argument the check compares it with has elements, so the check holds and nothing the call "
                "was asked to do is taken away.")
    if mark == "kept":
        return "The after keeps every argument of the call and changes values only."
    if mark == KEPT_CAUGHT:
        return "The after makes the same call with the same arguments and catches the signal it raises."
    if mark.startswith(TURNS_OFF):  # rating 9, 53c4: a check the user turned on, turned off by the after
        return (f"The after only turns the `{mark.removeprefix(TURNS_OFF)}` option off: it shows the error is this "
                "option's check, not how to satisfy it; to keep the check on, do what the solutions say.")
    if mark.startswith(WARMS_UP):  # rating 10, 53c4: the check kept on and satisfied
        return (f"The after warms the cache: it binds the call's functions and values to names, makes the call once "
                f"before `{mark.removeprefix(WARMS_UP)}`, then makes the same call after it; the second call, with "
                "the same function objects and shapes, is served from the cache, so the check stays on and passes.")
    if mark.startswith(KEPT_GIVEN):  # rating 14, 707f: the call's other form, not the trigger taken away
        name, _, rest = mark.removeprefix(KEPT_GIVEN).partition(" | ")
        guard, _, fn = rest.partition(" | ")
        form = (", the form in which the call is used as a decorator and given the function afterwards; the after "
                "passes the function in the call instead") if fn else ""
        return (f"The after keeps every argument of the call, the one that raised included, and passes `{name}` in "
                f"it: the check that raised applies only while `{name}` is left at its default (`{guard}`){form}.")
    if mark.startswith(KEPT_RESHAPED):  # rating 9: not "changes values only" over a ``with`` block removed
        return f"The after keeps every argument of the call but does more than change values: {mark.removeprefix(KEPT_RESHAPED)}."
    if mark.startswith(KEPT_RESPELT):  # rating 10, 809c: the made-up name replaced by an unrelated one read as no fix
        old, _, new = mark.removeprefix(KEPT_RESPELT).partition(" -> ")
        return (f"The after reads `{new}`, the name the module defines that is nearest to the misspelt `{old}` "
                "(as `difflib.get_close_matches` finds it): a misspelt, renamed or removed name is what this error "
                "means, and reading the name the module does define is the fix.")
    if mark.startswith(KEPT_STREAM):  # rating 10, ad70: a raise that depends on a replaced standard stream
        stream = mark.removeprefix(KEPT_STREAM)
        return (f"The after makes the same call with the process's own `{stream}`: the before runs it while "
                f"`{stream}` is a text-only `io.StringIO()` (as a capture or a wrapper leaves it), and the call reads "
                f"`{stream}` itself, so restore it (`{stream} = {stream.replace('sys.', 'sys.__')}__`) or make the "
                "call outside the capture.")
    if mark.startswith(KEPT_SETTING):  # rating 10, 916: a setting that decides the raise, not the input dropped
        first, *more = mark.removeprefix(KEPT_SETTING).split("; ")
        then = f"; and `{more[0]}`, which the next check asks for once the input is let through" if more else ""
        # rating 12, 916: not "skips this raise": on the long-option path click raises it and catches it itself
        return (f"The after keeps the input and passes `{first}`, a setting the library's own code tests on its way "
                "to this error: with it, the library lets the input it refused through (it does not raise there, or "
                f"it raises and catches the error itself and goes on){then}. "
                "Use it where your program must accept such input; otherwise fix the input, as the solutions say.")
    if mark.startswith(KEPT_AXIS):  # rating 15, 5931: a check that accepts one axis only, the result kept
        return axis_note(mark)
    if mark == KEPT_WITH:
        return "The after makes the same calls with the same arguments, the object used inside its `with` block."
    if mark.startswith("drops "):
        what = ", ".join(f"`{x.strip()}`" for x in mark.removeprefix("drops ").split(", ") if x.strip())
        return (f"The after drops {what}: it shows where the error comes from; no variant that keeps every "
                "argument ran clean, so to keep them, do what the solutions say.")
    if mark.startswith("takes away: "):  # prove/stored.py: every change only takes the trigger away
        return (f"The after only avoids what raised ({mark.removeprefix('takes away: ')}): it shows where the "
                "error comes from, not a fix to copy; errdex has proven no after that keeps what the call was "
                "asked to do, so do what the solutions say.")
    return ""


def axis_note(mark: str) -> str:
    """The note of an after that asks for the before's result along the one axis the check accepts
    (``prove/axis_slices.py``): what it does, that it returned the same values, and the afters that did not run."""
    sel, wanted, accepted, how, skipped, distinct = [*mark.removeprefix(KEPT_AXIS).split(" | ", 5), *[""] * 6][:6]
    way = (f"moves that axis to where `{sel}={accepted}` works, makes the call there, and moves the axis back"
           if how == "moved" else
           f"makes the call on each slice of the array taken along its other axis, whose only axis is the one the "
           f"before wants, with `{sel}={accepted}` (the one value the check accepts), and stacks the results")
    on = f" (`{distinct}`)" if distinct else ""
    said = (f"The before asks for `{sel}={wanted}` on an array of two dimensions, which this check refuses; the after "
            f"{way}. Run as plain calls on this machine, not in the kernel, on an array of distinct values of the same "
            f"shape{on}, the after returned the same values as the before's call: it keeps what the call was asked "
            "to do.")
    notes = [f"the after that {'moves the axis' if h.strip() == 'moved' else 'works per slice'} did not run here "
             f"(`{w.strip()}`)" for h, _, w in (p.partition(": ") for p in skipped.split("; ") if p.strip())]
    return f"{said} Tried first and not used: {'; '.join(notes)}." if notes else said


CHECK_NOT_RUN = "Check before calling (not run: the library's own check written as code; errdex has not proven it):"
TRY_NOT_RUN = "Try / except (not run: errdex has not proven it):"


def defensive_sample(analysis: Mapping[str, Any]) -> tuple[str, str]:
    """(label, code) of the sample the Defensive patterns section shows when none is proven, or ("", "").

    Rating 7: the check stated in prose only ("that `dimensions` equals `(0,)`") was graded weak on 12 of 15
    jax pages; a reader can paste code.  The page's check as code (``check_sample``) comes first; else, when
    the note tells the user to catch the error and it is no set-up mistake, the try / except sample that
    tells this error from others of its class by its message.  Both are labelled as not run."""
    if analysis.get("try_proof") or analysis.get("validate_proof"):
        return "", ""
    if analysis.get("check_sample"):
        return CHECK_NOT_RUN, str(analysis["check_sample"])
    note = str(analysis.get("guard_note") or "")
    if analysis.get("try_sample") and "catch `" in note and not note.startswith(SETUP_MISTAKE):
        return TRY_NOT_RUN, str(analysis["try_sample"])
    return "", ""
