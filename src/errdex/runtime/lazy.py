"""The first error from a distribution that the catalog lacks indexes it (``explain --sys-path``).

The runtime hook sends the traceback with the interpreter's ``sys.path``.
Each frame whose file lies in a site-packages directory of that path belongs
to a top-level package there; when no site of the catalog lives in that
package, the distribution that installed it (found from ``*.dist-info``:
``top_level.txt``, else ``RECORD``) is indexed as ``installed:NAME`` from that
environment, analysed with the static backend (so its pages have solutions),
and cached in the catalog like any other snapshot.  Later errors find it in
the match index and cost nothing more.  A distribution already indexed at the
same version (one with no error at all, say) is not indexed again.

Only files are read: nothing of the user's environment is imported or run.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from errdex.catalog.base import Catalog
    from errdex.match.model import Parsed

SITE_DIRS = ("site-packages", "dist-packages")
MAX_PER_ERROR = 3  # distributions indexed for one error at most (innermost frames first)


@dataclass(frozen=True, slots=True)
class Missing:
    """A distribution that a traceback passes through and the catalog has no site of."""

    name: str
    version: str
    site_dir: str
    top: str


def frame_files(parsed: Parsed) -> list[str]:
    """Every frame's file of every exception of the input, innermost first, each once."""
    seen: dict[str, None] = {}
    for frames in [parsed.frames, *(e.frames for e in reversed(parsed.chain))]:
        for f in reversed(frames):
            seen.setdefault(f.path, None)
    return list(seen)


def missing(files: Iterable[str], search_path: Sequence[str], tops: frozenset[str]) -> list[Missing]:
    """The distributions owning ``files`` (in site-packages of ``search_path``) whose package is not in ``tops``."""
    dirs = sorted({os.path.normpath(p) for p in search_path if os.path.basename(os.path.normpath(p)) in SITE_DIRS},
                  key=len, reverse=True)
    owners: dict[str, dict[str, tuple[str, str]]] = {}
    out: dict[str, Missing] = {}
    for path in files:
        norm = os.path.normpath(path)
        for d in dirs:
            if not norm.startswith(d + os.sep):
                continue
            top = norm[len(d) + 1:].split(os.sep, 1)[0].removesuffix(".py")
            if top not in tops and top.isidentifier():
                if d not in owners:
                    owners[d] = _owners(d)
                found = owners[d].get(top)
                if found is not None and found[0] not in out:
                    out[found[0]] = Missing(found[0], found[1], d, top)
            break
    return list(out.values())[:MAX_PER_ERROR]


def _owners(site_dir: str) -> dict[str, tuple[str, str]]:
    """Top-level package -> (distribution, version) for the ``*.dist-info`` directories of ``site_dir``."""
    out: dict[str, tuple[str, str]] = {}
    try:
        entries = sorted(os.listdir(site_dir))
    except OSError:
        return out
    for entry in entries:
        if not entry.endswith(".dist-info"):
            continue
        name, _, version = entry.removesuffix(".dist-info").partition("-")
        base = os.path.join(site_dir, entry)
        for top in _tops(base):
            out.setdefault(top, (name, version))
    return out


def _tops(dist_info: str) -> set[str]:
    tops: set[str] = set()
    try:
        with open(os.path.join(dist_info, "top_level.txt"), encoding="utf-8", errors="replace") as fh:
            tops = {line.strip() for line in fh if line.strip()}
    except OSError:
        pass
    if tops:
        return tops
    try:
        with open(os.path.join(dist_info, "RECORD"), encoding="utf-8", errors="replace") as fh:
            for line in fh:
                first = line.split(",", 1)[0].split("/", 1)[0]
                if first and not first.endswith((".dist-info", ".data", ".pth")) and first != "..":
                    tops.add(first.removesuffix(".py"))
    except OSError:
        pass
    return tops


def index_missing(catalog: Catalog, parsed: Parsed, search_path: Sequence[str], python: str | None,
                  tops: frozenset[str]) -> list[str]:
    """Index (and analyse) the distributions the traceback passes through that the catalog lacks.

    Returns the repos indexed.  Progress and failures go to stderr, one line
    each: the user is waiting for their traceback's explanation.
    """
    todo = missing(frame_files(parsed), search_path, tops)
    if not todo:
        return []
    known = {(s.source, s.version) for s in catalog.snapshots()}
    done: list[str] = []
    for m in todo:
        spec = f"installed:{m.name}"
        if (spec, m.version) in known:
            continue  # indexed before (with no site in this package): nothing new to find
        sys.stderr.write(f"errdex: indexing {m.name} {m.version} from {m.site_dir} (first error from it) ...\n")
        sys.stderr.flush()
        try:
            done.append(_index_and_analyse(catalog, spec, python, search_path))
        except Exception as exc:  # one distribution that cannot be indexed must not stop the answer
            sys.stderr.write(f"errdex: could not index {m.name}: {exc}\n")
    return done


def _index_and_analyse(catalog: Catalog, spec: str, python: str | None, search_path: Sequence[str]) -> str:
    from errdex.analyze.run import analyze_snapshot
    from errdex.commands.index import _result_cache, index_one

    stats = index_one(catalog, spec, repo=None, commit=None, ref=None, jobs=None, cache=_result_cache(True),
                      python=python, search_path=search_path)
    report = analyze_snapshot(catalog, stats.snapshot)
    catalog.put_analyses(report.analyses)
    return stats.snapshot.repo
