"""The JSON documents that the web pages, the JSON API and ``--json`` share.

"The JSON is the page" (STYLE.md item 7): each page is rendered from exactly
one of these documents, ``/api/...`` returns the same document, and
``errdex show --json`` prints the error document.  So there is one place that
decides what a page knows, and the HTML can never show something the JSON
lacks.  The shapes are TypedDicts (documented in docs/web.md); the model
values inside (snapshot, site, analysis) are ``model.to_json`` of the frozen
dataclasses, so their fields are those of ``model.py``.

Nothing here renders HTML or escapes anything: documents hold the untrusted
text of the indexed code as it is, and the templates escape it.
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict
from urllib.parse import quote

from errdex.catalog.base import Catalog, ErrorRecord
from errdex.model import Analysis, ErrorSite, Snapshot, to_json
from errdex.observe.evidence import ObservedEntry, RaisedInstead, StaticTestLink, observation_document
from errdex.pagenotes import arguments_note, defensive_note, defensive_sample, example_note
from errdex.prove.noop import no_op_before

TITLE_CHARS = 60
DESCRIPTION_CHARS = 155
DEFAULT_REPORT_URL = "https://github.com/{repo}/issues/new?title={title}&body={body}"
REPORT_URL_ENV = "ERRDEX_REPORT_URL"
PER_PAGE = 50
MAX_PER_PAGE = 500

if TYPE_CHECKING:
    # model.to_json of a model dataclass: a dict to the type checker ...
    SnapshotJSON = dict[str, Any]
    SiteJSON = dict[str, Any]
    AnalysisJSON = dict[str, Any]
else:
    # ... and the dataclass itself at run time, so that the OpenAPI schema that
    # pydantic derives from these TypedDicts describes every field of model.py.
    SnapshotJSON = Snapshot
    SiteJSON = ErrorSite
    AnalysisJSON = Analysis


# --------------------------------------------------------------------------- shapes


class SnapshotVersion(TypedDict):
    """Where one Error sits in one snapshot (the "other snapshots" list)."""

    snapshot: str  # Snapshot.key
    version: str  # the version, else the ref, else the short commit
    commit: str | None
    ref: str | None
    date: str | None
    path: str
    line: int
    end_line: int
    source_url: str


class SnapshotRef(TypedDict):
    """A snapshot named by its key and version (the versions that do not raise an error)."""

    snapshot: str  # Snapshot.key
    version: str


class ErrorDocument(TypedDict):
    """One Error: ``/errors/{id}``, ``/api/errors/{id}``, ``errdex show --json``."""

    id: str
    url: str
    json_url: str
    repo: str
    kind: str
    exception: str  # the class name, as in the header
    exception_qualified: str  # resolved dotted name ("jax._src.errors.X") or as written
    title: str  # the template, shortened
    description: str  # one sentence for search engines and link previews
    template: str  # the first template, rendered with {expr} placeholders
    templates: list[str]
    path: str
    line: int
    end_line: int
    qualname: str
    source_url: str  # pinned link to path#Lline-Lend, "" when unknown
    snapshot: SnapshotJSON  # model.Snapshot of the newest snapshot holding the error
    site: SiteJSON  # model.ErrorSite in that snapshot
    analysis: AnalysisJSON | None  # model.Analysis, None until `errdex analyze` ran
    # analysis.example_fix.proof, .try_proof, .validate_proof (`errdex prove`, docs/prove.md): null when not
    # proven, else {before: {exception, error_id, output}, after: {exit, output}, library, version, python,
    # date, candidate}; output is the last lines the sandboxed run really printed
    analysis_snapshot: str | None  # which snapshot the analysis describes
    snapshots: list[SnapshotVersion]  # every snapshot that has the error, newest first
    report_url: str
    observed: list[ObservedEntry]  # what the library's own tests raised here (`errdex observe`)
    observed_run: bool  # whether the snapshot was observed at all (an empty list then means: no test reached it)
    example_note: str  # the Example fix's text when no example is proven (the observed test, or that none could be)
    arguments_note: str  # a proven example: whether its after keeps every argument or drops one ("" when unknown)
    defensive_note: str  # the Defensive patterns' text when no sample is proven ("" when one is): what to guard on
    defensive_sample: str  # the not-run sample shown then (code), or ""
    defensive_sample_label: str  # what it is ("Check before calling (not run: ...)"), or ""
    test_links: list[StaticTestLink]  # the analysis's test evidence, each confirmed by an observation or not
    # observed only caught inside the library: the errors the same tests saw raised instead by a function on
    # its way ({error_id, exception, message, test, raised_in}); [] otherwise
    raised_instead: list[RaisedInstead]
    not_in: list[SnapshotRef]  # the repo's other indexed snapshots, which do not raise it, newest first


class ErrorSummary(TypedDict):
    """One line of a list: search results, a repo's or a module's errors."""

    id: str
    url: str
    repo: str
    kind: str
    exception: str
    title: str
    template: str
    path: str
    line: int
    module: str
    qualname: str


class Count(TypedDict):
    name: str
    count: int
    url: NotRequired[str]


class RepoFilters(TypedDict):
    kind: str | None
    exception: str | None
    path: str | None


class RepoDocument(TypedDict):
    """``/{owner}/{name}`` (``path`` None) and ``/{owner}/{name}/{path}`` (one module)."""

    repo: str
    url: str
    json_url: str
    path: str | None
    snapshot: SnapshotJSON  # the newest snapshot, whose errors are listed
    snapshots: list[SnapshotJSON]
    total: int  # errors in the repo (or module) before kind/exception filters
    by_kind: list[Count]
    by_module: list[Count]  # name = path, with the module page's url
    by_exception: list[Count]
    filters: RepoFilters
    matching: int  # errors after filters
    page: int
    per_page: int
    pages: int
    errors: list[ErrorSummary]


class RepoEntry(TypedDict):
    repo: str
    url: str
    errors: int
    snapshot: SnapshotJSON
    snapshots: int


class HomeDocument(TypedDict):
    """``/`` and ``/api/repos``: the catalog's repos."""

    repos: list[RepoEntry]
    errors: int


