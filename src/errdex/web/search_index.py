"""The compact index that lets the static site match pastes in the browser.

A static host cannot run the match stage, so ``errdex export`` ships this
index and ``static/search.js`` matches against it: each error's template as
its literal pieces with ``null`` where a placeholder absorbs a value.  Rows
are positional arrays (``FIELDS`` names the positions) because JAX's 5,000
errors as objects would be several times larger.
"""

from __future__ import annotations

from typing import Any, TypedDict

from errdex.catalog.base import Catalog
from errdex.documents import site_title

FIELDS = ("id", "repo", "kind", "exception", "title", "pieces", "path", "line")
FORMAT_VERSION = 1


class SearchIndex(TypedDict):
    """``/api/search-index.json``; ``errors`` rows follow ``fields``."""

    version: int
    generation: str
    fields: list[str]
    errors: list[list[Any]]


def build_search_index(catalog: Catalog) -> SearchIndex:
    rows: list[list[Any]] = []
    seen: set[str] = set()
    for repo in catalog.repos():
        for site in catalog.sites(repo=repo):
            if site.error_id in seen:
                continue
            seen.add(site.error_id)
            pieces: list[str | None] = [seg.text if seg.is_literal else None for seg in site.template.segments]
            rows.append([site.error_id, repo, site.kind, site.exception_name, site_title(site), pieces,
                         site.path, site.line])
    return SearchIndex(version=FORMAT_VERSION, generation=catalog.generation(), fields=list(FIELDS), errors=rows)
