"""Write the rated pages' current text to rating/pages-after/ID.md for an independent reader.

Usage (from the worktree, with the catalog the pages come from):
    ERRDEX_HOME=... .venv/bin/python rating/make_pages_after.py rating/ids.txt rating/pages-after

Each file is the Markdown page ``errdex export --format markdown`` writes (the same document as
``errdex show ID --json``), with the sections a page leaves empty named as such, so that the reader
can tell "said nothing" from "missing".
"""

from __future__ import annotations

import sys
from pathlib import Path

from errdex.catalog import open_catalog
from errdex.documents import error_document
from errdex.web.export_markdown import error_page

EMPTY = {
    "## Example fix": "_No example fix on this page: none has been proven yet (the slot is filled by `errdex prove`)._",
    "## Prevention": "_No prevention advice on this page: the facts errdex has support none beyond the solutions._",
    "## Related errors": "_No related errors: nothing shares this error's message, function, operation, checked "
                         "values, public call or tests._",
}
ORDER = ["## What it means", "## Source", "## Solutions", "## Example fix", "## Defensive patterns",
         "## Prevention", "## When it happens", "## Related errors", "---\n\nIndexed from"]


def with_empty_sections(page: str) -> str:
    for head, note in EMPTY.items():
        if f"\n{head}\n" in page:
            continue
        later = ORDER[ORDER.index(head) + 1:]
        at = min((page.index("\n" + h) for h in later if "\n" + h in page), default=len(page))
        page = page[:at] + f"\n{head}\n\n{note}\n" + page[at:]
    return page


def main(ids_file: str, out_dir: str) -> int:
    ids = [ln.strip() for ln in Path(ids_file).read_text().splitlines() if ln.strip()]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    catalog = open_catalog(None)
    missing = []
    for eid in ids:
        doc = error_document(catalog, eid)
        if doc is None:
            missing.append(eid)
            continue
        (out / f"{eid}.md").write_text(with_empty_sections(error_page(doc, set(ids))))
    print(f"{len(ids) - len(missing)} pages written to {out}" + (f"; missing: {missing}" if missing else ""))
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], sys.argv[2]))
