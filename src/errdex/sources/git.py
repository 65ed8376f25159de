"""What git knows about a checkout: origin remote, HEAD commit and its date.

We run the ``git`` executable (never the indexed code) so that worktrees,
packed refs and submodules behave exactly as the user's git sees them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class GitInfo:
    """The facts a snapshot pins to: where the checkout came from and which commit."""

    toplevel: Path
    commit: str
    date: str
    remote_url: str | None
    repo: str | None  # owner/name when the remote is on GitHub (or looks like one)
    tag: str | None = None  # a tag pointing exactly at HEAD, if any


def _git(cwd: Path, *args: str) -> str | None:
    try:
        proc = subprocess.run(
            ["git", "-C", str(cwd), *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    return proc.stdout.strip()


_REMOTE_PATTERNS = (
    re.compile(r"^(?:https?|git|ssh)://(?:[^@/]+@)?(?P<host>[^/:]+)(?::\d+)?/(?P<path>.+?)/?$"),
    re.compile(r"^(?:[^@/]+@)?(?P<host>[^/:]+):(?P<path>.+?)/?$"),  # scp-like: git@github.com:o/n.git
)


def repo_from_url(url: str) -> str | None:
    """``owner/name`` from a GitHub clone or web URL; None for other hosts or shapes.

    Handles https, ssh and scp-like remotes with or without ``.git``, and
    project URLs with extra path (``https://github.com/o/n/issues``).
    """
    url = url.strip()
    for pattern in _REMOTE_PATTERNS:
        m = pattern.match(url)
        if not m:
            continue
        host = m.group("host").lower()
        if host not in ("github.com", "www.github.com"):
            return None
        parts = [p for p in m.group("path").split("/") if p]
        if len(parts) < 2:
            return None
        owner, name = parts[0], parts[1]
        name = name.removesuffix(".git")
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", owner) or not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            return None
        return f"{owner}/{name}"
    return None


def git_info(directory: Path) -> GitInfo | None:
    """GitInfo when ``directory`` is inside a git work tree with a commit, else None."""
    if shutil.which("git") is None:
        return None
    top = _git(directory, "rev-parse", "--show-toplevel")
    if not top:
        return None
    commit = _git(directory, "rev-parse", "--verify", "HEAD^{commit}")
    if not commit or not re.fullmatch(r"[0-9a-f]{40}([0-9a-f]{24})?", commit):
        return None
    date = _git(directory, "show", "-s", "--format=%cI", "HEAD") or ""
    remote = _git(directory, "remote", "get-url", "origin")
    return GitInfo(
        toplevel=Path(top),
        commit=commit,
        date=date,
        remote_url=remote or None,
        repo=repo_from_url(remote) if remote else None,
        tag=_git(directory, "describe", "--tags", "--exact-match", "HEAD") or None,
    )
