"""The one rule for names that become paths or URLs (repos, module paths).

A repository name arrives from places errdex does not control: a wheel's
METADATA, a git remote, ``--repo``.  It is joined into export paths and web
routes, so the catalog must never hold one that the server would refuse or
that walks out of a directory (``../../escape``).  Everything that stores such
a name checks it here, and the web routes use the same patterns, so what
indexing accepts the server answers and what the server refuses was never
stored.
"""

from __future__ import annotations

import re

# One part of OWNER/NAME: starts with a letter or digit (so never ".", ".." or
# a hidden name), then letters, digits, ".", "_", "-"; GitHub allows no more.
PART_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}"
# One segment of a package-relative module path ("jax/_src/core.py").
SEGMENT_PATTERN = r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}"
MODULE_PATH_MAX = 500

PART_RE = re.compile(PART_PATTERN)
SEGMENT_RE = re.compile(SEGMENT_PATTERN)
# The route patterns (anchored) that the web app declares for the same values.
PART_ROUTE_PATTERN = rf"^{PART_PATTERN}$"
MODULE_PATH_ROUTE_PATTERN = rf"^(?!.*(?:^|/)\.\.?(?:/|$)){SEGMENT_PATTERN}(?:/{SEGMENT_PATTERN})*$"


class InvalidName(ValueError):
    """A name that would become a path or URL and breaks the rule; the message says which and why."""


def repo_problem(repo: str) -> str | None:
    """Why ``repo`` is not a valid ``OWNER/NAME``, or None when it is."""
    parts = repo.split("/")
    if len(parts) != 2:
        return "expected OWNER/NAME"
    for label, part in zip(("owner", "name"), parts, strict=True):
        if not PART_RE.fullmatch(part) or part.endswith(".git"):
            return (f"{label} {part!r} must start with a letter or digit and hold only letters, "
                    "digits, '.', '_' and '-' (at most 100 characters)")
    return None


def check_repo(repo: str, *, where: str) -> str:
    """``repo`` unchanged when valid; else InvalidName naming ``where`` it came from."""
    problem = repo_problem(repo)
    if problem:
        raise InvalidName(f"{where}: repository name {repo!r}: {problem}")
    return repo


def module_path_problem(path: str) -> str | None:
    """Why ``path`` is not a valid package-relative module path, or None when it is."""
    if not path or len(path) > MODULE_PATH_MAX:
        return f"must be 1 to {MODULE_PATH_MAX} characters"
    for seg in path.split("/"):
        if seg in (".", "..") or not SEGMENT_RE.fullmatch(seg):
            return f"segment {seg!r} must be letters, digits, '_', '.', '-' and not '.' or '..'"
    return None


_OUTSIDE_PART = re.compile(r"[^A-Za-z0-9._-]+")


def normalise_part(text: str) -> str:
    """A name errdex makes itself (``local/<folder>``, ``local/<distribution>``) made valid by
    one rule: unchanged when it already is; else each run of characters other than letters,
    digits, ``.``, ``_``, ``-`` becomes ``-``; leading ``.``, ``_``, ``-``, trailing ``-`` and
    a trailing ``.git`` are dropped; it is cut to 100 characters; ``unnamed`` when nothing is left."""
    if PART_RE.fullmatch(text) and not text.endswith(".git"):
        return text
    out = _OUTSIDE_PART.sub("-", text).lstrip("._-").rstrip("-")
    while out.endswith(".git"):
        out = out.removesuffix(".git").rstrip("-")
    out = out[:100]
    return out if PART_RE.fullmatch(out) else "unnamed"


def printable_path(path: str, limit: int = 300) -> str:
    """A path that broke the rule, as the skipped-files ledger records it: control and
    non-ASCII characters escaped, at most ``limit`` characters."""
    shown = path.encode("ascii", "backslashreplace").decode("ascii")
    shown = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in shown)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
