"""``errdex explain``: print the raise sites that explain a pasted message or traceback.

This is the one command that must be instant (docs/runtime.md): ``errdex.entry``
reaches it without the CLI framework, it prints plain text (no Rich), and a
SQLite catalog is not even opened when its match index is on disk
(``match.store.CatalogFile``): the process imports the match stage and
``sqlite3``, nothing else of errdex.
"""

from __future__ import annotations

import sys

from errdex.match.model import Explanation, Match, NoSite

TYPE_CHECKING = False
if TYPE_CHECKING:  # no ``typing`` at run time
    from typing import Any

    from errdex.catalog.base import Catalog


def run_explain(text: str | None, *, db: str | None, json_out: bool, top: int, repo: str | None,
                python: str | None = None, sys_path: str | None = None, brief: bool = False) -> int:
    """Exit 0 with an answer (confident or not), 2 on bad input, 1 when the catalog fails.

    ``sys_path`` (``os.pathsep``-joined, as the runtime hook sends it) lets the
    first error from a distribution of that environment index it
    (``runtime/lazy.py``); ``brief`` prints the hook's few lines.
    """
    if top < 1:
        sys.stderr.write(f"errdex: --top must be at least 1 (got {top})\n")
        return 2
    if text is None or text == "-":
        if sys.stdin is None or sys.stdin.isatty():
            sys.stderr.write("errdex: give the error as TEXT, or pipe it on stdin (errdex explain < tb.txt)\n")
            return 2
        text = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    if not text.strip():
        sys.stderr.write("errdex: the input is empty: paste a message or a traceback; an exception with no message "
                         "is explained by its type: paste its last line (`NotImplementedError`, `pkg.WidgetError`)\n")
        return 2
    from errdex.paths import default_db

    target = default_db(db)
    try:
        catalog = _open(target)
        try:
            from errdex.match import explain

            if sys_path is not None:
                _index_missing(catalog, text, sys_path, python)
            result = explain(catalog, text, top=top, repo=repo)
            if brief and not json_out:
                sys.stdout.write(render_brief(catalog, result))
                return 0
        finally:
            catalog.close()
    except Exception as exc:
        if not _catalog_error(exc):
            raise
        sys.stderr.write(f"errdex: {exc}\n")
        return 1
    if json_out:
        import json

        from errdex.model import to_json

        sys.stdout.write(json.dumps(to_json(result), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render(result))
    return 0


def _open(target: str) -> Catalog:
    """A plain SQLite path as a ``CatalogFile`` (opened only when its stored index is missing), else the catalog."""
    if target.startswith("sqlite:///"):
        target = target.removeprefix("sqlite://")  # as open_catalog reads it
    if "://" not in target:
        from errdex.match.store import CatalogFile

        lazy: Any = CatalogFile(target)  # a Catalog for whatever asks more than its generation
        return lazy  # type: ignore[no-any-return]
    from errdex.catalog import open_catalog

    return open_catalog(target)


def _index_missing(catalog: Catalog, text: str, sys_path: str, python: str | None) -> None:
    """Index the distributions of the traceback's frames that the catalog lacks (only files are read)."""
    import os

    from errdex.match import parse_safely
    from errdex.match.index import index_for

    parsed = parse_safely(text)
    if not parsed.frames and not any(e.frames for e in parsed.chain):
        return
    from errdex.runtime.lazy import index_missing

    tops = index_for(catalog).tops
    index_missing(catalog, parsed, [p for p in sys_path.split(os.pathsep) if p], python, tops)


def render_brief(catalog: Catalog, result: Explanation) -> str:
    """The runtime hook's note: page id, title, the first solution, the link; nothing when nothing is confident."""
    import os

    best = result.matches[0] if result.matches and result.matches[0].confident else None
    if best is None:
        return ""  # most uncaught errors are the user's own: the hook stays quiet about them
    title = " ".join(best.template.split())
    if len(title) > 100:
        title = title[:100].rsplit(" ", 1)[0] + "…"
    literal = "".join(title.replace("{", "}").split("}")[::2]).strip()  # the text outside {placeholders}
    if not literal:  # a message that is only placeholders (``raise BadParameter(message)``): say where instead
        title = f"{best.exception.rsplit('.', 1)[-1]} raised in {best.qualname} ({best.path}:{best.line})"
    lines = [f"errdex: {best.exception} · {best.repo} · {best.id}  (score {best.score:.2f})", f"  {title}"]
    from errdex.match.store import CatalogFile

    if isinstance(catalog, CatalogFile):
        solution = catalog.first_solution(best.id)  # without opening the catalog package
    else:
        analysis = catalog.get_analysis(best.id)
        solution = analysis.solutions[0].text if analysis is not None and analysis.solutions else None
    if solution:
        first = " ".join(solution.split())
        lines.append(f"  first fix: {first[:300]}" + ("…" if len(first) > 300 else ""))
    base = os.environ.get("ERRDEX_URL", "").rstrip("/")
    lines.append(f"  page: {base}/errors/{best.id}" if base else f"  page: errdex show {best.id}")
    if best.url:
        lines.append(f"  raised at: {best.url}")
    return "\n".join(lines) + "\n"


def _catalog_error(exc: Exception) -> bool:
    """Whether ``exc`` is a ``CatalogError`` (whose module is loaded only if a catalog was opened)."""
    if "errdex.catalog" not in sys.modules:
        return False
    from errdex.catalog import CatalogError

    return isinstance(exc, CatalogError)


def render(result: Explanation) -> str:
    """The human-readable answer: what was understood, then the matches or why there are none."""
    p = result.parsed
    out: list[str] = []
    head = f"{p.exception}: " if p.exception else ""
    first = p.message.split("\n", 1)[0]
    out.append(f"input ({p.format}): {head}{first[:200]}" + (" …" if len(first) > 200 else ""))
    if p.frames:
        f = p.frames[-1]
        out.append(f"  {len(p.frames)} frame(s); innermost {f.path}:{f.line} in {f.function or '?'}")
    out.append("")
    confident = [m for m in result.matches if m.confident]
    if result.matches and result.matches[0].tie_note:
        out.append(f"not confident: {result.matches[0].tie_note}")
    elif not confident:
        best = f" (best score {result.matches[0].score:.2f} < {result.threshold:.2f})" if result.matches else ""
        out.append(f"no confident match{best}")
    shown = confident or list(result.matches[:3])
    wrapped_by = {m.wraps: m for m in result.matches if m.wraps}
    for m in shown:
        lines = _match_lines(m, wrapped_by.get(m.id))
        if m.versions_checked:
            from errdex.match.versions import describe

            lines.insert(-1, f"  {describe(m)}")
        out.extend(lines)
    if result.no_site is not None:
        out.extend(_no_site_lines(result.no_site))
    return "\n".join(out) + "\n"


def _match_lines(m: Match, outer: Match | None = None) -> list[str]:
    how = {"exact": "exact", "fuzzy": "approximate text", "frame": "pinned by frame",
           "class": "fallback to the exception class"}[m.method]
    lines = [
        f"{m.repo} · {m.kind} · {m.exception}   score {m.score:.2f}  [{how}]"
        + ("  (frame pins this site)" if m.pinned_by_frame and m.method != "frame" else ""),
        f"  {m.template}",
    ]
    if m.wraps:
        lines.append(f"  wraps the message of errdex show {m.wraps} (caught, then raised again with more text)")
    if outer is not None:
        lines.append(f"  wrapped by {outer.path}:{outer.line} (errdex show {outer.id}),"
                     " which caught this error and raised its own around it")
    lines.extend(f"    {v.placeholder} = {v.value[:120]}" for v in m.values)
    lines.append(f"  raised at {m.path}:{m.line} in {m.qualname}  ({m.repo}@{m.commit})")
    if m.url:
        lines.append(f"  {m.url}" + ("  (approximate: the wheel does not say where the package sits in the"
                                     " repository; re-index with --repo-path-prefix src/ for a src layout)"
                                     if m.url_approximate else ""))
    lines.append(f"  errdex show {m.id}")
    if m.tied_count:
        same = f"the same class, {m.exception.rsplit('.', 1)[-1]}" if m.method == "class" else "the same text"
        lines.append(f"  tied with {m.tied_count} other site{'s' if m.tied_count != 1 else ''} raising {same}:")
        lines.extend(f"    {t.path}:{t.line} in {t.qualname}  (errdex show {t.id})" for t in m.tied[:_TIES_SHOWN])
        if m.tied_count > _TIES_SHOWN:
            lines.append(f"    … and {m.tied_count - _TIES_SHOWN} more (--json lists {len(m.tied)})")
    lines.append("")
    return lines


_TIES_SHOWN = 10  # tied sites printed under the top match


def _no_site_lines(n: NoSite) -> list[str]:
    lines = [f"no raise site of the indexed libraries produced this error: {n.reason}", f"  origin: {n.origin}"]
    if n.frame is not None:
        f = n.frame
        lines.append(f"  surfaced at {f.path}:{f.line} in {f.function or '?'}" + (f" ({f.repo})" if f.repo else ""))
        if f.code:
            lines.append(f"    {f.code}")
        if f.url:
            lines.append(f"  {f.url}")
    return lines
