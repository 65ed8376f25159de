"""Version inference: which indexed versions of a library fit a traceback (or raise a message).

A catalog may hold several versions of a library side by side.  The top
match names an Error; this module says in which of those versions the
user's input can have happened:

- with a traceback, a version fits when it raises the Error and every frame
  of the traceback inside the library shows the very line that version's
  file has at that number (the catalog keeps a digest of every line,
  ``extract/lines.py``).  One changed line in any file of the call chain
  rules a version out, so a traceback of 0.10.2 names only 0.10.2 unless the
  files it passes through are the same in another version;
- for a catalog indexed without line digests, the innermost frame must lie
  within the Error's raise statement in that version (weaker, said so);
- with a message alone, a version fits when one of its templates for the
  Error produces exactly that message.

The answer is on the top match (``Match.versions``, newest first), and
``Match.versions_checked`` says how many versions of the repo were looked at.

``errdex explain`` must stay instant (docs/runtime.md): this module imports
neither the catalog package nor the data model.  It works on the catalog's
JSON rows as plain dicts, read straight from a SQLite file that
``match.store.CatalogFile`` has not opened, else through the ``Catalog``.
"""

from __future__ import annotations

import json
import sqlite3

from errdex.digests import digests_of, line_digest
from errdex.links import source_url
from errdex.match import verify as V
from errdex.match.frames import library_path
from errdex.match.index import MatchIndex, _edges_stripped
from errdex.match.model import Explanation, Frame, Match, Parsed, VersionFit
from errdex.match.store import CatalogFile, read_only_uri
from errdex.record import dataclass, replace

TYPE_CHECKING = False
if TYPE_CHECKING:  # no ``typing`` at run time
    from typing import Any

    from errdex.catalog.base import Catalog

_NEWEST = "s.sort_date DESC, s.seq DESC"


@dataclass(frozen=True, slots=True)
class Facts:
    """What inference needs of the catalog, as JSON rows (``model.to_json`` shapes)."""

    snapshots: list[tuple[str, dict[str, Any]]]  # (key, snapshot) of the error's repo, newest first
    sites: dict[str, dict[str, Any]]  # snapshot key -> the error's site there
    digests: dict[str, dict[str, bytes]]  # snapshot key -> path -> line digests (``Catalog.line_digests``)


def with_versions(catalog: Catalog, idx: MatchIndex, result: Explanation) -> Explanation:
    """``result`` with the top match's ``versions`` and ``versions_checked`` filled."""
    if not result.matches:
        return result
    top = result.matches[0]
    package = _strip_prefix(idx, top.path).split("/", 1)[0]
    frames = library_frames(idx, result.parsed, package)
    facts = read_facts(catalog, top.id, [p for p, _, _ in frames])
    if facts is None:
        return result
    fits = by_frames(facts, frames) if frames else by_message(facts, result.parsed)
    best = replace(top, versions=tuple(fits), versions_checked=len(facts.snapshots))
    return replace(result, matches=(best, *result.matches[1:]))


def _strip_prefix(idx: MatchIndex, path: str) -> str:
    """A match's repo-relative path made package-relative (``src/pkg/m.py`` -> ``pkg/m.py``)."""
    parts = path.split("/")
    for i, part in enumerate(parts):
        if part in idx.tops:
            return "/".join(parts[i:])
    return path


# --------------------------------------------------------------------------- reading the catalog


def read_facts(catalog: Catalog, error_id: str, paths: list[str]) -> Facts | None:
    """The error's sites, its repo's snapshots and the digests of ``paths``; None for an unknown id."""
    if isinstance(catalog, CatalogFile) and not catalog.opened:
        try:
            return _read_file(catalog.path, error_id, paths)
        except sqlite3.Error:
            pass  # an older catalog (no file_lines table): ask the catalog itself
    from errdex.model import to_json

    record = catalog.get_error(error_id)
    if record is None:
        return None
    repo = record.latest[0].repo
    return Facts(
        snapshots=[(s.key, to_json(s)) for s in catalog.snapshots(repo)],
        sites={s.key: to_json(x) for s, x in record.sites},
        digests=catalog.line_digests(repo, paths),
    )