class SearchDocument(TypedDict):
    """``/api/search?q=`` and the search part of ``/``."""

    query: str
    repo: str | None
    count: int
    results: list[ErrorSummary]


# --------------------------------------------------------------------------- helpers


def error_url(error_id: str) -> str:
    return f"/errors/{error_id}"


def error_json_url(error_id: str) -> str:
    return f"/api/errors/{error_id}"


def repo_url(repo: str, path: str | None = None) -> str:
    """The page of a repo or module, percent-encoded (names come from untrusted packages)."""
    return quote(f"/{repo}" + (f"/{path}" if path else ""), safe="/")


def shorten(text: str, limit: int = TITLE_CHARS) -> str:
    """The title: the template cut at a word boundary near ``limit``, with an ellipsis."""
    flat = re.sub(r"\s+", " ", text).strip()
    if len(flat) <= limit:
        return flat
    cut = flat[:limit]
    space = cut.rfind(" ")
    if space >= limit * 2 // 3:
        cut = cut[:space]
    return cut.rstrip(" ,;:.") + "…"


def version_label(snap: Snapshot) -> str:
    """What a user calls the snapshot: its version, else its ref, else its short commit."""
    return snap.version or snap.ref or snap.short_pin


_version = version_label


def _date(snap: Snapshot) -> str:
    return (snap.date or "")[:10]


def site_title(site: ErrorSite) -> str:
    text = site.template.render()
    return shorten(text) if text.strip() else f"{site.exception_name} (no message)"


def summary(snap: Snapshot, site: ErrorSite) -> ErrorSummary:
    return ErrorSummary(
        id=site.error_id,
        url=error_url(site.error_id),
        repo=snap.repo,
        kind=site.kind,
        exception=site.exception_name,
        title=site_title(site),
        template=site.template.render(),
        path=site.path,
        line=site.line,
        module=site.module,
        qualname=site.qualname,
    )


def report_url(snap: Snapshot, site: ErrorSite, error_id: str, template: str | None = None) -> str:
    """A prefilled new-issue link; ``template`` (or $ERRDEX_REPORT_URL) may use {repo} {id} {title} {body}."""
    pattern = template or os.environ.get(REPORT_URL_ENV) or DEFAULT_REPORT_URL
    title = f"errdex: {site.exception_name}: {site_title(site)}"
    body = (
        f"Error {error_id} ({site.kind} {site.exception_name}) at {site.path}:{site.line} "
        f"in {snap.key}.\n\nData: {error_json_url(error_id)}\n\nWhat is wrong or missing on the page:\n"
    )
    values = {"repo": snap.repo, "id": error_id, "title": quote(title, safe=""), "body": quote(body, safe="")}
    try:
        return pattern.format(**values)
    except (KeyError, IndexError, ValueError):
        return DEFAULT_REPORT_URL.format(**values)


