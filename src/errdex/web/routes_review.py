"""The review pages: the diff of a repo's errors between two snapshots, and its JSON twin.

``/{owner}/{name}/diff/{old}..{new}`` renders the same ``review.diff.Diff``
that ``/api/diff/{owner}/{name}/{old}..{new}`` and ``errdex diff --json``
return.  ``old`` and ``new`` name snapshots as ``errdex diff`` does: a
version, tag or commit (``review/snapshots.py``).  This router is included
before the module pages, whose ``/{owner}/{name}/{path}`` would take the URL.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from errdex.model import to_json
from errdex.review.diff import Diff
from errdex.web.http import HTML_MEDIA, JSON_MEDIA, cached, json_bytes
from errdex.web.routing import MALFORMED, NOT_FOUND, NOT_MODIFIED, Name, Owner, Responses, site_of
from errdex.web.site import SITE_NAME, PageMeta

router = APIRouter(tags=["review"])

Pair = Annotated[str, Path(pattern=r"^[A-Za-z0-9_.+-]{1,100}\.\.[A-Za-z0-9_.+-]{1,100}$",
                           description="OLD..NEW: two snapshots of the repo (version, tag or commit).")]
ERRORS: Responses = {**NOT_MODIFIED, **NOT_FOUND, **MALFORMED}
HTML: Responses = {200: {"content": {"text/html": {"schema": {"type": "string"}}}, "description": "The page"}, **ERRORS}


def _diff(request: Request, owner: str, name: str, pair: str) -> dict[str, Any]:
    """The diff document, cached per catalog generation; 404 when a snapshot is unknown."""
    from errdex.review.diff import diff_snapshots
    from errdex.review.snapshots import SnapshotNotFound, resolve

    site = site_of(request)
    repo = f"{owner}/{name}"
    old, new = pair.split("..", 1)

    def make() -> dict[str, Any] | str:
        try:
            a, b = resolve(site.catalog, repo, old), resolve(site.catalog, repo, new)
        except SnapshotNotFound as exc:
            return str(exc)
        data: dict[str, Any] = to_json(diff_snapshots(site.catalog, a, b))
        return data

    doc = site.cached(("diff", repo, old, new), make)
    if isinstance(doc, str):
        raise HTTPException(404, doc)
    return doc


@router.get("/api/diff/{owner}/{name}/{pair}", response_model=Diff, responses=ERRORS, tags=["api"],
            summary="Errors added, removed and changed between two snapshots")
def api_diff(request: Request, owner: Owner, name: Name, pair: Pair) -> Response:
    """The same object as ``errdex diff --json`` and the page ``/{owner}/{name}/diff/{pair}``."""
    body = json_bytes(_diff(request, owner, name, pair))
    return cached(request, body, JSON_MEDIA, max_age=site_of(request).settings.cache_seconds)


@router.get("/{owner}/{name}/diff/{pair}", responses=HTML, summary="A repo's errors diffed between two snapshots")
def diff_page(request: Request, owner: Owner, name: Name, pair: Pair) -> Response:
    from errdex.review.diff_markdown import TITLES

    site = site_of(request)
    doc = _diff(request, owner, name, pair)
    base = str(request.base_url)
    c = doc["counts"]
    meta = PageMeta(
        title=f"Errors of {doc['repo']}: {doc['old_version']} → {doc['new_version']} | {SITE_NAME}",
        description=f"{c['added']} errors added, {c['removed']} removed, {c['message']} messages changed, "
                    f"{c['exception']} exception types changed between {doc['old_version']} and {doc['new_version']}.",
        canonical=site.absolute(doc["url"], base), json_url=doc["json_url"],
    )
    html = site.cached(("diff-page", base, doc["url"]),
                       lambda: site.render("diff.html", meta, doc=doc, sections=list(TITLES.items())))
    return cached(request, html.encode("utf-8"), HTML_MEDIA, max_age=site.settings.cache_seconds)
