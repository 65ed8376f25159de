"""Write the rated pages' current text to docs/rating/pages-after/ID.md for an independent reader.

How to run (from the worktree, with the catalog the pages come from: ``errdex index pypi:jax==0.10.2;
errdex index pypi:click==8.5.1; errdex observe pypi:click==8.5.1; errdex analyze``):
    ERRDEX_HOME=... .venv/bin/python bench/pages_after.py docs/rating/ids.txt docs/rating/pages-after

Several catalogs (``--db A --db B``, SQLite paths or URLs): each id's page comes from the first catalog that
holds it, so jax pages can come from a catalog where ``errdex prove`` ran on jax and click pages from another:
    .venv/bin/python bench/pages_after.py docs/rating/ids.txt docs/rating/pages-after --db jax.sqlite --db click.sqlite
Without ``--db`` the default catalog (``ERRDEX_DB``, else the data directory) is used.

Each file holds every section of the page as ``errdex show ID --json`` gives it, in the seed pages'
order, as plain Markdown for reading (not escaped: this is a review artifact, not the published
export), with a section the page leaves empty named as such so that "said nothing" is not
mistaken for "missing".
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from errdex.catalog import open_catalog
from errdex.documents import error_document
from errdex.pagenotes import arguments_note, environment_note


def _fence(code: str, lang: str = "python") -> str:
    return f"```{lang}\n{code.rstrip()}\n```\n"


def page(doc: Any) -> str:
    a = doc["analysis"] or {}
    site = doc["site"]
    out = [f"# {doc['exception']}: {doc['title']}\n", f"{doc['repo']} · {doc['kind']} · {doc['exception_qualified']}"
           f" · id {doc['id']}\n", "## Error message\n", *(_fence(t, "text") for t in doc["templates"])]
    out += ["## What it means\n", (a.get("meaning") or "_(none)_") + "\n"]
    out += ["## Source\n", f"Thrown at `{doc['path']}:{doc['line']}` in `{doc['qualname']}` ({doc['source_url']})\n"]
    if site.get("snippet"):
        out.append(_fence(site["snippet"]))
    out.append("## Solutions\n")
    out += [f"{i}. {s['text']}" for i, s in enumerate(a.get("solutions") or [], 1)] or ["_(none)_"]
    out.append("\n## Example fix\n")
    fix = a.get("example_fix") or {}
    pf = fix.get("proof")
    if pf and (fix.get("before") or fix.get("after")):
        out += [f"Proven on {pf['library']} {pf['version']}, Python {pf['python']}" + (f", {pf['lowered']}" if pf.get('lowered') else "") + environment_note(pf.get('env')) + f" ({pf['date'][:10]}).\n",
                *([arguments_note(pf) + "\n"] if arguments_note(pf) else []),
                "Before:\n", _fence(fix.get("before") or "")]
        if (pf.get("before") or {}).get("output"):
            out += ["Output:\n", _fence(pf["before"]["output"], "text")]
        out += ["After:\n", _fence(fix.get("after") or "")]
        if pf.get("passes") and (pf.get("after") or {}).get("output"):  # passes the check, stops on what the machine lacks
            out += ["After's output (where it stopped):\n", _fence(pf["after"]["output"], "text")]
    else:
        out.append(doc.get("example_note") or "No example could be proven for this error.")
        out.append("")
        if a.get("example_not_run"):
            out += [f"Not run ({a.get('example_not_run_why') or 'errdex has not run it'}):\n",
                    _fence(a["example_not_run"])]
    out += ["## Defensive patterns\n", f"Strategy: {a.get('strategy') or ''}\n"]
    if a.get("validate_sample") and a.get("validate_proof"):
        out += ["Validate before calling (proven):\n", _fence(a["validate_sample"])]
    if a.get("try_sample") and a.get("try_proof"):
        out += ["Try / except (proven):\n", _fence(a["try_sample"])]
    if doc.get("defensive_note"):
        out += [doc["defensive_note"], ""]
    if doc.get("defensive_sample"):
        out += [doc["defensive_sample_label"] + "\n", _fence(doc["defensive_sample"])]
    out.append("## Prevention\n")
    out += [f"- {p}" for p in a.get("prevention") or []] or [
        "_No prevention advice on this page: the facts errdex has support none beyond the solutions._"]
    out += ["\n## When it happens\n", f"Trigger: {a.get('trigger') or '_(none)_'}\n"]
    if a.get("situations"):
        out += ["Common situations:\n", *(f"- {s}" for s in a["situations"]), ""]
    out.append("## Related errors\n")
    out += [f"- {r['title']} (/errors/{r['error_id']}) — {r.get('reason', '')}" for r in a.get("related") or []] or [
        a.get("related_note") or "_No related errors: nothing shares this error's message, function, operation, checked values, public "
        "call or tests._"]
    out.append(f"\n---\n{a.get('backend', '')} analysis ({a.get('rules_version', '')}) of {doc['analysis_snapshot']}"
               f" ({a.get('date', '')}). Data as JSON: /api/errors/{doc['id']}\n")
    return "\n".join(out)


def main(ids_file: str, out_dir: str, dbs: list[str] | None = None) -> int:
    ids = [ln.strip() for ln in Path(ids_file).read_text().splitlines() if ln.strip()]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    catalogs = [open_catalog(db) for db in dbs] if dbs else [open_catalog(None)]
    missing = []
    from_db: dict[int, int] = {}
    try:
        for eid in ids:
            for k, catalog in enumerate(catalogs):
                doc = error_document(catalog, eid)
                if doc is not None:
                    (out / f"{eid}.md").write_text(page(doc))
                    from_db[k] = from_db.get(k, 0) + 1
                    break
            else:
                missing.append(eid)
    finally:
        for c in catalogs:
            c.close()
    where = "; ".join(f"{n} from {dbs[k] if dbs else 'the default catalog'}" for k, n in sorted(from_db.items()))
    print(f"{len(ids) - len(missing)} pages written to {out} ({where})" + (f"; missing: {missing}" if missing else ""))
    return 1 if missing else 0


def _args(argv: list[str]) -> tuple[list[str], list[str]]:
    """(positional arguments, the ``--db`` values in order)."""
    pos: list[str] = []
    dbs: list[str] = []
    it = iter(argv)
    for a in it:
        if a == "--db":
            dbs.append(next(it, ""))
        elif a.startswith("--db="):
            dbs.append(a.split("=", 1)[1])
        else:
            pos.append(a)
    if len(pos) != 2 or any(not d for d in dbs):
        raise SystemExit("usage: pages_after.py IDS_FILE OUT_DIR [--db CATALOG]...")
    return pos, dbs


if __name__ == "__main__":
    _pos, _dbs = _args(sys.argv[1:])
    raise SystemExit(main(_pos[0], _pos[1], _dbs or None))
