"""Global explain: a paste that names no library, matched against a catalog of many.

With a few libraries, ``explain`` ranks every template of the catalog at once
(``index.MatchIndex``).  With many (``ROUTE_ABOVE`` repos or more), holding
every template as Python objects costs gigabytes and seconds per process, so
``explain`` first asks the global index (``global_index.py``, memory-mapped,
lookup independent of the catalog size) which libraries the text comes from,
adds the libraries whose files a traceback's frames are in, and then explains
with each of those libraries' own index (their ranking, ties, frames and
no-site verdicts), keeping the best answers of all of them.
"""

from __future__ import annotations

from errdex.match.model import Explanation, Parsed
from errdex.match.store import file_beside
from errdex.record import replace

TYPE_CHECKING = False
if TYPE_CHECKING:  # no ``typing`` at run time: ``errdex explain`` imports this module
    from typing import Any

ROUTE_ABOVE = 24  # repos: at or above this many, explain routes through the global index
ROUTED_REPOS = 3  # libraries explained in full per paste


def should_route(catalog: Any) -> bool:
    """Whether the catalog has a global index of its current generation, or ``ROUTE_ABOVE`` repos.

    Both are read without opening a lazy catalog (``store.CatalogFile``): ``explain`` on a small
    catalog keeps answering from its stored index alone.
    """
    beside = file_beside(catalog)
    if beside is not None:
        import os

        if os.path.exists(beside):
            return True
    else:
        from errdex.match.global_index import index_path

        if index_path(catalog).exists():
            return True
    return _repo_count(catalog) >= ROUTE_ABOVE


def _repo_count(catalog: Any) -> int:
    from errdex.match.store import CatalogFile

    if isinstance(catalog, CatalogFile) and not catalog.opened:
        import sqlite3

        from errdex.match.store import read_only_uri

        try:
            conn = sqlite3.connect(read_only_uri(catalog.path), uri=True)
            try:
                row = conn.execute("SELECT count(DISTINCT repo) FROM snapshots").fetchone()
            finally:
                conn.close()
            return int(row[0])
        except sqlite3.Error:
            pass  # not readable this way: ask the catalog
    return len(catalog.repos())


def candidate_repos(catalog: Any, parsed: Parsed, limit: int = ROUTED_REPOS) -> list[str]:
    """Libraries to explain with: those of the frames' files first (innermost first), then those
    whose templates the global index finds best for each exception's message."""
    from errdex.match.global_index import global_index_for

    with global_index_for(catalog) as gidx:
        by_top: dict[str, str] = {}
        for snap in gidx.snapshots:
            for top in snap[4]:
                by_top.setdefault(top, snap[0])
        out: list[str] = []
        for frame in reversed(parsed.frames):
            parts = frame.path.replace("\\", "/").split("/")
            for part in parts[:-1]:
                repo = by_top.get(part)
                if repo is not None and repo not in out and _is_package_path(parts, part):
                    out.append(repo)
                    break
        chain = parsed.chain or ()
        messages = [(parsed.message, parsed.exception)] + [(e.message, e.exception) for e in chain]
        for message, exception in messages[:4]:
            name = (exception or "").rsplit(".", 1)[-1]
            for repo in gidx.repos_of(gidx.lookup(message, exception=name, top=limit * 3), limit):
                if repo not in out:
                    out.append(repo)
        return out[: max(limit, 1) + 1]


def _is_package_path(parts: list[str], top: str) -> bool:
    """``.../site-packages/<top>/...`` or a relative ``<top>/...``: not a folder that happens to share
    the name."""
    i = parts.index(top)
    return i == 0 or parts[i - 1] in ("site-packages", "dist-packages") or parts[i - 1].startswith("~")


def merge(answers: list[Explanation], top: int) -> Explanation:
    """One explanation from those of several libraries: every match by score, the best one's verdict."""
    if not answers:
        raise ValueError("nothing to merge")
    best = max(answers, key=lambda e: (e.matches[0].score if e.matches else -1.0))
    matches = sorted((m for e in answers for m in e.matches), key=lambda m: (-m.score, m.id))[: max(top, 0)]
    return replace(best, matches=tuple(matches))
