"""How many pages of a catalog show a proven real fix: the before raises the page's error, the after runs clean and
gives the call what it needs (or satisfies a check, a warm-up), rather than only taking the trigger away (``mistake.only_drops``: ``nargs=2``
dropped, ``['--my-help']`` -> ``[]``, another attribute read) or turning a diagnostic option off.

    python bench/real_fixes.py CATALOG [--repo R] [--ids docs/rating/ids.txt] [--json]

Prints the proven pairs, the real fixes among them, the non-fixes, and per listed id (``--ids``) what its page
shows (real / non-fix / none), with the after's candidate label.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from errdex.catalog import open_catalog
from errdex.model import ErrorSite
from errdex.prove.mistake import diagnostic_turned_off, only_drops
from errdex.prove.noop import no_op_before
from errdex.prove.stored import chosen_by_call
from errdex.prove.warmup import warms_up


def kind(before: str, after: str, guard_note: str, snapshot: str = "", site: ErrorSite | None = None) -> str:
    """"real", "non-fix" (only takes the trigger away), "off" (only turns a diagnostic option off) or "no-op" (the
    before asks the call to do nothing: not shown, ``prove/noop.py``); a warm-up (the same calls made once before the
    option is turned on, ``prove/warmup.py``) keeps the check on: real, and so does ``None`` for a value the raising
    function works out itself (``stored.chosen_by_call``, 027b)."""
    if snapshot and no_op_before(before, snapshot):
        return "no-op"
    if warms_up(before, after) or chosen_by_call(before, after, site):
        return "real"
    if diagnostic_turned_off(guard_note, before, after):
        return "off"
    return "non-fix" if only_drops(before, after) else "real"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("--repo")
    ap.add_argument("--ids")
    ap.add_argument("--json", action="store_true")
    ns = ap.parse_args()
    cat = open_catalog(ns.db)
    snap = cat.snapshots(ns.repo)[-1]
    rows: dict[str, tuple[str, str]] = {}
    sites = list(cat.sites(snap.key))
    for site in sites:
        a = cat.get_analysis(site.error_id, snap.key)
        if a is None or a.example_fix.proof is None:
            continue
        rows[site.error_id] = (kind(a.example_fix.before, a.example_fix.after, a.guard_note, snap.key, site),
                               a.example_fix.proof.candidate)
    cat.close()
    counts = {k: sum(1 for v in rows.values() if v[0] == k) for k in ("real", "non-fix", "off", "no-op")}
    doc: dict[str, object] = {"snapshot": snap.key, "proven_pairs": len(rows), **counts}
    if ns.ids:
        ids = [x.strip() for x in Path(ns.ids).read_text().split() if x.strip()]
        here = {s.error_id for s in sites}
        doc["ids"] = {i: (rows[i][0] + ": " + rows[i][1]) if i in rows else "none" for i in ids if i in here}
    if ns.json:
        print(json.dumps(doc, indent=1))
        return
    print(f"{snap.key}: {len(rows)} proven pairs, {counts['real']} real fixes, {counts['non-fix']} non-fixes, "
          f"{counts['off']} option turned off, {counts['no-op']} not shown (the before does nothing)")
    for i, v in (doc.get("ids") or {}).items():  # type: ignore[attr-defined]
        print(f"  {i}: {v}")


if __name__ == "__main__":
    main()
