"""``errdex export --format markdown DIR``: the error reference as Markdown, for a library's own docs.

Layout (relative links only, so the directory can sit anywhere in a docs tree)::

    index.md                      the repos of the catalog
    <owner>/<name>/index.md       one repo's errors, by module
    <owner>/<name>/errors/<id>.md one page per error

Every page starts with YAML front matter (``title``, ``description`` and the
error's facts); pages below the top index carry ``orphan: true`` so that Sphinx
with MyST does not ask for them in a toctree (they are reached by links), and MkDocs (which enables ``toc``,
``tables`` and ``fenced_code`` by itself) needs nothing added.  The pages
say what the HTML page says, from the same document (``documents.py``).

Indexed text is untrusted: it only appears inside code spans and fences, or
escaped (``review/md.py``); names that become paths pass
``errdex.sources.names`` and every write goes through ``web.export.Target``,
which keeps paths inside ``DIR`` and never replaces a file it did not write.
"""

from __future__ import annotations

import html
import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errdex.catalog.base import Catalog
from errdex.documents import ErrorDocument, error_document, version_label
from errdex.pagenotes import arguments_note, environment_note
from errdex.review import md
from errdex.sources.names import repo_problem
from errdex.web.export import Target


@dataclass(frozen=True, slots=True)
class MarkdownResult:
    directory: Path
    pages: int
    errors: int
    skipped: tuple[str, ...] = ()


def front_matter(fields: dict[str, Any]) -> str:
    """YAML front matter; each value a JSON scalar, which YAML reads as the same value.

    ``title`` and ``description`` are HTML-escaped: MkDocs' themes print a
    page's ``title`` into the navigation and ``<title>`` as HTML, so a message
    holding ``<script>`` would otherwise become a tag on every page of the site.
    """
    lines = [f"{k}: {json.dumps(html.escape(v) if k in ('title', 'description') and isinstance(v, str) else v, ensure_ascii=True)}"
             for k, v in fields.items()]
    return "---\n" + "\n".join(lines) + "\n---\n\n"


def _heading(level: int, text: str) -> str:
    return f"{'#' * level} {text}\n\n"


def error_page(doc: ErrorDocument, known: set[str]) -> str:
    """One error's page; ``known`` are the ids that have a page in this export (for related links)."""
    site, a = doc["site"], doc["analysis"]
    out = [front_matter({
        "title": f"{doc['exception']}: {doc['title']}", "description": doc["description"], "orphan": True,
        "errdex_id": doc["id"], "repo": doc["repo"], "kind": doc["kind"], "exception": doc["exception_qualified"],
    })]
    out.append(_heading(1, md.text(f"{doc['exception']}: {doc['title']}")))
    out.append(f"{md.code(doc['repo'])} · {md.text(doc['kind'])} · {md.code(doc['exception'])}\n\n")
    out.append(_heading(2, "Error message"))
    for t in doc["templates"] or ["(no message)"]:
        out.append(md.fence(t, "text") + "\n\n")
    if a is not None and a.get("meaning"):
        out.append(_heading(2, "What it means") + md.prose(a["meaning"]) + "\n\n")
    out.append(_heading(2, "Source"))
    where = md.code(f"{doc['path']}:{doc['line']}")
    out.append(f"Thrown at {md.link(where, doc['source_url'])} in {md.code(doc['qualname'])}.\n\n")
    guards = site.get("guards") or []
    if guards:
        out.append("When it is raised:\n\n" + "".join(f"- {md.code(g['normalized'])}\n" for g in guards) + "\n")
    if site.get("snippet"):
        out.append(md.fence(site["snippet"], "python") + "\n\n")
    if a is not None:
        out.extend(_analysis(a, known, doc))
    if doc.get("raised_instead") and not ((a or {}).get("example_fix") or {}).get("proof"):
        out.append("Users never see this error: the library catches it and raises another instead:\n\n" + "".join(
            f"- {_to(md.code(r['exception'].rsplit('.', 1)[-1]), r['error_id'], known)} "
            f"raised by {md.code(r['raised_in'])} (seen in {md.code(r['test'])})\n"
            for r in doc["raised_instead"]) + "\n")
    out.extend(_versions(doc))
    out.append(f"---\n\nIndexed from {md.code(doc['snapshot']['repo'] + '@' + (doc['snapshot']['commit'] or doc['snapshot']['ref'] or ''))}"
               f" by errdex; error id {md.code(doc['id'])}.\n")
    return "".join(out)


def _to(label: str, error_id: str, known: set[str]) -> str:
    """A link to the other error's page when the export has it, else the label."""
    return md.link(label, f"{error_id}.md") if error_id in known else label


def _proven(proof: Any, what: str) -> str:
    """The line that says whether a sample ran (``errdex prove``), never left implicit."""
    if not proof:
        return f"Not proven: this {what} was not run.\n\n"
    py = ".".join(str(proof.get("python", "")).split(".")[:2])
    how = f", {proof['lowered']}" if proof.get("lowered") else ""  # a kernel lowered for another platform
    how += environment_note(proof.get("env"))  # the environment it ran with (prove --env)
    kept = f" {arguments_note(proof)}" if what == "example" and arguments_note(proof) else ""  # prove/keep.py
    return f"Proven on {proof.get('library')} {proof.get('version')}, Python {py}{how}.{kept}\n\n"


