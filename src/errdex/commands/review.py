"""``errdex diff`` and ``errdex lint``: the review stage from the command line (plain text, JSON, Markdown, SARIF)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from errdex.commands.output import error, open_or_report, print_json

if TYPE_CHECKING:
    from errdex.review.diff import Diff
    from errdex.review.lint import LintReport
    from errdex.review.rules import Rule








# --------------------------------------------------------------------------- diff


def run_diff(old: str, new: str, *, db: str | None, json_out: bool, fmt: str) -> int:
    """Exit 0 with the diff, 2 on a malformed name or format, 1 when a snapshot is not in the catalog."""
    from errdex.review.diff import diff_snapshots
    from errdex.review.snapshots import SnapshotNotFound, parse_spec, resolve

    if fmt not in ("text", "markdown", "json"):
        error(f"--format must be text, markdown or json (got {fmt!r})")
        return 2
    try:
        (old_repo, old_ref), (new_repo, new_ref) = parse_spec(old), parse_spec(new)
    except ValueError as exc:
        error(str(exc))
        return 2
    if old_repo != new_repo:
        error(f"both snapshots must be of one repo (got {old_repo} and {new_repo})")
        return 2
    catalog = open_or_report(db)
    if catalog is None:
        return 1
    try:
        try:
            a, b = resolve(catalog, old_repo, old_ref), resolve(catalog, new_repo, new_ref)
        except SnapshotNotFound as exc:
            error(str(exc))
            return 1
        result = diff_snapshots(catalog, a, b)
    finally:
        catalog.close()
    if json_out or fmt == "json":
        from errdex.model import to_json

        print_json(to_json(result))
    elif fmt == "markdown":
        from errdex.review.diff_markdown import diff_markdown

        sys.stdout.write(diff_markdown(result))
    else:
        sys.stdout.write(diff_text(result))
    return 0


def _t(template: str) -> str:
    return repr(template) if template.strip() else "(no message)"


def diff_text(diff: Diff) -> str:
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
            assert ref is not None
            if o is not None and n is not None and kind == "message":
                what = f"{_t(o.template)} -> {_t(n.template)}"
            elif o is not None and n is not None and kind == "exception":
                what = f"{o.exception} -> {n.exception}: {_t(n.template)}"
            elif o is not None and n is not None and kind == "moved":
                what = f"{_t(n.template)}: {o.path}:{o.line} ({o.qualname}) -> {n.path}:{n.line} ({n.qualname})"
            else:
                what = f"{ref.exception}: {_t(ref.template)}"
            where = "" if kind == "moved" else f"  [{ref.path}:{ref.line} in {ref.qualname}]"
            out.append(f"  {marks[kind]} {what}{where}")
            out.append(f"      errdex show {ref.id}")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


# --------------------------------------------------------------------------- lint


def run_lint(source: str | None, *, repo: str | None, db: str | None, json_out: bool, fmt: str,
             select: str | None, ignore: str | None) -> int:
    """Exit 1 when anything is found (for CI), 0 when clean, 2 on bad arguments or an unreadable source."""
    from errdex.review.lint import choose

    if fmt not in ("text", "json", "sarif"):
        error(f"--format must be text, json or sarif (got {fmt!r})")
        return 2
    if source and repo and "@" in repo:
        error("give a SOURCE or --repo OWNER/NAME[@REF], not both with a ref")
        return 2
    try:
        rules = choose(select, ignore)
    except ValueError as exc:
        error(str(exc))
        return 2
    if not rules:
        error("--select/--ignore leave no rule to run")
        return 2
    report = _lint_source(source, repo, rules) if source else _lint_catalog(repo, db, rules)
    if isinstance(report, int):
        return report
    if json_out or fmt == "json":
        from errdex.model import to_json

        print_json(to_json(report))
    elif fmt == "sarif":
        from importlib.metadata import PackageNotFoundError, version

        from errdex.review.sarif import to_sarif

        try:
            own = version("errdex")
        except PackageNotFoundError:
            own = ""
        print_json(to_sarif(report, own))
    else:
        sys.stdout.write(lint_text(report))
    return 1 if report.findings else 0


def _lint_source(source: str, repo: str | None, rules: tuple[Rule, ...]) -> LintReport | int:
    """Extract ``source`` on the spot (nothing is written to the catalog) and lint its sites."""
    from errdex.extract import extract_tree
    from errdex.review.lint import lint_sites
    from errdex.sources import SourceError, open_source

    try:
        with open_source(source, repo=repo, commit=None, ref=None) as tree:
            result = extract_tree(tree)
            if result.files_read == 0:
                error(f"{source}: no Python file could be parsed")
                return 2
            return lint_sites(tree.snapshot, result.sites, rules, None)
    except SourceError as exc:
        error(str(exc))
        return 2


def _lint_catalog(repo: str | None, db: str | None, rules: tuple[Rule, ...]) -> LintReport | int:
    """Lint the newest snapshot of ``repo`` (or the one ``repo@ref`` names) in the catalog."""
    from errdex.review.lint import lint_sites
    from errdex.review.snapshots import SnapshotNotFound, parse_spec, resolve

    catalog = open_or_report(db)
    if catalog is None:
        return 1
    try:
        if repo is None:
            repos = catalog.repos()
            if len(repos) != 1:
                error("give a SOURCE or --repo OWNER/NAME (the catalog holds "
                       + (", ".join(repos) if repos else "no repo") + ")")
                return 2
            repo = repos[0]
        try:
            if "@" in repo:
                snap = resolve(catalog, *parse_spec(repo))
            else:
                snaps = catalog.snapshots(repo)
                if not snaps:
                    error(f"no repo {repo} in the catalog")
                    return 1
                snap = snaps[0]
        except (ValueError, SnapshotNotFound) as exc:
            error(str(exc))
            return 1 if isinstance(exc, SnapshotNotFound) else 2
        return lint_sites(snap, list(catalog.sites(snapshot_key=snap.key)), rules, catalog)
    finally:
        catalog.close()


def lint_text(report: LintReport) -> str:
    """flake8-style lines, then the count of each rule and the rules that were skipped."""
    from errdex.review.rules import RULES

    names = {r.code: r.name for r in RULES}
    out = [f"{report.path_prefix}{f.path}:{f.line}: {f.code} {f.message} [errdex show {f.error_id}]"
           for f in report.findings]
    if out:
        out.append("")
    which = report.repo + (f" {report.version}" if report.version != "unknown" else "")
    out.append(f"{which}: {len(report.findings)} finding(s) over {report.sites} sites")
    for code, n in report.counts.items():
        out.append(f"  {code} {names.get(code, '')}: {n}")
    for s in report.skipped:
        out.append(f"  {s.code} skipped: {s.reason}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- export --format markdown


def run_export_markdown(directory: str, *, db: str | None) -> int:
    """``errdex export --format markdown DIR``: exit 0 when written, 1 when refused or the catalog is empty."""
    from pathlib import Path

    from errdex.web.export import ExportError
    from errdex.web.export_markdown import export_markdown

    target = Path(directory)
    if target.exists() and not target.is_dir():
        error(f"{directory}: exists and is not a directory")
        return 2
    catalog = open_or_report(db)
    if catalog is None:
        return 1
    try:
        if not catalog.repos():
            error("the catalog is empty: index something with `errdex index SOURCE` first")
            return 1
        try:
            result = export_markdown(catalog, target)
        except ExportError as exc:
            error(f"export refused: {exc}")
            return 1
        except OSError as exc:
            error(f"{directory}: cannot write the pages ({exc})")
            return 1
    finally:
        catalog.close()
    for what in result.skipped:
        error(f"warning: not exported, {what}")
    sys.stdout.write(f"exported {result.errors} error pages and {result.pages - result.errors} index pages "
                     f"(Markdown) to {result.directory}\n")
    return 0