def describe(snap: Snapshot, site: ErrorSite, analysis: Analysis | None) -> str:
    """The meta description: the meaning when analysed, else what and where."""
    if analysis is not None and analysis.meaning.strip():
        text = analysis.meaning
    else:
        text = f"{site.exception_name} raised by {snap.repo} in {site.qualname} ({site.path}:{site.line}): " + (
            site.template.render() or "no message"
        )
    return shorten(text, DESCRIPTION_CHARS)


# --------------------------------------------------------------------------- error


def error_document(catalog: Catalog, error_id: str, *, report_template: str | None = None) -> ErrorDocument | None:
    """The document of one Error, or None when the catalog does not know the id."""
    record = catalog.get_error(error_id)
    if record is None:
        return None
    return document_of(catalog, record, report_template=report_template)


def document_of(catalog: Catalog, record: ErrorRecord, *, report_template: str | None = None) -> ErrorDocument:
    snap, site = record.latest
    eid = record.error_id
    analysis = catalog.get_analysis(eid, snap.key) or catalog.get_analysis(eid)
    seen = observation_document(catalog, snap, eid, analysis)
    analysis_json, hidden = shown_example(to_json(analysis)) if analysis is not None else (None, "")
    return ErrorDocument(
        id=eid,
        url=error_url(eid),
        json_url=error_json_url(eid),
        repo=snap.repo,
        kind=site.kind,
        exception=site.exception_name,
        exception_qualified=site.exception_resolved or site.exception,
        title=site_title(site),
        description=describe(snap, site, analysis),
        template=site.template.render(),
        templates=[t.render() for t in site.templates],
        path=site.path,
        line=site.line,
        end_line=site.end_line,
        qualname=site.qualname,
        source_url=snap.source_url(site.path, site.line, site.end_line),
        snapshot=to_json(snap),
        site=to_json(site),
        analysis=analysis_json,
        analysis_snapshot=analysis.snapshot if analysis is not None else None,
        snapshots=[
            SnapshotVersion(
                snapshot=s.key, version=_version(s), commit=s.commit, ref=s.ref, date=s.date,
                path=x.path, line=x.line, end_line=x.end_line, source_url=s.source_url(x.path, x.line, x.end_line),
            )
            for s, x in record.sites
        ],
        report_url=report_url(snap, site, eid, report_template),
        observed=seen["observed"],
        observed_run=seen["observed_run"],
        example_note=hidden or example_note(seen["observed"], seen["raised_instead"]),
        arguments_note=arguments_note(analysis_json["example_fix"]["proof"]) if analysis_json is not None else "",
        defensive_note=defensive_note(analysis_json) if analysis_json is not None else "",
        defensive_sample_label=(sample := defensive_sample(analysis_json) if analysis_json is not None else ("", ""))[0],
        defensive_sample=sample[1],
        test_links=seen["test_links"],
        raised_instead=seen["raised_instead"],
        not_in=[SnapshotRef(snapshot=s.key, version=_version(s)) for s in absent_from(catalog, record)],
    )