def _analysis(a: dict[str, Any], known: set[str], doc: ErrorDocument) -> Iterator[str]:
    if a.get("solutions"):
        yield _heading(2, "Solutions") + "".join(f"- {md.prose(s['text'])}\n" for s in a["solutions"]) + "\n"
    fix = a.get("example_fix") or {}
    if fix.get("proof") and (fix.get("before") or fix.get("after")):
        yield _heading(2, "Example fix") + _proven(fix.get("proof"), "example")
        if fix.get("before"):
            yield "Before:\n\n" + md.fence(fix["before"], "python") + "\n\n"
        if (fix.get("proof") or {}).get("before", {}).get("output"):
            yield "Output:\n\n" + md.fence(fix["proof"]["before"]["output"], "text") + "\n\n"
        if fix.get("after"):
            yield "After:\n\n" + md.fence(fix["after"], "python") + "\n\n"
        if (fix.get("proof") or {}).get("passes") and fix["proof"].get("after", {}).get("output"):
            yield "After's output (where it stopped):\n\n" + md.fence(fix["proof"]["after"]["output"], "text") + "\n\n"
    else:
        yield _heading(2, "Example fix") + md.prose(doc["example_note"]) + "\n\n"
    yield _heading(2, "Defensive patterns") + f"Strategy: {md.text(a.get('strategy') or '')}.\n\n"
    if a.get("validate_sample") and a.get("validate_proof"):
        yield ("Validate before calling:\n\n" + _proven(a.get("validate_proof"), "check")
               + md.fence(a["validate_sample"], "python") + "\n\n")
    if a.get("try_sample") and a.get("try_proof"):
        yield ("Try / except:\n\n" + _proven(a.get("try_proof"), "sample")
               + md.fence(a["try_sample"], "python") + "\n\n")
    if doc["defensive_note"]:
        yield md.prose(doc["defensive_note"]) + "\n\n"
    if doc["defensive_sample"]:
        yield md.text(doc["defensive_sample_label"]) + "\n\n" + md.fence(doc["defensive_sample"], "python") + "\n\n"
    if a.get("prevention"):
        yield _heading(2, "Prevention") + "".join(f"- {md.prose(p)}\n" for p in a["prevention"]) + "\n"
    if a.get("trigger") or a.get("situations"):
        yield _heading(2, "When it happens")
        if a.get("trigger"):
            yield md.prose(a["trigger"]) + "\n\n"
        yield "".join(f"- {md.prose(s)}\n" for s in a.get("situations") or []) + "\n"
    related = a.get("related") or []
    if related:
        yield _heading(2, "Related errors")
        for r in related:
            reason = f" — {md.prose(r['reason'])}" if r.get("reason") else ""
            yield f"- {_to(md.text(r['title']) or md.code(r['error_id']), r['error_id'], known)}{reason}\n"
        yield "\n"
    elif a.get("related_note"):
        yield _heading(2, "Related errors")
        yield md.prose(a["related_note"]) + "\n\n"


def _versions(doc: ErrorDocument) -> Iterator[str]:
    yield _heading(2, "Versions")
    yield "| Version | Location |\n|---|---|\n"
    for v in doc["snapshots"]:
        loc = md.code(f"{v['path']}:{v['line']}")
        yield f"| {md.text(v['version'])} | {md.link(loc, v['source_url'])} |\n"
    if doc["not_in"]:
        yield "\nNot raised in " + ", ".join(md.text(v["version"]) for v in doc["not_in"]) + ".\n"
    yield "\n"


def repo_index(repo: str, version: str, docs: list[ErrorDocument]) -> str:
    """A repo's errors grouped by module, each linked to its page."""
    by_module: dict[str, list[ErrorDocument]] = defaultdict(list)
    for d in docs:
        by_module[d["path"]].append(d)
    out = [front_matter({"title": f"Errors of {repo}", "description":
                         f"The {len(docs)} errors, warnings and assertions raised by {repo} {version}, by module.",
                         "orphan": True, "repo": repo, "version": version})]
    out.append(_heading(1, f"Errors of {md.text(repo)}"))
    out.append(f"{len(docs)} errors, warnings and assertions of {md.text(repo)} {md.text(version)}, "
               f"in {len(by_module)} modules.\n\n")
    for path in sorted(by_module):
        out.append(_heading(2, md.code(path)))
        for d in sorted(by_module[path], key=lambda d: (d["line"], d["id"])):
            label = md.text(f"{d['exception']}: {d['title']}")
            out.append(f"- [{label}](errors/{d['id']}.md) — {md.text(d['kind'])}, line {d['line']}"
                       f" in {md.code(d['qualname'])}\n")
        out.append("\n")
    return "".join(out)


def export_markdown(catalog: Catalog, directory: Path) -> MarkdownResult:
    """Write the Markdown reference of every repo's newest snapshot under ``directory``."""
    target = Target(directory)
    skipped: list[str] = []
    pages = errors = 0
    repos: list[tuple[str, int]] = []
    for repo in catalog.repos():
        problem = repo_problem(repo)
        if problem:
            skipped.append(f"repo {repo!r}: {problem}")
            continue
        snaps = catalog.snapshots(repo)
        if not snaps:
            continue
        ids = list(dict.fromkeys(s.error_id for s in catalog.sites(snapshot_key=snaps[0].key)))
        docs = [d for d in (error_document(catalog, i) for i in ids) if d is not None]
        known = {d["id"] for d in docs}
        for d in docs:
            target.write(f"{repo}/errors/{d['id']}.md", error_page(d, known))
        target.write(f"{repo}/index.md", repo_index(repo, version_label(snaps[0]), docs))
        pages += len(docs) + 1
        errors += len(docs)
        repos.append((repo, len(docs)))
    lines = [front_matter({"title": "Error reference", "description": "The errors of the libraries below, "
                           "read from their source by errdex."}), _heading(1, "Error reference")]
    lines.extend(f"- [{md.text(r)}]({r}/index.md) — {n} errors\n" for r, n in repos)
    target.write("index.md", "".join(lines))
    target.finish()
    return MarkdownResult(directory=target.root, pages=pages + 1, errors=errors, skipped=tuple(skipped))
