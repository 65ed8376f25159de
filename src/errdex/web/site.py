"""The site as a value: documents (cached per catalog generation) and their pages.

Both the HTTP app and ``errdex export`` go through ``Site``: a route asks for
a document, then either serialises it (``/api/...``) or renders it through
the page's template — the same data either way (STYLE.md item 7).

Documents and rendered bodies are cached under the catalog's ``generation()``,
which changes whenever the catalog does, so a re-index is visible at once and
nothing stale is ever served.  The cache is bounded in bytes
(``WebSettings.cache_mb``), not entries.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

from markupsafe import Markup

from errdex import documents
from errdex.catalog.base import Catalog
from errdex.documents import ErrorDocument, HomeDocument, RepoDocument, SearchDocument
from errdex.observe.report import UntestedDocument
from errdex.snippets import window_of
from errdex.web.render import highlight_snippet, make_env
from errdex.web.settings import WebSettings

T = TypeVar("T")
SITE_NAME = "errdex"


@dataclass(frozen=True, slots=True)
class PageMeta:
    """What goes in <head>: title, description, canonical URL, Open Graph type, JSON twin."""

    title: str
    description: str
    canonical: str
    og_type: str = "website"
    json_url: str = ""


def size_of(value: object) -> int:
    """Approximate bytes a cached value holds: exact for bytes and str, a walk for documents.

    Documents are dicts and lists of str and numbers (JSON shapes), so the
    walk sums ``sys.getsizeof`` over them; it is linear in the document, as
    building it was.
    """
    seen = 0
    stack = [value]
    while stack:
        v = stack.pop()
        seen += sys.getsizeof(v)
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return seen


class ByteLRU:
    """A thread-safe LRU bounded by the bytes its values hold (routes run in a thread pool).

    A bound on entries would let one catalog's large pages (a JAX repo page
    is megabytes) or a client sending many Host headers (pages are keyed by
    origin) grow the process without limit; this bound holds whatever the
    entries weigh.  A value larger than a quarter of the budget is returned
    but not kept.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self.data: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.data)

    def get_or(self, key: Hashable, make: Callable[[], T]) -> T:
        with self.lock:
            if key in self.data:
                self.data.move_to_end(key)
                return self.data[key][0]  # type: ignore[no-any-return]
        value = make()
        size = size_of(value) + sys.getsizeof(key)
        if size > self.max_bytes // 4:
            return value
        with self.lock:
            old = self.data.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self.data[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, (_, dropped) = self.data.popitem(last=False)
                self.bytes -= dropped
        return value


class Site:
    def __init__(self, catalog: Catalog, settings: WebSettings) -> None:
        self.catalog = catalog
        self.settings = settings
        self.env = make_env()
        self._cache = ByteLRU(settings.cache_bytes)

    # ------------------------------------------------------------------ documents

    def cached(self, key: tuple[Hashable, ...], make: Callable[[], T]) -> T:
        return self._cache.get_or((self.catalog.generation(), *key), make)

    def error(self, error_id: str) -> ErrorDocument | None:
        return self.cached(("error", error_id), lambda: documents.error_document(
            self.catalog, error_id, report_template=self.settings.report_url))

    def repo(self, repo: str, path: str | None = None, *, kind: str | None = None, exception: str | None = None,
             page: int = 1, per_page: int = documents.PER_PAGE) -> RepoDocument | None:
        return self.cached(("repo", repo, path, kind, exception, page, per_page), lambda: documents.repo_document(
            self.catalog, repo, path=path, kind=kind, exception=exception, page=page, per_page=per_page))

    def untested(self, repo: str) -> UntestedDocument | None:
        """``/{owner}/{name}/untested``: raise sites no test reached (None: repo not in the catalog)."""
        from errdex.observe.report import untested_documents

        def make() -> UntestedDocument | None:
            docs = untested_documents(self.catalog, repo)
            return docs[0] if docs else None

        return self.cached(("untested", repo), make)

    def untested_page(self, doc: UntestedDocument, base: str = "") -> str:
        meta = PageMeta(
            title=f"Errors no test reaches in {doc['repo']} | {SITE_NAME}",
            description=f"{doc['untested']} of the {doc['total']} raise sites of {doc['repo']} are reached by "
                        "none of its tests (observed by running them).",
            canonical=self.absolute(doc["url"], base), json_url=doc["json_url"],
        )
        return self.render("untested.html", meta, doc=doc)

    def home(self) -> HomeDocument:
        return self.cached(("home",), lambda: documents.home_document(self.catalog))

    def search(self, query: str, repo: str | None = None, limit: int = 50) -> SearchDocument:
        return self.cached(("search", query, repo, limit),
                           lambda: documents.search_document(self.catalog, query, repo=repo, limit=limit))

    def explain(self, text: str, top: int = 5, repo: str | None = None) -> dict[str, Any]:
        """``model.to_json`` of the match stage's Explanation (the documented JSON)."""
        from errdex.match import explain
        from errdex.model import to_json

        data: dict[str, Any] = to_json(explain(self.catalog, text, top=top, repo=repo))
        return data

    # ------------------------------------------------------------------ pages

    def absolute(self, path: str, base: str = "") -> str:
        return (self.settings.base_url or base).rstrip("/") + path

    def render(self, template: str, meta: PageMeta, **context: Any) -> str:
        context.setdefault("search_q", "")
        context.setdefault("pasted", "")
        return self.env.get_template(template).render(
            meta=meta, static_site=self.settings.static_site, max_paste=self.settings.max_paste, **context)

    def error_page(self, doc: ErrorDocument, base: str = "") -> str:
        site = doc["site"]
        text, start = window_of(site.get("snippet", ""), int(site.get("snippet_start") or doc["line"]),
                                doc["line"], doc.get("qualname") or "")
        snippet = highlight_snippet(text, start, doc["line"], doc["end_line"] or doc["line"])
        meta = PageMeta(
            title=f"{doc['exception']}: {doc['title']} — {doc['repo']} | {SITE_NAME}",
            description=doc["description"], canonical=self.absolute(doc["url"], base), og_type="article",
            json_url=doc["json_url"],
        )
        return self.render("error.html", meta, doc=doc, snippet=Markup(snippet))

    def repo_page(self, doc: RepoDocument, base: str = "") -> str:
        where = f"{doc['path']} in {doc['repo']}" if doc["path"] else doc["repo"]
        kinds = ", ".join(f"{c['count']} {c['name']}s" for c in doc["by_kind"])
        meta = PageMeta(
            title=f"Errors of {where} | {SITE_NAME}",
            description=f"The {doc['total']} errors, warnings and assertions raised by {where} ({kinds}), "
                        "each with its meaning, source and fixes.",
            canonical=self.absolute(doc["url"], base), json_url=doc["json_url"],
        )
        return self.render("repo.html", meta, doc=doc)

    def home_page(self, doc: HomeDocument, base: str = "") -> str:
        meta = PageMeta(
            title=f"{SITE_NAME}: what does this Python error mean?",
            description="Paste a Python error message or traceback and get the page that explains it: "
                        f"{doc['errors']} errors of {len(doc['repos'])} libraries, read from their source.",
            canonical=self.absolute("/", base), json_url="/api/repos",
        )
        return self.render("home.html", meta, doc=doc)

    def search_page(self, doc: SearchDocument, base: str = "") -> str:
        q = doc["query"]
        meta = PageMeta(title=f"Search{': ' + q if q else ''} | {SITE_NAME}",
                        description=f"errdex search results for {q!r}." if q else "Search the errors in errdex.",
                        canonical=self.absolute("/search", base),
                        json_url="/api/search?q=" + q if q else "")
        return self.render("search.html", meta, doc=doc, search_q=q)

    def explain_page(self, result: dict[str, Any], text: str, base: str = "") -> str:
        meta = PageMeta(title=f"Matches for your error | {SITE_NAME}",
                        description="The raise sites that match the error you pasted.",
                        canonical=self.absolute("/", base))
        return self.render("explain.html", meta, result=result, pasted=text)

    def status_page(self, status: int, title: str, detail: str, path: str, base: str = "") -> str:
        meta = PageMeta(title=f"{status} {title} | {SITE_NAME}", description=detail,
                        canonical=self.absolute(path, base))
        return self.render("status.html", meta, error={"status": status, "title": title, "detail": detail})

    def api_docs_page(self, schema: dict[str, Any], base: str = "") -> str:
        meta = PageMeta(title=f"API | {SITE_NAME}", description="The errdex JSON API.",
                        canonical=self.absolute("/docs", base), json_url="/openapi.json")
        return self.render("apidocs.html", meta, schema=schema)