def _read_file(path: str, error_id: str, paths: list[str]) -> Facts | None:
    """``read_facts`` of a SQLite catalog file, read-only, without importing the catalog package
    (the same statements as ``catalog/sql.py``'s ``get_error``, ``snapshots`` and ``line_digests``)."""
    conn = sqlite3.connect(read_only_uri(path), uri=True)
    try:
        rows = conn.execute(
            f"SELECT s.key, s.repo, x.json FROM sites x JOIN snapshots s ON s.id = x.snapshot_id"
            f" WHERE x.error_id = ? ORDER BY {_NEWEST}, x.id", (error_id,)).fetchall()
        if not rows:
            return None
        repo = str(rows[0][1])
        snaps = conn.execute(f"SELECT s.key, s.json FROM snapshots s WHERE s.repo = ? ORDER BY {_NEWEST}",
                             (repo,)).fetchall()
        wanted = sorted(set(paths))[:200]
        marks = ", ".join("?" for _ in wanted)
        cond = f"f.path = '' OR f.path IN ({marks})" if wanted else "f.path = ''"
        lines = conn.execute(
            f"SELECT s.key, f.path, f.digests FROM file_lines f JOIN snapshots s ON s.id = f.snapshot_id"
            f" WHERE s.repo = ? AND ({cond})", (repo, *wanted)).fetchall()
    finally:
        conn.close()
    sites: dict[str, dict[str, Any]] = {}
    for key, _, site in rows:
        sites.setdefault(str(key), json.loads(site))
    digests: dict[str, dict[str, bytes]] = {}
    for key, p, d in lines:
        files = digests.setdefault(str(key), {})
        if p:
            files[str(p)] = bytes(d)
    return Facts(snapshots=[(str(k), json.loads(j)) for k, j in snaps], sites=sites, digests=digests)


# --------------------------------------------------------------------------- frames


def library_frames(idx: MatchIndex, parsed: Parsed, package: str) -> list[tuple[str, int | None, str]]:
    """(catalog path, line, code) of the frames of every exception of the input inside ``package``."""
    out: list[tuple[str, int | None, str]] = []
    chain_frames = [f for e in parsed.chain for f in e.frames]
    for f in [*chain_frames, *parsed.frames]:
        path = library_path(idx, f.path)
        if path is None or not path.startswith(package + "/"):
            continue
        item = (path, f.line, _first_line(f))
        if item in out:
            out.remove(item)  # keep one, at its latest position
        out.append(item)
    return out


def _first_line(f: Frame) -> str:
    return f.code.split("\n", 1)[0].strip()


def by_frames(facts: Facts, frames: list[tuple[str, int | None, str]]) -> list[VersionFit]:
    """The versions that raise the Error and whose files hold every frame's line."""
    fits: list[VersionFit] = []
    for key, snap in facts.snapshots:
        site = facts.sites.get(key)
        if site is None:
            continue
        files = facts.digests.get(key)
        if files is None:  # indexed without line digests: only the raise statement can be checked
            if _raise_line_fits(site, frames[-1]):
                fits.append(_fit(key, snap, site, "raise-line", 1))
            continue
        if all(_line_fits(files.get(path), line, code) for path, line, code in frames):
            fits.append(_fit(key, snap, site, "frames", len(frames)))
    return fits


def _line_fits(data: bytes | None, line: int | None, code: str) -> bool:
    if data is None:
        return False  # the version has no such file
    if line is None:
        return True
    lines = digests_of(data)
    if not 1 <= line <= len(lines):
        return False
    return not code or lines[line - 1] == line_digest(code)


