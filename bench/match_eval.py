"""Accuracy of ``explain`` on real error events captured from a library's own test suite.

Ground truth comes from the exception object, not from the text: an event
whose innermost frame is inside the package at a line that a catalog site's
``line..end_line`` covers has that site as its answer ("site" class); every
other event is "no raise site" (raised in native code or by the interpreter
at a library line that is no raise statement, or outside the library
altogether) and is counted separately.

Three inputs per event: the full traceback as Python printed it, the last
line only (``traceback.format_exception_only``: the ``Type: message`` line(s)
and notes) and the message only (``str(exc)``).  ``--rule ties`` (the default):
in every mode the top match is right when it is the true site, or when it
reports a tie (``tied``) whose group holds the true site and at most ten
sites; ``--rule template`` (the rule before ties were reported): with the
traceback the exact site must be first, from the last line or the message any
site with the same template is correct.  "Confident but wrong": a top match
marked ``confident`` that is not correct, or any confident match for a
no-raise-site event.

Usage::

    .venv/bin/python bench/match_eval.py --db /tmp/jax.sqlite bench/data/jax-0.10.2.jsonl

(index the wheel first: ``errdex index jax-0.10.2-py3-none-any.whl --db /tmp/jax.sqlite``).
Add ``--show-failures N`` to print the first N misses of each input.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from errdex.catalog import open_catalog
from errdex.match import explain_parsed, parse_safely
from errdex.match.frames import library_path
from errdex.match.index import S_ID, T_RENDER, MatchIndex, index_for
from errdex.match.model import Match
from errdex.match.rank import pinned_sites
from errdex.match.verify import normalize

INPUTS = ("traceback", "last_line", "message")


@dataclass
class Tally:
    n: int = 0
    top1: int = 0
    top3: int = 0
    confident_wrong: int = 0
    confident: int = 0
    misses: list[str] = field(default_factory=list)


_FILTER_NOTE = "For simplicity, JAX has removed its internal frames"
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def shape(rendered: str) -> str:
    """A rendered template with each placeholder as ``{}``: what makes two templates "the same"."""
    return normalize(_PLACEHOLDER.sub("{}", rendered)).strip()


def load_events(paths: list[Path]) -> Iterator[dict[str, Any]]:
    seen: set[tuple[str, str, str]] = set()
    for path in paths:
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                ev = json.loads(line)
                key = (ev["type"], ev["message"], json.dumps(ev.get("innermost_lib")))
                if key in seen:  # the same event from two test files
                    continue
                seen.add(key)
                yield ev


def truth(idx: MatchIndex, ev: dict[str, Any]) -> tuple[str, set[str], set[str]]:
    """(class, correct site ids, correct templates) of one event."""
    lib = ev.get("innermost_lib")
    inner = ev.get("innermost")
    filtered_text = _FILTER_NOTE in ev["traceback"] or "UnfilteredStackTrace" in ev["traceback"]
    if filtered_text and not ev.get("filtered"):
        return "filtered", set(), set()  # JAX removed the frames that say where it was raised
    if not lib and inner and (own := wheel_file(idx, str(inner[0]))) is not None:
        lib = inner = [own, inner[1], inner[2]]
    if not lib or lib != inner:
        return ("rewritten" if rewritten(idx, ev["traceback"]) else "outside"), set(), set()
    sites = pinned_sites(idx, lib[0], int(lib[1]))
    if not sites:
        return ("rewritten" if rewritten(idx, ev["traceback"]) else "no-site"), set(), set()
    ids = {str(idx.sites[s][S_ID]) for s in sites}
    templates = {shape(str(idx.templates[t][T_RENDER])) for s in sites for t in idx.site_templates[s]}
    return "site", ids, templates


def wheel_file(idx: MatchIndex, path: str) -> str | None:
    """The catalog path of an installed file that the capture did not count as the library's, when the
    catalog (the whole wheel) holds it: ``CAPTURE_PACKAGE`` names one package or module, and a wheel may
    ship more (jsonpatch's ``jsonpatch_cli.py`` beside ``jsonpatch.py``).  An error raised there was
    raised at a site of the catalog, not outside it.  Bundled test folders stay test code, as the
    capture has them (``/tests/``, ``/testing/``)."""
    norm = path.replace("\\", "/")
    _, sep, rel = norm.partition("/site-packages/")
    if not sep or any(part in "/" + rel for part in ("/tests/", "/testing/")):
        return None
    return rel if rel in idx.locations else None


_RAISE_CALL = re.compile(r"raise\s+(?:[\w.]+\.)?(\w+)\(")


def rewritten(idx: MatchIndex, traceback: str) -> bool:
    """Whether the library replaced the traceback it re-raised, so that its innermost frames are not
    where the exception was raised: a library frame at ``raise f(...)`` (``f`` no class) whose next frame
    is neither ``f`` (an error raised while ``f`` ran) nor the same function (a caught exception re-raised,
    ``raise cast(E, e)``, whose traceback went through this frame's ``try``).  jinja2's
    ``raise rewrite_traceback_stack(source=source)`` drops its ``@internalcode`` frames, among them
    ``Undefined._fail_with_undefined_error``, which raised ``'missing' is undefined``: the last frame
    left is a caller's ``return getattr(obj, attribute)``, which raises nothing.  When the innermost
    frame left is a ``raise`` or ``assert`` statement, it raised the exception: the truth stands."""
    frames = parse_safely(traceback).frames
    if frames and frames[-1].code.strip().startswith(("raise", "assert")):
        return False  # the innermost frame left raised it: that much of the traceback is true
    for a, b in pairwise(frames):
        m = _RAISE_CALL.match(a.code.strip())
        if m and not m.group(1)[:1].isupper() and b.function not in (m.group(1), a.function) and (
                library_path(idx, a.path) is not None):
            return True
    return False


MAX_GROUP = 10  # a tied group larger than this is no answer


def right(m: Match, ids: set[str]) -> bool:
    """The tie rule: a match is right when it is the true site, or when it reports a tie whose
    group (itself and its ``tied`` sites) holds the true site and at most ``MAX_GROUP`` sites."""
    if not m.tied_count:
        return m.id in ids
    group = {m.id} | {t.id for t in m.tied}
    return m.tied_count + 1 <= MAX_GROUP and bool(group & ids)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--show-failures", type=int, default=0)
    ap.add_argument("--rule", choices=("ties", "template"), default="ties",
                    help="ties (default): the top match is right when it is the true site or reports a tied "
                         "group of at most 10 sites holding it; template (the rule before ties were reported): "
                         "from the last line or the message, any site with the true site's template is right")
    ap.add_argument("data", nargs="+", type=Path)
    args = ap.parse_args()
    catalog = open_catalog(args.db)
    idx = index_for(catalog)
    events = list(load_events(args.data))
    classes: Counter[str] = Counter()
    tallies = {name: Tally() for name in INPUTS}
    nosite = {name: Tally() for name in INPUTS}
    origins: Counter[str] = Counter()
    no_site_reported = 0
    literal_hits: Counter[str] = Counter()
    literal_n = 0
    empty = 0
    t0 = time.perf_counter()
    for ev in events:
        cls, ids, templates = truth(idx, ev)
        classes[cls] += 1
        has_literal = cls == "site" and any(x.replace("{}", "").strip() for x in templates)
        literal_n += has_literal
        for name in INPUTS:
            text = ev[name]
            if name == "message" and not text.strip():
                empty += 1  # no input: the exception has no message (``bench/match_heldout.py``)
                continue
            result = explain_parsed(idx, parse_safely(text), top=3)
            top = result.matches
            confident = bool(top) and top[0].confident
            if cls == "site":
                t = tallies[name]
                t.n += 1
                if args.rule == "ties":
                    ok = [right(m, ids) for m in top]
                elif name == "traceback":
                    ok = [m.id in ids for m in top]
                else:
                    ok = [m.id in ids or shape(m.template) in templates for m in top]
                t.top1 += bool(ok[:1] and ok[0])
                if has_literal:
                    literal_hits[name] += bool(ok[:1] and ok[0])
                t.top3 += any(ok[:3])
                t.confident += confident
                if confident and not ok[0]:
                    t.confident_wrong += 1
                if not (ok[:1] and ok[0]) and len(t.misses) < args.show_failures:
                    got = f"{top[0].path}:{top[0].line} {top[0].score:.2f} {top[0].template[:80]!r}" if top else "-"
                    want = sorted(templates)[0][:80] if templates else "?"
                    t.misses.append(f"{ev['innermost_lib']} want {want!r}\n      got {got}\n      msg {ev['message'][:120]!r}")
            elif cls not in ("filtered", "rewritten"):
                t = nosite[name]
                t.n += 1
                t.confident += confident
                if confident:
                    t.confident_wrong += 1
                    if len(t.misses) < args.show_failures:
                        t.misses.append(f"{cls} {ev['innermost']} -> {top[0].path}:{top[0].line} "
                                        f"{top[0].score:.2f} {ev['message'][:100]!r}")
                if name == "traceback" and result.no_site is not None:
                    no_site_reported += 1
                    origins[result.no_site.origin] += 1
    elapsed = time.perf_counter() - t0
    files = ", ".join(str(p) for p in args.data)
    print(f"events: {len(events)} from {files} (catalog: {idx.size} templates, {len(idx.sites)} sites)")
    print(f"  with a raise site in the catalog: {classes['site']}; no raise site: "
          f"{classes['no-site']} at a library line that is no raise statement, "
          f"{classes['outside']} raised outside the library; "
          f"{classes['filtered']} excluded (JAX filtered the frames, so the truth is unknown), "
          f"{classes['rewritten']} excluded (the library rewrote the traceback and its innermost frame raises nothing)")
    print(f"  message mode: {empty} events with an empty message skipped (there is nothing to paste)")
    print(f"{'input':<10} {'n':>5} {'top-1':>8} {'top-3':>8} {'confident':>10} {'conf-wrong':>11}")
    for name in INPUTS:
        t = tallies[name]
        n = max(t.n, 1)
        print(f"{name:<10} {t.n:>5} {100 * t.top1 / n:>7.1f}% {100 * t.top3 / n:>7.1f}% "
              f"{100 * t.confident / n:>9.1f}% {100 * t.confident_wrong / n:>10.1f}%")
    print("no-raise-site events (a confident match is wrong):")
    for name in INPUTS:
        t = nosite[name]
        print(f"{name:<10} {t.n:>5} confident-but-wrong {100 * t.confident_wrong / max(t.n, 1):.1f}%")
    for name in INPUTS:
        t, u = tallies[name], nosite[name]
        print(f"{name:<10} confident-but-wrong over both classes: {t.confident_wrong + u.confident_wrong}/"
              f"{t.n + u.n} = {100 * (t.confident_wrong + u.confident_wrong) / max(t.n + u.n, 1):.2f}%")
    lit = {name: (literal_hits[name], literal_n) for name in INPUTS}
    for name in ("last_line", "message"):
        hits, n = lit[name]
        print(f"{name:<10} top-1 on the {n} site events whose template has literal text: {100 * hits / max(n, 1):.1f}%"
              f" ({tallies[name].n - n} have none: the message is built in a variable the extractor did not resolve)")
    all_n = sum(tallies[n].n + nosite[n].n for n in INPUTS)
    all_cw = sum(tallies[n].confident_wrong + nosite[n].confident_wrong for n in INPUTS)
    print(f"confident-but-wrong over all events and inputs: {all_cw}/{all_n} = {100 * all_cw / max(all_n, 1):.2f}%")
    ns = nosite["traceback"].n
    print(f"traceback input, no-raise-site events reported as such: {no_site_reported}/{ns}; origins {dict(origins)}")
    print(f"time: {elapsed:.2f}s for {3 * len(events)} lookups")
    for name in INPUTS:
        for miss in tallies[name].misses + nosite[name].misses:
            print(f"[{name}] {miss}", file=sys.stderr)
    catalog.close()



if __name__ == "__main__":
    main()