def shown_example(analysis: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """(the analysis as pages show it, the note said in place of its example): a stored example whose before asks
    the call to do nothing is left out (``prove/noop.py``; rating 12, 5931: ``lax.rev(x, dimensions=[])`` returns
    ``x``), and the page says why; the proof stays in the catalog (``verify --execute`` re-runs it) and still words
    the check."""
    fix = analysis.get("example_fix") or {}
    nothing = no_op_before(str(fix.get("before") or ""), str(analysis.get("snapshot") or "")) if fix.get("proof") else ""
    if not nothing:
        return analysis, ""
    note = (f"No example is shown: the only failing call errdex proved passes {nothing}, which asks the call to do "
            "nothing (it selects nothing, so the call would return its input unchanged); that is no call to fix.")
    return {**analysis, "example_fix": {**fix, "before": "", "after": "", "proof": None}}, note


def absent_from(catalog: Catalog, record: ErrorRecord) -> list[Snapshot]:
    """The snapshots of the error's repo that do not raise it, newest first.

    With several versions side by side, "raised in 0.10.1 and 0.10.2, not in
    0.9.2" tells a user on 0.9.2 that this page is not about their version.
    """
    have = {s.key for s, _ in record.sites}
    return [s for s in catalog.snapshots(record.latest[0].repo) if s.key not in have]


# --------------------------------------------------------------------------- lists


def home_document(catalog: Catalog) -> HomeDocument:
    """The repos of the catalog with the error count of each one's newest snapshot."""
    entries: list[RepoEntry] = []
    total = 0
    for repo in catalog.repos():
        snaps = catalog.snapshots(repo)
        if not snaps:
            continue
        count = len({s.error_id for s in catalog.sites(repo=repo)})
        total += count
        entries.append(RepoEntry(repo=repo, url=repo_url(repo), errors=count, snapshot=to_json(snaps[0]),
                                 snapshots=len(snaps)))
    return HomeDocument(repos=entries, errors=total)


def search_document(catalog: Catalog, query: str, *, repo: str | None = None, limit: int = 50) -> SearchDocument:
    """Errors whose template, exception, path or function contain the words of ``query``."""
    results = [summary(s, x) for s, x in catalog.search(query, limit=limit, repo=repo)] if query.strip() else []
    return SearchDocument(query=query, repo=repo, count=len(results), results=results)


def _counts(counter: Counter[str], link: Any = None, *, by_name: bool = False) -> list[Count]:
    out: list[Count] = []
    items = sorted(counter.items()) if by_name else sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    for name, n in items:
        c = Count(name=name, count=n)
        if link is not None:
            c["url"] = link(name)
        out.append(c)
    return out


def repo_document(
    catalog: Catalog,
    repo: str,
    *,
    path: str | None = None,
    kind: str | None = None,
    exception: str | None = None,
    page: int = 1,
    per_page: int | None = PER_PAGE,
    sites: Sequence[ErrorSite] | None = None,
) -> RepoDocument | None:
    """A repo's (or one module's) errors in its newest snapshot, counted and filtered; None if unknown.

    Counts by module and exception are over the repo (or module) before the
    kind/exception filters, so that the filter links show what each would give.
    ``per_page=None`` puts every error on one page (the static export has no
    ``?page=``); ``sites`` are the newest snapshot's sites when the caller
    already holds them (the export builds a page per module from one read).
    """
    snaps = catalog.snapshots(repo)
    if not snaps:
        return None
    latest = snaps[0]
    seen: set[str] = set()
    in_scope: list[ErrorSite] = []
    for site in sites if sites is not None else catalog.sites(snapshot_key=latest.key):
        if site.error_id in seen:
            continue
        seen.add(site.error_id)
        if path is None or site.path == path:
            in_scope.append(site)
    if path is not None and not in_scope:
        return None
    by_module = Counter(s.path for s in in_scope)
    by_kind: Counter[str] = Counter(str(s.kind) for s in in_scope)
    by_exc = Counter(s.exception_name for s in in_scope)
    chosen = [
        s for s in in_scope
        if (kind is None or s.kind == kind) and (exception is None or s.exception_name == exception)
    ]
    chosen.sort(key=lambda s: (s.path, s.line, s.error_id))
    per_page = max(1, len(chosen)) if per_page is None else max(1, min(per_page, MAX_PER_PAGE))
    pages = max(1, math.ceil(len(chosen) / per_page))
    page = max(1, page)
    window = chosen[(page - 1) * per_page: page * per_page]
    api = "/api" + repo_url(repo, path).replace("/", "/repos/", 1)
    return RepoDocument(
        repo=repo,
        url=repo_url(repo, path),
        json_url=api,
        path=path,
        snapshot=to_json(latest),
        snapshots=[to_json(s) for s in snaps],
        total=len(in_scope),
        by_kind=_counts(by_kind),
        by_module=_counts(by_module, lambda p: repo_url(repo, p), by_name=True),
        by_exception=_counts(by_exc),
        filters=RepoFilters(kind=kind, exception=exception, path=path),
        matching=len(chosen),
        page=page,
        per_page=per_page,
        pages=pages,
        errors=[summary(latest, s) for s in window],
    )
