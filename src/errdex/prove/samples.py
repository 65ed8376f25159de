"""The defensive samples of a proven pair, built and run with the offending input (before's) and the good
one (after's): the try sample that recovers with the after's value (``defend.recover_script``), the try
sample that returns the caller's fallback (``checks.try_script``), the validate sample from the site's
guards (``checks.validate_script``) and the one from the static check sample (``defend.checked_script``).
The first of each kind whose two runs show what it claims is kept."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Protocol

from errdex.model import ErrorSite, Proof, ProofAfter, ProofBefore
from errdex.prove.checks import (
    NOT_CALLING,
    _condition,
    distinct_regex,
    template_regex,
    try_clean,
    try_handled,
    try_script,
    type_probe,
    typed_fallback,
    validate_clean,
    validate_script,
    validate_stopped,
)
from errdex.prove.defend import checked_script, recover_script
from errdex.prove.keep import dropped, spellings
from errdex.prove.mistake import input_driven
from errdex.prove.rebuilt import Rebuilt, function_key, rebuilt
from errdex.prove.runs import Runs
from errdex.prove.streams import binary_stream, stream_checked


class Prover(Protocol):
    """What the samples need of ``engine.Prover``: its runs and its proof records (a protocol, so that
    the engine imports this module and not the other way round)."""

    def runs(self, codes: Sequence[str], scratch: Path, name: str) -> Runs: ...

    def _proof(self, before: ProofBefore, after: ProofAfter, candidate: str) -> Proof: ...

MAX_VALIDATE = 4
MAX_SEEN = 6  # other values the proof ran, each validate sample is run on too
OUTPUT_LINES = 6


def _module(src: str) -> ast.Module | None:
    try:
        return ast.parse(src)
    except SyntaxError:
        return None


def _tail(text: str) -> str:
    lines = [ln for ln in text.rstrip().splitlines() if ln.strip()]
    return "\n".join(lines[-OUTPUT_LINES:])


def _seen_scripts(seen: Mapping[str, bool], build: Callable[[str], str]) -> list[tuple[str, bool]]:
    """(validate script, must stop) for the other scripts the proof ran (``seen``: source -> it raised this
    error), those that raised first; a script the sample cannot be built for is left out."""
    out: list[tuple[str, bool]] = []
    for src, raised in sorted(seen.items(), key=lambda x: not x[1]):
        if len(out) < MAX_SEEN and (script := build(src)):
            out.append((script, raised))
    return out


def _rebuild(prover: Prover, site: ErrorSite) -> Rebuilt | None:
    """What the raising function makes of the arguments its check reads before the check (``rebuilt.py``;
    rating 12, bce3: ``Mesh`` turns a list ``devices`` into an array), from the prover's resolved calls."""
    found = _condition_names(site)
    resolved: Mapping[str, tuple[tuple[str, int], ...]] = getattr(prover, "resolved", {})  # ``engine.Prover``'s
    calls = resolved.get(function_key(site), ())
    return rebuilt(site, found, calls) if found else None


def _condition_names(site: ErrorSite) -> list[str]:
    found = _condition([g.normalized for g in site.guards if g.kind not in ("except", "match")],
                       constructor=site.qualname.endswith(".__init__"))
    return found[1] if found else []


def _raising_calls(m: ast.Module) -> list[tuple[int, str, int]]:
    """(walk index, called expression, its occurrence among the calls of the same expression) of each call of
    the module's last statement, the raising one."""
    inside = {id(n) for n in ast.walk(m.body[-1])} if m.body else set()
    out: list[tuple[int, str, int]] = []
    count: dict[str, int] = {}
    for i, n in enumerate(ast.walk(m)):
        if isinstance(n, ast.Call) and id(n) in inside:
            func = ast.unparse(n.func)
            out.append((i, func, count.get(func, 0)))
            count[func] = count.get(func, 0) + 1
    return out


def _twin(m: ast.Module, func: str, nth: int) -> int:
    """The walk index of the ``nth`` call of ``func`` in the raising statement of ``m``, or -1: the same call in
    another script of the proof, whatever it adds above it (rating 12, bce3: the after's ``import numpy`` shifted
    every node, and no twin was found by position, so no validate sample was built)."""
    return next((i for i, f, k in _raising_calls(m) if f == func and k == nth), -1)


def _validate_twin(src: str, func: str, nth: int, site: ErrorSite, rebuild: Rebuilt | None = None) -> str:
    """The validate sample on another script of the proof, checking its ``nth`` call of ``func`` in the raising
    statement (the same call's), or ""."""
    m = _module(src)
    if m is None or not m.body or (idx := _twin(m, func, nth)) < 0:
        return ""
    return validate_script(m, len(m.body) - 1, idx, site, rebuild)


def _spelt(prover: Prover, site: ErrorSite, before: str, after: str, pb: ProofBefore, scratch: Path) -> dict[str, bool]:
    """The after with its new values spelt the other ways users write them (``keep.spellings``), run as they
    are: source -> it raised this error (its exception line, with the site's message when it has one); those
    that raised something else are left out."""
    spelt = spellings(before, after)[:MAX_SEEN]
    if not spelt or not pb.exception:
        return {}
    res = prover.runs(spelt, scratch, "spellings")
    short = pb.exception.rsplit(".", 1)[-1]
    rx = template_regex(site)
    out: dict[str, bool] = {}
    for k, src in enumerate(spelt):
        rc, _, err = res[k]
        if rc == 0 and "Traceback" not in err:
            out[src] = False
            continue
        last = next((ln for ln in reversed(err.strip().splitlines()) if ln.startswith(short + ":")), "")
        if last and (not rx or re.search(rx, last.removeprefix(short + ":").strip())):
            out[src] = True
    return out


