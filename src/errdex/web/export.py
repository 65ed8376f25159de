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

Names in the catalog come from untrusted packages, so every write goes
through ``Target``: resolved inside the directory, never replacing a file
that export did not write (docs/security.md, "Export").
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from errdex.catalog.base import Catalog
from errdex.documents import home_document, repo_document, search_document
from errdex.sources.names import module_path_problem, repo_problem
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


MANIFEST = ".errdex-export"


class ExportError(Exception):
    """Export refused to write or replace a path; the message names it and why."""


@dataclass(frozen=True, slots=True)
class ExportResult:
    directory: Path
    pages: int
    documents: int
    files: int
    skipped: tuple[str, ...] = ()  # repos and modules left out, each with the reason


class Target:
    """The export directory, and the only way export writes into it.

    Every path is resolved (symlinks followed) and must lie inside the
    directory, whatever the catalog's names say.  A file is replaced only if
    an earlier export wrote it (it is listed in ``.errdex-export``); a file
    in the way that export did not write is refused, never deleted.  Files
    are written to a temporary name and renamed over, so an existing link
    (hard or symbolic) is replaced, never written through.
    """

    def __init__(self, directory: Path) -> None:
        self.root = directory.resolve()
        manifest = self.root / MANIFEST
        if self.root.exists() and any(self.root.iterdir()) and not manifest.is_file():
            raise ExportError(f"{directory}: not empty and not written by errdex export (no {MANIFEST}); "
                              "choose an empty or new directory")
        self.ours: set[str] = set()
        if manifest.is_file():
            self.ours = {line for line in manifest.read_text(encoding="utf-8").splitlines() if line}
        self.written: set[str] = set()
        self.root.mkdir(parents=True, exist_ok=True)

    def path(self, rel: str) -> Path:
        """``rel`` inside the directory, or ExportError naming it."""
        path = (self.root / rel.lstrip("/")).resolve()
        if path == self.root or not path.is_relative_to(self.root):
            raise ExportError(f"{rel}: resolves to {path}, outside the export directory {self.root}")
        return path

    def write(self, rel: str, data: str | bytes) -> Path:
        path = self.path(rel)
        key = path.relative_to(self.root).as_posix()
        if path.is_dir():
            raise ExportError(f"{path}: a directory is where export would write a file")
        if (path.exists() or path.is_symlink()) and key not in self.ours and key not in self.written:
            raise ExportError(f"{path}: exists and was not written by errdex export; not replacing it")
        self._parent(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:50]}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
        self.written.add(key)
        return path

    def _parent(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.parent.resolve().is_relative_to(self.root):  # a link put in the way meanwhile
            raise ExportError(f"{path.parent}: resolves outside the export directory {self.root}")

    def link(self, existing: str, rel: str) -> None:
        """The second copy of a JSON document: a hard link where the file system allows it."""
        src = self.path(existing)
        dst = self.path(rel)
        key = dst.relative_to(self.root).as_posix()
        if (dst.exists() or dst.is_symlink()) and key not in self.ours and key not in self.written:
            raise ExportError(f"{dst}: exists and was not written by errdex export; not replacing it")
        if dst.is_dir():
            raise ExportError(f"{dst}: a directory is where export would write a file")
        self._parent(dst)
        tmp = dst.with_name(f".{dst.name[:50]}.{secrets.token_hex(8)}.tmp")  # new: os.link never overwrites
        try:
            os.link(src, tmp)
        except OSError:
            shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
        self.written.add(key)

    def finish(self) -> None:
        """Record what this export wrote (and what earlier ones did, still there) for the next one."""
        keep = self.written | {k for k in self.ours if (self.root / k).is_file()}
        manifest = self.root / MANIFEST
        fd, tmp = tempfile.mkstemp(prefix=f"{MANIFEST}.", suffix=".tmp", dir=self.root)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("".join(f"{k}\n" for k in sorted(keep)))
        os.replace(tmp, manifest)


def _json_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _everything(site: Site, skipped: list[str]) -> Iterator[tuple[str, str, str]]:
    """(kind, url path, content): every page ("html") and every JSON document ("json").

    Repos and modules whose names break the one rule (``errdex.sources.names``)
    are left out and named in ``skipped``: the server would refuse their URLs,
    and their names must not become paths.
    """
    catalog = site.catalog
    home = home_document(catalog)
    yield "html", "/", site.home_page(home)
    yield "json", "/api/repos", _json_text(home)
    yield "html", "/search", site.search_page(search_document(catalog, ""))
    for entry in home["repos"]:
        repo = entry["repo"]
        if repo_problem(repo):
            continue  # site_paths names it in skipped
        latest = catalog.snapshots(repo)[0]
        sites = list(catalog.sites(snapshot_key=latest.key))  # once: every module page is cut from it
        doc = repo_document(catalog, repo, per_page=None, sites=sites)
        if doc is None:
            continue
        yield "html", f"/{repo}", site.repo_page(doc)
        yield "json", f"/api/repos/{repo}", _json_text(doc)
        for module in doc["by_module"]:
            path = module["name"]
            if module_path_problem(path):
                continue
            mdoc = repo_document(catalog, repo, path=path, per_page=None, sites=sites)
            if mdoc is not None:
                yield "html", f"/{repo}/{path}", site.repo_page(mdoc)
                yield "json", f"/api/repos/{repo}/{path}", _json_text(mdoc)
    for path in site_paths(catalog, skipped):
        if path.startswith("/errors/"):
            eid = path.removeprefix("/errors/")
            edoc = site.error(eid)
            if edoc is not None:
                yield "html", path, site.error_page(edoc)
                yield "json", f"/api/errors/{eid}", _json_text(edoc)


def export_site(catalog: Catalog, directory: Path, settings: WebSettings, openapi: dict[str, Any]) -> ExportResult:
    """Write the whole site under ``directory`` (new, empty, or an earlier export's, whose files are replaced).

    Raises ExportError, naming the path, rather than write outside
    ``directory`` or replace a file that export did not write.
    """
    from errdex.web.http import CSP

    site = Site(catalog, replace(settings, static_site=True))
    target = Target(directory)
    skipped: list[str] = []
    items = list(_everything(site, skipped))
    json_paths = {p for kind, p, _ in items if kind == "json"}
    dirs = {q.rsplit("/", 1)[0] for q in json_paths} | {"/api"}
    # every proper prefix of a JSON path is a directory of the export
    prefixes = {"/".join(p.split("/")[:i]) for p in json_paths for i in range(2, p.count("/") + 1)}
    dirs |= prefixes
    pages = docs = files = 0
    for kind, path, content in items:
        if kind == "html":
            target.write(path.rstrip("/") + "/index.html", content)
            pages += 1
            files += 1
            continue
        target.write(path + ".json", content)
        target.link(path + ".json", path + "/index.json" if path in dirs else path)
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
        target.write(rel, text)
        files += 1
    for f in sorted(STATIC.iterdir()):
        if f.is_file():
            target.write(f"static/{f.name}", f.read_bytes())
            files += 1
    target.finish()
    return ExportResult(directory=directory, pages=pages, documents=docs, files=files, skipped=tuple(skipped))
