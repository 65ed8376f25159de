"""``errdex diff`` and ``errdex lint``: the review stage from the command line (plain text, JSON, Markdown, SARIF)."""

from __future__ import annotations

import json
import sys
from typing import Any

from errdex.catalog.base import Catalog


def _error(message: str) -> None:
    sys.stderr.write(f"errdex: {message}\n")


def _open(db: str | None) -> Catalog | None:
    from errdex.catalog import CatalogError, open_catalog

    try:
        return open_catalog(db)
    except CatalogError as exc:
        _error(str(exc))
        return None


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


# --------------------------------------------------------------------------- diff


def run_diff(old: str, new: str, *, db: str | None, json_out: bool, fmt: str) -> int:
    """Exit 0 with the diff, 2 on a malformed name or format, 1 when a snapshot is not in the catalog."""
    from errdex.review.diff import diff_snapshots
    from errdex.review.snapshots import SnapshotNotFound, parse_spec, resolve

    if fmt not in ("text", "markdown", "json"):
        _error(f"--format must be text, markdown or json (got {fmt!r})")
        return 2
    try:
        (old_repo, old_ref), (new_repo, new_ref) = parse_spec(old), parse_spec(new)
    except ValueError as exc:
        _error(str(exc))
        return 2
    if old_repo != new_repo:
        _error(f"both snapshots must be of one repo (got {old_repo} and {new_repo})")
        return 2
    catalog = _open(db)
    if catalog is None:
        return 1
    try:
        try:
            a, b = resolve(catalog, old_repo, old_ref), resolve(catalog, new_repo, new_ref)
        except SnapshotNotFound as exc:
            _error(str(exc))
            return 1
        result = diff_snapshots(catalog, a, b)
    finally:
        catalog.close()
    if json_out or fmt == "json":
        from errdex.model import to_json

        _print_json(to_json(result))
    elif fmt == "markdown":
        from errdex.review.diff_markdown import diff_markdown

        sys.stdout.write(diff_markdown(result))
    else:
        sys.stdout.write(diff_text(result))
    return 0


def _t(template: str) -> str:
    return repr(template) if template.strip() else "(no message)"


def diff_text(diff: Any) -> str:
    """The terminal rendering: the counts, then one line per change."""
    from errdex.review.diff_markdown import TITLES, summary

    out = [f"{diff.repo}: {diff.old_version} -> {diff.new_version}", summary(diff), ""]
    marks = {"added": "+", "removed": "-", "message": "~", "exception": "!", "moved": ">"}
    for kind, title in TITLES.items():
        changes = diff.of(kind)
        if not changes:
            continue
        out.append(f"{title} ({len(changes)})")
        for c in changes:
            o, n = c.old, c.new
            ref = n or o
            if kind == "message":
                what = f"{_t(o.template)} -> {_t(n.template)}"
            elif kind == "exception":
                what = f"{o.exception} -> {n.exception}: {_t(n.template)}"
            elif kind == "moved":
                what = f"{_t(n.template)}: {o.path}:{o.line} ({o.qualname}) -> {n.path}:{n.line} ({n.qualname})"
            else:
                what = f"{ref.exception}: {_t(ref.template)}"
            where = "" if kind == "moved" else f"  [{ref.path}:{ref.line} in {ref.qualname}]"
            out.append(f"  {marks[kind]} {what}{where}")
            out.append(f"      errdex show {ref.id}")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
