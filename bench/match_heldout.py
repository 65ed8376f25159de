"""Replay held-out corpora: top-1 / top-3 / confident-wrong per data set and input mode, with the tie rule.

Each ``DB=DATA`` pair is a catalog of one library's wheel and the events captured
from that library's own test suite (``bench/capture_events.py``); the catalog
is the library alone, so that the figures measure matching, not scope.  Three
input modes per event: the full traceback, the last line, the message.

The tie rule (``match_eval.right``): the top match is right when it is the true
site, or when it reports a tie (``tied``) whose group holds the true site and
at most ten sites.  Confident-wrong counts a confident top match that is not
right, over the events with a raise site and those without one (raised in
native code, by the interpreter, or outside the library: any confident answer
is wrong there).  An event whose traceback the library rewrote (``match_eval.rewritten``: jinja2
drops its ``@internalcode`` frames) and whose innermost frame left raises nothing has no known
raise site and is excluded, like JAX's filtered tracebacks; the count is printed per set.

An event whose message is empty (``raise NotImplementedError``, ``IndexError()``) has no
message-only input: ``str(exc)`` is ``""``, there is nothing to paste, and ``errdex explain ""``
refuses empty input (exit 2) rather than answer.  Such events are skipped in the message mode
and counted in the ``empty`` column; their last line (the class alone, ``NotImplementedError``)
and traceback are measured as any other (the class fallback answers the last line: "The message
is empty: ...", docs/matching.md).

Usage (index each wheel first with ``errdex index WHEEL --db /tmp/c_<lib>.sqlite``)::

    .venv/bin/python bench/match_heldout.py /tmp/c_click.sqlite=bench/data/click-8.5.1.jsonl \\
        /tmp/c_mm.sqlite=bench/data/marshmallow-4.4.0.jsonl ...
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from errdex.catalog import open_catalog
from errdex.match import explain_parsed, parse_safely
from errdex.match.index import index_for
from match_eval import INPUTS, load_events, right, truth


def evaluate(db: str, data: Path, misses: list[dict[str, object]] | None = None) -> dict[str, Counter[str]]:
    """Per input mode: n (site events), top1, top3, n_all (every event), cw (confident-wrong),
    empty (message-mode events skipped: the message is empty, there is no input).

    With ``misses``, every event whose top match is not right (or confident on a no-site event)
    is appended to it: data set, mode, class, type, message, true site(s) and templates, answer."""
    catalog = open_catalog(db)
    idx = index_for(catalog)
    out = {name: Counter[str]() for name in INPUTS}
    try:
        for ev in load_events([data]):
            cls, ids, templates = truth(idx, ev)
            if cls in ("filtered", "rewritten"):
                out["traceback"][cls] += 1  # the truth is unknown (``match_eval.truth``)
                continue
            for name in INPUTS:
                c = out[name]
                if name == "message" and not str(ev[name]).strip():
                    c["empty"] += 1
                    continue
                result = explain_parsed(idx, parse_safely(ev[name]), top=3)
                top = result.matches
                c["n_all"] += 1
                confident = bool(top) and top[0].confident
                if cls == "site":
                    ok = [right(m, ids) for m in top]
                    c["n"] += 1
                    c["top1"] += bool(ok and ok[0])
                    c["top3"] += any(ok)
                    c["cw"] += confident and not ok[0]
                    wrong = not ok[0] if ok else True
                else:
                    c["cw"] += confident
                    wrong = confident
                if wrong and misses is not None:
                    misses.append(_miss(data.stem, name, cls, ev, ids, templates, top))
    finally:
        catalog.close()
    return out


def _miss(label: str, mode: str, cls: str, ev: dict[str, object], ids: set[str], templates: set[str],
          top: list[object]) -> dict[str, object]:
    def brief(m: object) -> dict[str, object]:
        return {k: getattr(m, k) for k in ("id", "path", "line", "template", "score", "confident", "method",
                                           "tied_count", "exception")}
    return {"set": label, "mode": mode, "class": cls, "type": ev.get("type"), "message": str(ev.get("message"))[:400],
            "innermost": ev.get("innermost_lib"), "true_ids": sorted(ids), "true_templates": sorted(templates),
            "answer": [brief(m) for m in top[:2]]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pairs", nargs="+", help="CATALOG=EVENTS.jsonl")
    ap.add_argument("--misses", type=Path, help="write every miss as a JSON line to this file")
    args = ap.parse_args()
    misses: list[dict[str, object]] | None = [] if args.misses else None
    pooled = {name: Counter[str]() for name in INPUTS}
    notes: list[str] = []
    print(f"{'data set':<24} {'input':<10} {'site ev':>7} {'top-1':>7} {'top-3':>7} {'conf-wrong':>16} {'empty':>5}")
    for pair in args.pairs:
        db, _, data = pair.partition("=")
        if not data:
            sys.exit(f"expected CATALOG=EVENTS, got {pair!r}")
        res = evaluate(db, Path(data), misses)
        for name in INPUTS:
            c = res[name]
            pooled[name].update(c)
            _row(Path(data).stem, name, c)
        excluded = res["traceback"]["filtered"] + res["traceback"]["rewritten"]
        if excluded:
            notes.append(f"{Path(data).stem}: {excluded} events excluded, the truth unknown "
                         f"({res['traceback']['rewritten']} rewritten tracebacks, {res['traceback']['filtered']} filtered)")
    if args.misses and misses is not None:
        args.misses.write_text("".join(json.dumps(m, default=str) + "\n" for m in misses))
    if len(args.pairs) > 1:
        for name in INPUTS:
            _row("all", name, pooled[name])
    for note in notes:
        print(note)


def _row(label: str, name: str, c: Counter[str]) -> None:
    n, n_all = max(c["n"], 1), max(c["n_all"], 1)
    print(f"{label:<24} {name:<10} {c['n']:>7} {100 * c['top1'] / n:>6.1f}% {100 * c['top3'] / n:>6.1f}% "
          f"{c['cw']:>5}/{c['n_all']:<5} {100 * c['cw'] / n_all:>4.1f}% {c['empty']:>5}")


if __name__ == "__main__":
    main()