def _raise_line_fits(site: dict[str, Any], frame: tuple[str, int | None, str]) -> bool:
    path, line, code = frame
    lo, hi = int(site.get("line") or 0), int(site.get("end_line") or 0)
    if path != site.get("path") or line is None or not lo <= line <= max(hi, lo):
        return False
    snippet, start = str(site.get("snippet") or ""), int(site.get("snippet_start") or 0)
    if code and snippet and start:
        lines = snippet.split("\n")
        k = line - start
        if 0 <= k < len(lines):
            return lines[k].strip() == code
    return True


# --------------------------------------------------------------------------- messages


def by_message(facts: Facts, parsed: Parsed) -> list[VersionFit]:
    """The versions one of whose templates for the Error produces exactly the message."""
    texts = _messages(parsed)
    fits: list[VersionFit] = []
    for key, snap in facts.snapshots:
        site = facts.sites.get(key)
        if site is not None and texts and _produces(site, texts):
            fits.append(_fit(key, snap, site, "message", 0))
    return fits


def _messages(parsed: Parsed) -> list[str]:
    out: list[str] = []
    for m in [parsed.message, *(e.message for e in parsed.chain)]:
        m = m.strip()
        if len(m) >= 2 and m[0] == m[-1] and m[0] in "'\"":
            out.append(V.normalize(V.clip(m[1:-1])).strip())  # a KeyError prints repr() of its message
        if m:
            out.append(V.normalize(V.clip(m)).strip())
    return list(dict.fromkeys(out))


def _produces(site: dict[str, Any], texts: list[str]) -> bool:
    name = str(site.get("exception_resolved") or site.get("exception") or "").rsplit(".", 1)[-1]
    for tmpl in site.get("templates") or ():
        segs = _edges_stripped(tuple(
            (s.get("expr") is None, V.normalize(s.get("text") or "") if s.get("expr") is None else str(s["expr"]))
            for s in tmpl.get("segments") or ()), name == "KeyError")
        if not any(lit and t.strip() for lit, t in segs):
            continue  # a template without literal text produces any message: no evidence
        if any(V.verify(segs, t).exact for t in texts):
            return True
    return False


def _fit(key: str, snap: dict[str, Any], site: dict[str, Any], evidence: str, frames: int) -> VersionFit:
    pin = str(snap.get("commit") or snap.get("ref") or "unknown")
    short = pin[:10] if len(pin) == 40 and all(c in "0123456789abcdef" for c in pin) else pin
    prefix, path = str(snap.get("path_prefix") or ""), str(site.get("path") or "")
    line, end = int(site.get("line") or 0), int(site.get("end_line") or 0)
    return VersionFit(
        snapshot=key, version=str(snap.get("version") or snap.get("ref") or short),
        evidence=evidence,  # type: ignore[arg-type]
        frames=frames, path=f"{prefix}{path}", line=line,
        url=source_url(str(snap.get("url_base") or ""), prefix, path, line, end),
    )


def describe(match: Match) -> str:
    """"fits jax 0.10.1, 0.10.2" / "only jax 0.10.2" / "fits no indexed version of jax": for CLI and page."""
    name = match.repo.rsplit("/", 1)[-1]
    versions = [v.version for v in match.versions]
    n = match.versions_checked
    if not n:
        return ""
    if not versions:
        return f"fits no indexed version of {name} ({n} checked)"
    if match.versions[0].evidence == "message":
        if n == 1:
            return f"{name} {versions[0]} raises this message (the only version indexed)"
        if len(versions) == 1:
            return f"only {name} {versions[0]} raises this message (of {n} versions indexed)"
        return f"raised by {name} {', '.join(versions)} (of {n} versions indexed)"
    how = ("every library frame checked" if match.versions[0].evidence == "frames"
           else "raise line checked; no line digests")
    if n == 1:
        return f"fits {name} {versions[0]} (the only version indexed; {how})"
    if len(versions) == 1:
        return f"only {name} {versions[0]} ({how}, of {n} versions indexed)"
    return f"fits {name} {', '.join(versions)} ({how}, of {n} versions indexed)"
