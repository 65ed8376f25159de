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

The answer is on the top match (``Match.versions``, best first: the most
frames checked, then the newest), and ``Match.versions_checked`` says how
many versions of the repo were looked at.
"""

from __future__ import annotations

import dataclasses

from errdex.catalog.base import Catalog, ErrorRecord
from errdex.digests import digests_of, line_digest
from errdex.match import verify as V
from errdex.match.index import MatchIndex, _edges_stripped
from errdex.match.model import Explanation, Frame, Match, Parsed, VersionFit
from errdex.model import ErrorSite, Snapshot

LibFrame = tuple[str, int | None, str]  # catalog path, line, code as printed


def with_versions(catalog: Catalog, idx: MatchIndex, result: Explanation) -> Explanation:
    """``result`` with the top match's ``versions`` and ``versions_checked`` filled."""
    if not result.matches:
        return result
    top = result.matches[0]
    record = catalog.get_error(top.id)
    if record is None:
        return result
    snaps = catalog.snapshots(record.latest[0].repo)
    package = record.latest[1].path.split("/", 1)[0]
    frames = library_frames(idx, result.parsed, package)
    fits = by_frames(catalog, record, snaps, frames) if frames else by_message(record, snaps, result.parsed)
    best = dataclasses.replace(top, versions=tuple(fits), versions_checked=len(snaps))
    return dataclasses.replace(result, matches=(best, *result.matches[1:]))


def library_frames(idx: MatchIndex, parsed: Parsed, package: str) -> list[LibFrame]:
    """The frames of every exception of the input that lie in ``package``, innermost of the reported one last."""
    from errdex.match.explain import library_path

    seen: set[tuple[str, int | None, str]] = set()
    out: list[LibFrame] = []
    chain_frames = [f for e in parsed.chain for f in e.frames]
    for f in [*chain_frames, *parsed.frames]:
        path = library_path(idx, f.path)
        if path is None or not path.startswith(package + "/"):
            continue
        item = (path, f.line, _first_line(f))
        if item in seen:
            out.remove(item)  # keep one, at its latest position
        seen.add(item)
        out.append(item)
    return out


def _first_line(f: Frame) -> str:
    return f.code.split("\n", 1)[0].strip()


def by_frames(catalog: Catalog, record: ErrorRecord, snaps: list[Snapshot], frames: list[LibFrame]) -> list[VersionFit]:
    """The versions that raise the Error and whose files hold every frame's line."""
    digests = catalog.line_digests(record.latest[0].repo, [p for p, _, _ in frames])
    sites = {s.key: x for s, x in record.sites}
    fits: list[VersionFit] = []
    for snap in snaps:
        site = sites.get(snap.key)
        if site is None:
            continue
        files = digests.get(snap.key)
        if files is None:  # indexed without line digests: only the raise statement can be checked
            if _raise_line_fits(site, frames[-1]):
                fits.append(_fit(snap, site, "raise-line", 1))
            continue
        if all(_line_fits(files.get(path), line, code) for path, line, code in frames):
            fits.append(_fit(snap, site, "frames", len(frames)))
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


def _raise_line_fits(site: ErrorSite, frame: LibFrame) -> bool:
    path, line, code = frame
    if path != site.path or line is None or not site.line <= line <= max(site.end_line, site.line):
        return False
    if code and site.snippet and site.snippet_start:
        lines = site.snippet.split("\n")
        k = line - site.snippet_start
        if 0 <= k < len(lines):
            return lines[k].strip() == code
    return True


def by_message(record: ErrorRecord, snaps: list[Snapshot], parsed: Parsed) -> list[VersionFit]:
    """The versions one of whose templates for the Error produces exactly the message."""
    texts = _messages(parsed)
    sites = {s.key: x for s, x in record.sites}
    fits: list[VersionFit] = []
    for snap in snaps:
        site = sites.get(snap.key)
        if site is not None and texts and _produces(site, texts):
            fits.append(_fit(snap, site, "message", 0))
    return fits


def _messages(parsed: Parsed) -> list[str]:
    raw = [parsed.message, *(e.message for e in parsed.chain)]
    out: list[str] = []
    for m in raw:
        m = m.strip()
        if len(m) >= 2 and m[0] == m[-1] and m[0] in "'\"":
            out.append(V.normalize(V.clip(m[1:-1])).strip())  # a KeyError prints repr() of its message
        if m:
            out.append(V.normalize(V.clip(m)).strip())
    return list(dict.fromkeys(out))


def _produces(site: ErrorSite, texts: list[str]) -> bool:
    for tmpl in site.templates:
        segs = _edges_stripped(tuple((s.is_literal, V.normalize(s.text) if s.is_literal else (s.expr or ""))
                                     for s in tmpl.segments), site.exception_name == "KeyError")
        if not any(lit and t.strip() for lit, t in segs):
            continue  # a template without literal text produces any message: no evidence
        if any(V.verify(segs, t).exact for t in texts):
            return True
    return False


def _fit(snap: Snapshot, site: ErrorSite, evidence: str, frames: int) -> VersionFit:
    return VersionFit(
        snapshot=snap.key,
        version=snap.version or snap.ref or snap.short_pin,
        evidence=evidence,  # type: ignore[arg-type]
        frames=frames,
        path=f"{snap.path_prefix}{site.path}",
        line=site.line,
        url=snap.source_url(site.path, site.line, site.end_line),
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
    evidence = match.versions[0].evidence
    if evidence == "message":
        if n == 1:
            return f"{name} {versions[0]} raises this message (the only version indexed)"
        if len(versions) == 1:
            return f"only {name} {versions[0]} raises this message (of {n} versions indexed)"
        return f"raised by {name} {', '.join(versions)} (of {n} versions indexed)"
    how = "every library frame checked" if evidence == "frames" else "raise line checked; no line digests"
    if n == 1:
        return f"fits {name} {versions[0]} (the only version indexed; {how})"
    if len(versions) == 1:
        return f"only {name} {versions[0]} ({how}, of {n} versions indexed)"
    return f"fits {name} {', '.join(versions)} ({how}, of {n} versions indexed)"
