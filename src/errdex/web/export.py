"""``errdex export DIR``: the site as static files, at the same paths as the server's.

Pages go to ``<path>/index.html`` (``/errors/<id>`` → ``errors/<id>/index.html``).
A JSON document goes to ``<path>.json`` and, so that the server's URL works
unchanged, to ``<path>`` itself — unless ``<path>`` is also a directory of
the export (``api/repos`` holds ``api/repos/<owner>/<name>``), in which case
it goes to ``<path>/index.json``.  ``_headers`` (Netlify, Cloudflare Pages)
and ``nginx.conf.example`` tell a static host to serve ``/api/*`` as
``application/json`` (docs/web.md).

Query strings do not exist on a static host: repo pages list all of their
errors on one page, and ``static/search.js`` does search, filters and paste
matching in the browser from ``api/search-index.json``.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from errdex.catalog.base import Catalog
from errdex.documents import home_document, repo_document, search_document
from errdex.web.render import STATIC
from errdex.web.search_index import build_search_index
from errdex.web.seo import robots_txt, site_paths, sitemap_xml
from errdex.web.settings import WebSettings
from errdex.web.site import Site

HEADERS_FILE = """\
/api/*
  Content-Type: application/json; charset=utf-8
  X-Content-Type-Options: nosniff
/*
  Content-Security-Policy: {csp}
  X-Content-Type-Options: nosniff
  X-Frame-Options: DENY
  Referrer-Policy: strict-origin-when-cross-origin
"""
NGINX_FILE = """\
# errdex static export: serve /api/* as JSON whatever the file name.
location /api/ {{
    default_type application/json;
    try_files $uri $uri.json $uri/index.json =404;
    add_header X-Content-Type-Options nosniff;
}}
location / {{
    try_files $uri $uri/index.html =404;
    add_header Content-Security-Policy "{csp}";
    add_header X-Content-Type-Options nosniff;
}}
"""


@dataclass(frozen=True, slots=True)
class ExportResult:
    directory: Path
    pages: int
    documents: int
    files: int


def _write(root: Path, rel: str, data: str | bytes) -> None:
    path = root / rel.lstrip("/")
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)


def _link(root: Path, existing: str, rel: str) -> None:
    """The second copy of a JSON document: a hard link where the file system allows it."""
    src, dst = root / existing.lstrip("/"), root / rel.lstrip("/")
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.unlink(missing_ok=True)
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


def _json_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _everything(site: Site) -> Iterator[tuple[str, str, str]]:
    """(kind, url path, content): every page ("html") and every JSON document ("json")."""
    catalog = site.catalog
    home = home_document(catalog)
    yield "html", "/", site.home_page(home)
    yield "json", "/api/repos", _json_text(home)
    yield "html", "/search", site.search_page(search_document(catalog, ""))
    for entry in home["repos"]:
        repo = entry["repo"]
        latest = catalog.snapshots(repo)[0]
        sites = list(catalog.sites(snapshot_key=latest.key))  # once: every module page is cut from it
        doc = repo_document(catalog, repo, per_page=None, sites=sites)
        if doc is None:
            continue
        yield "html", f"/{repo}", site.repo_page(doc)
        yield "json", f"/api/repos/{repo}", _json_text(doc)
        for module in doc["by_module"]:
            path = module["name"]
            mdoc = repo_document(catalog, repo, path=path, per_page=None, sites=sites)
            if mdoc is not None:
                yield "html", f"/{repo}/{path}", site.repo_page(mdoc)
                yield "json", f"/api/repos/{repo}/{path}", _json_text(mdoc)
    for path in site_paths(catalog):
        if path.startswith("/errors/"):
            eid = path.removeprefix("/errors/")
            edoc = site.error(eid)
            if edoc is not None:
                yield "html", path, site.error_page(edoc)
                yield "json", f"/api/errors/{eid}", _json_text(edoc)


def export_site(catalog: Catalog, directory: Path, settings: WebSettings, openapi: dict[str, Any]) -> ExportResult:
    """Write the whole site under ``directory`` (created; existing files are overwritten)."""
    from errdex.web.http import CSP

    site = Site(catalog, replace(settings, static_site=True))
    directory.mkdir(parents=True, exist_ok=True)
    items = list(_everything(site))
    json_paths = {p for kind, p, _ in items if kind == "json"}
    dirs = {q.rsplit("/", 1)[0] for q in json_paths} | {"/api"}
    # every proper prefix of a JSON path is a directory of the export
    prefixes = {"/".join(p.split("/")[:i]) for p in json_paths for i in range(2, p.count("/") + 1)}
    dirs |= prefixes
    pages = docs = files = 0
    for kind, path, content in items:
        if kind == "html":
            _write(directory, path.rstrip("/") + "/index.html", content)
            pages += 1
            files += 1
            continue
        _write(directory, path + ".json", content)
        _link(directory, path + ".json", path + "/index.json" if path in dirs else path)
        docs += 1
        files += 2
    base = settings.base_url
    extras = {
        "api/search-index.json": _json_text(build_search_index(catalog)),
        "openapi.json": _json_text(openapi),
        "docs/index.html": site.api_docs_page(openapi),
        "404.html": site.status_page(404, "Not Found", "This page is not in the exported catalog.", "/404.html"),
        "sitemap.xml": sitemap_xml(site_paths(catalog), base or "/"),
        "robots.txt": robots_txt(base or ""),
        "_headers": HEADERS_FILE.format(csp=CSP),
        "nginx.conf.example": NGINX_FILE.format(csp=CSP),
    }
    for rel, text in extras.items():
        _write(directory, rel, text)
        files += 1
    static_out = directory / "static"
    static_out.mkdir(exist_ok=True)
    for f in sorted(STATIC.iterdir()):
        if f.is_file():
            shutil.copyfile(f, static_out / f.name)
            files += 1
    return ExportResult(directory=directory, pages=pages, documents=docs, files=files)
