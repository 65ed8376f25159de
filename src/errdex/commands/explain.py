"""``errdex explain``: print the raise sites that explain a pasted message or traceback.

Plain text (no rich) and lazy imports keep the whole process under a second
on a catalog holding JAX: the match index is loaded from its cache beside the
catalog, and nothing else of errdex is imported.
"""

from __future__ import annotations

import json
import sys

from errdex.match.model import Explanation, Match, NoSite


def run_explain(text: str | None, *, db: str | None, json_out: bool, top: int, repo: str | None) -> int:
    """Exit 0 with an answer (confident or not), 2 on bad input, 1 when the catalog fails."""
    from errdex.catalog import CatalogError, open_catalog

    if top < 1:
        sys.stderr.write(f"errdex: --top must be at least 1 (got {top})\n")
        return 2
    if text is None or text == "-":
        if sys.stdin is None or sys.stdin.isatty():
            sys.stderr.write("errdex: give the error as TEXT, or pipe it on stdin (errdex explain < tb.txt)\n")
            return 2
        text = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    if not text.strip():
        sys.stderr.write("errdex: the input is empty: paste a message or a traceback\n")
        return 2
    try:
        catalog = open_catalog(db)
    except CatalogError as exc:
        sys.stderr.write(f"errdex: {exc}\n")
        return 1
    try:
        from errdex.match import explain

        result = explain(catalog, text, top=top, repo=repo)
    finally:
        catalog.close()
    if json_out:
        from errdex.model import to_json

        sys.stdout.write(json.dumps(to_json(result), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render(result))
    return 0


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
        out.extend(_match_lines(m, wrapped_by.get(m.id)))
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
