"""A diff as Markdown, ready to paste into a changelog (``errdex diff --format markdown``)."""

from __future__ import annotations

from errdex.review import md
from errdex.review.diff import Change, ChangeKind, Diff, ErrorRef

TITLES: dict[ChangeKind, str] = {
    "added": "New errors",
    "removed": "Errors no longer raised",
    "message": "Messages changed",
    "exception": "Exception types changed",
    "moved": "Moved",
}


def summary(diff: Diff) -> str:
    c = diff.counts
    return (f"{c['added']} added, {c['removed']} removed, {c['message']} messages changed, "
            f"{c['exception']} exception types changed, {c['moved']} moved ({c['unchanged']} unchanged)")


def _msg(template: str) -> str:
    return md.code(template) if template.strip() else "(no message)"


def _where(ref: ErrorRef) -> str:
    loc = md.code(f"{ref.path}:{ref.line}")
    return md.link(loc, ref.url) if ref.url else loc


def _line(c: Change) -> str:
    old, new = c.old, c.new
    if c.change == "added" and new is not None:
        return f"- {md.code(new.exception)} in {md.code(new.qualname)}: {_msg(new.template)} ({_where(new)})"
    if c.change == "removed" and old is not None:
        return f"- {md.code(old.exception)} in {md.code(old.qualname)}: {_msg(old.template)} (was {_where(old)})"
    assert old is not None and new is not None
    if c.change == "message":
        return (f"- {md.code(new.exception)} in {md.code(new.qualname)}: {_msg(old.template)} → "
                f"{_msg(new.template)} ({_where(new)})")
    if c.change == "exception":
        return (f"- {md.code(old.exception)} → {md.code(new.exception)} in {md.code(new.qualname)}: "
                f"{_msg(new.template)} ({_where(new)})")
    return (f"- {md.code(new.exception)}: {_msg(new.template)}: {md.code(old.qualname)} in {_where(old)} → "
            f"{md.code(new.qualname)} in {_where(new)}")


def diff_markdown(diff: Diff) -> str:
    """``## Errors: name old → new``, the counts, then one section per kind of change that has any."""
    name = diff.repo.rsplit("/", 1)[-1]
    out = [f"## Errors: {md.text(name)} {md.text(diff.old_version)} → {md.text(diff.new_version)}", "",
           summary(diff) + ".", ""]
    for kind, title in TITLES.items():
        changes = diff.of(kind)
        if not changes:
            continue
        out.append(f"### {title} ({len(changes)})")
        out.append("")
        out.extend(_line(c) for c in changes)
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
