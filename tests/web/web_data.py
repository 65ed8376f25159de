"""Analyses written straight into a catalog, for pages whose every section must be filled.

The XSS fixture needs hostile text in *every* analysis field (the analyze
stage would only copy some of it), so its analyses are made here from the
indexed sites themselves: each field quotes the site's own message,
docstring and comments, which carry the payloads.
"""

from __future__ import annotations

from errdex.catalog.sqlite import SqliteCatalog
from errdex.model import Analysis, CodeSample, ErrorSite, Evidence, RelatedError, Snapshot, Solution

PAYLOAD = "<script>window.__xss='analysis';alert('analysis')</script><img src=x onerror=\"window.__xss='a-img'\">"


def hostile_analysis(snap: Snapshot, site: ErrorSite, others: list[ErrorSite], payload: str = PAYLOAD) -> Analysis:
    """Every field filled from the site; ``payload`` appended to each (use "" for a plain analysis)."""
    message = site.template.render()
    quoted = f"{message} {site.docstring} {' '.join(site.comments)} {payload}"
    evidence = (
        Evidence(kind="docstring", text=site.docstring + payload, path=site.path, line=site.line,
                 url=snap.source_url(site.path, site.line)),
        Evidence(kind="test", text=f"with pytest.raises(ValueError):\n    render({message!r})  # {payload}",
                 path="tests/test_core.py", line=3, url="javascript:alert('evidence-url')"),
    )
    return Analysis(
        error_id=site.error_id,
        snapshot=snap.key,
        meaning=f"Raised when {quoted}",
        solutions=(Solution(text=f"Do not pass {quoted}", evidence=evidence[:1]),),
        example_fix=CodeSample(before=f"render({message!r})  # {payload}", after=f"render('b')  # {payload}"),
        strategy=f"validation {payload}",
        validate_sample=f"if tag == {message!r}:  # {payload}\n    tag = 'b'",
        try_sample=f"try:\n    render(tag)\nexcept ValueError:  # {payload}\n    pass",
        example_not_run=f"def read_line(stream):\n    return stream.readline()  # {payload}\n",
        example_not_run_why=f"the module checks `sys.platform` at import {payload}",
        prevention=(f"Avoid {quoted}",),
        trigger=f"Calling with {quoted}",
        situations=(f"Templates that contain {quoted}",),
        related=tuple(RelatedError(error_id=o.error_id, title=o.template.render() + payload, reason=payload)
                      for o in others if o.error_id != site.error_id),
        evidence=evidence,
        backend=f"static {payload}",
        rules_version="test",
        date="2026-12-02",
    )


def write_analyses(db: str, payload: str = PAYLOAD, *, only_missing: bool = False) -> int:
    """Analyses for the newest snapshot's errors (``only_missing``: those the analyze stage left out)."""
    catalog = SqliteCatalog(db)
    try:
        snap = catalog.snapshots()[0]
        sites = list(catalog.sites(snapshot_key=snap.key))
        todo = [s for s in sites if not (only_missing and catalog.get_analysis(s.error_id, snap.key))]
        catalog.put_analyses([hostile_analysis(snap, s, sites, payload) for s in todo])
        return len(todo)
    finally:
        catalog.close()