def samples(prover: Prover, site: ErrorSite, others: Sequence[ErrorSite], before: str, kind: str, after: str,
            pb: ProofBefore, scratch: Path, check: str = "",
            seen: Mapping[str, bool] | None = None,
            raised: list[str] | None = None,
            clean: list[str] | None = None) -> tuple[tuple[str, Proof | None, str, Proof | None], int]:
    """(try sample, its proof, validate sample, its proof), and the runs it took.  ``seen``: the other
    scripts the proof ran (source -> whether it raised this error): a validate sample is proven only when it
    also stops each that raised and calls through each that ran clean (rating 9, 4423: "go ahead" for
    ``collective_axes=0``, which the library wraps into ``(0,)`` and rejects); ``raised`` collects the after's
    other spellings that raised this error, ``clean`` those that ran clean."""
    bad_m, good_m = _module(before), _module(after)
    if bad_m is None or good_m is None:
        return ("", None, "", None), 0
    spelt = _spelt(prover, site, before, after, pb, scratch)
    if raised is not None:  # kept on the proof: a stated check these satisfy is wrong (``contradict.py``)
        raised += [src for src, r in spelt.items() if r]
    if clean is not None:  # kept on the proof: a stated check is said so that these pass it (``contradict.py``)
        clean += [src for src, r in spelt.items() if not r]
    seen = {**spelt, **{s: r for s, r in (seen or {}).items() if s not in (before, after)}}
    pairs: list[tuple[str, str, str]] = []  # (kind, bad, good)
    extra: dict[int, list[tuple[str, bool]]] = {}  # pair index -> (script on another value, must stop)
    pattern = distinct_regex(site, others)
    probed = 0
    # a try sample only for an error a program meets with its input: a set-up mistake is fixed, not
    # handled (``mistake.py``); first the one that recovers with the after's value (every argument kept),
    # then the one that returns a fallback typed like what the call returns on the good input
    if pattern and pb.exception and input_driven(before, after, pb.exception):
        if not dropped(before, after):
            rb, rg = recover_script(before, after, pb.exception, pattern), recover_script(after, after, pb.exception,
                                                                                           pattern)
            if rb and rg:
                pairs.append(("try", rb, rg))
        text = site.template.render()
        fb = "None"
        if (probe := type_probe(try_script(good_m, len(good_m.body) - 1, pb.exception, pattern, text, "None"))):
            got = prover.runs([probe], scratch, "probe")
            probed = got.count
            fb = typed_fallback(got[0][1]) if got[0][0] == 0 else "None"
        pairs.append(("try", try_script(bad_m, len(bad_m.body) - 1, pb.exception, pattern, text, fb),
                      try_script(good_m, len(good_m.body) - 1, pb.exception, pattern, text, fb)))
    if check and (cb := checked_script(before, check)) and (cg := checked_script(after, check)):
        pairs.append(("validate", cb, cg))  # the page's own check, run: it must stop the bad input only
        extra[len(pairs) - 1] = _seen_scripts(seen, lambda src: checked_script(src, check))
    # a raise on a standard stream's binary layer: the stream checked before the call (``streams.py``; rating 12, ad70)
    lib = site.module.split(".", 1)[0]
    if (stream := binary_stream(site)) and (sb := stream_checked(before, stream, NOT_CALLING, lib)) \
            and (sg := stream_checked(after, stream, NOT_CALLING, lib)):
        pairs.append(("validate", sb, sg))
        extra[len(pairs) - 1] = _seen_scripts(seen, lambda src: stream_checked(src, stream, NOT_CALLING, lib))
    rebuild = _rebuild(prover, site)
    for idx, func, nth in _raising_calls(bad_m):
        if (twin := _twin(good_m, func, nth)) < 0:
            continue
        bad_v = validate_script(bad_m, len(bad_m.body) - 1, idx, site, rebuild)
        good_v = validate_script(good_m, len(good_m.body) - 1, twin, site, rebuild)
        if bad_v and good_v and sum(k == "validate" for k, _, _ in pairs) < MAX_VALIDATE:
            pairs.append(("validate", bad_v, good_v))
            extra[len(pairs) - 1] = _seen_scripts(seen, partial(_validate_twin, func=func, nth=nth, site=site,
                                                                   rebuild=rebuild))
    more = [(k, script, stop) for k in sorted(extra) for script, stop in extra[k]]
    res = prover.runs([*(x for _, b, g in pairs for x in (b, g)), *(script for _, script, _ in more)], scratch,
                      "samples")

    def holds(k: int) -> bool:  # the pair's sample said the right thing on every other value the proof ran
        for j, (at, _, stop) in enumerate(more):
            if at == k:
                rc3, out3, err3 = res[2 * len(pairs) + j]
                if not (validate_stopped(rc3, out3, err3) if stop else
                        validate_clean(rc3, out3) and "Traceback" not in err3):
                    return False
        return True

    trys, tproof, val, vproof = "", None, "", None
    for k, (what, bad, _) in enumerate(pairs):
        if (what == "try" and trys) or (what == "validate" and val):
            continue
        rc, out, err = res[2 * k]
        rc2, out2, err2 = res[2 * k + 1]
        if what == "try":
            if try_handled(rc, out, err) and try_clean(rc2, out2, err2):
                trys = bad
                tproof = prover._proof(replace(pb, output=_tail(err + "\n" + out)),
                                       ProofAfter(exit=0, output=_tail(out2)), kind)
        elif validate_stopped(rc, out, err) and validate_clean(rc2, out2) and holds(k):
            val = bad
            vproof = prover._proof(ProofBefore(exception="", error_id=site.error_id, output=_tail(out)),
                                   ProofAfter(exit=0, output=_tail(out2 or err2)), kind)
    return (trys, tproof, val, vproof), res.count + probed
