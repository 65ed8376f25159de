"""``explain``: from pasted text to ranked raise sites (or to "no raise site produced this").

The stages: parse the text (``traceback.py``), map its frames onto the
catalog's files, retrieve and verify candidate templates for each exception
of the input (``rank.py``), let the innermost library frame pin or veto
sites, and classify errors that no raise statement produced (``origin.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from errdex.catalog.base import Catalog
from errdex.match import rank as R
from errdex.match import verify as V
from errdex.match.index import (
    S_EXC,
    S_ID,
    S_KIND,
    S_LINE,
    S_PATH,
    S_QUAL,
    S_SNAP,
    T_RENDER,
    T_SITE,
    MatchIndex,
    index_for,
    words,
)
from errdex.match.model import (
    Explanation,
    Frame,
    LibraryFrame,
    Match,
    Method,
    NoSite,
    Parsed,
    ParsedException,
    Value,
)
from errdex.match.origin import classify
from errdex.match.traceback import parse

_SECONDARY = 0.9  # a cause or context of the reported exception, not the exception itself
_VETO = 0.55  # the traceback shows the error surfaced elsewhere than at this site


def explain(catalog: Catalog, text: str, *, top: int = 5, repo: str | None = None) -> Explanation:
    """The raise sites of ``catalog`` that best explain ``text`` (a message or a traceback)."""
    return explain_parsed(index_for(catalog, repo), parse_safely(text), top=top)


def parse_safely(text: str) -> Parsed:
    """``parse``, and if it ever fails, the whole text as a bare message (never a crash)."""
    try:
        return parse(text)
    except Exception:  # the parser is property-tested never to raise; this is the last guard
        return Parsed(format="message", message=text.strip())


def explain_parsed(idx: MatchIndex, parsed: Parsed, *, top: int = 5) -> Explanation:
    """``explain`` on an already parsed input and a loaded index (what the benchmark times)."""
    frames = _frames_for_pinning(parsed)
    lib = [(f, p) for f in frames if (p := library_path(idx, f.path)) is not None]
    innermost = frames[-1] if frames else None
    innermost_lib = lib[-1] if lib else None
    pins: set[int] = set()
    surfaced_in_lib = innermost is not None and innermost_lib is not None and innermost_lib[0] is innermost
    if surfaced_in_lib and innermost_lib is not None:
        pins = set(R.pinned_sites(idx, innermost_lib[1], innermost_lib[0].line))
    filtered = any("JAX_TRACEBACK_FILTERING" in n for n in parsed.notes) or _looks_filtered(frames)
    elsewhere = innermost is not None and not filtered and (not surfaced_in_lib or not pins)

    best: dict[int, R.Scored] = {}
    for exc, factor in _exceptions(parsed):
        text = V.clip(V.normalize(exc.message)).strip()
        text_words = frozenset(words(text))
        cands = set(R.retrieve(idx, text)) if text else set()
        for s in pins:
            cands.update(idx.site_templates[s])
        for tno in cands:
            score, method, vals = R.score_template(idx, tno, text, text_words, exc.exception_name)
            site = int(str(idx.templates[tno][T_SITE]))
            pinned = site in pins
            score, method = _frame_evidence(idx, site, score, method, pinned, elsewhere, innermost_lib,
                                            exc.exception_name)
            score *= factor
            prev = best.get(site)
            if prev is None or score > prev.score:
                best[site] = R.Scored(tno, site, score, method, pinned, vals)
    ranked = sorted(best.values(), key=lambda c: (-c.score, str(idx.sites[c.site][S_ID])))
    matches = tuple(_match(idx, c) for c in ranked[: max(top, 0)] if c.score > 0.0)
    confident = bool(matches) and matches[0].score >= R.THRESHOLD
    no_site = _no_site(idx, parsed, innermost, innermost_lib, surfaced_in_lib, pins, elsewhere, confident)
    return Explanation(matches=matches, parsed=parsed, confident=confident, threshold=R.THRESHOLD,
                       no_site=no_site)


def _frame_evidence(
    idx: MatchIndex, site: int, score: float, method: str, pinned: bool, elsewhere: bool,
    innermost_lib: tuple[Frame, str] | None, exc_name: str,
) -> tuple[float, Method]:
    """Raise a site the innermost library frame points into; lower the others when it points elsewhere."""
    m: Method = "exact" if method == "exact" else "fuzzy"
    if pinned:
        raised = str(idx.sites[site][S_EXC]).rsplit(".", 1)[-1]
        agree = R.type_factor(exc_name, raised, raised) >= 0.9
        if m == "exact":
            return 1.0 - (1.0 - score) * 0.3, m
        if agree:
            return max(score, 0.86), "frame"
        return score, m
    if innermost_lib is not None:
        path, lo, hi = R.site_range(idx, site)
        line = innermost_lib[0].line or 0
        if path == innermost_lib[1]:
            # same file, other lines: a nearby version of the code (lines moved)
            near = 0.02 if abs(line - lo) < 60 or abs(line - hi) < 60 else 0.0
            return score * (0.95 if elsewhere else 1.0) + near, m
    if elsewhere:
        return score * _VETO, m
    return score, m


def _exceptions(parsed: Parsed) -> Iterable[tuple[ParsedException, float]]:
    """The reported exception first, then up to three others of its chain or group."""
    chain = parsed.chain or (ParsedException(parsed.exception, parsed.message, parsed.frames),)
    primary = [e for e in chain if e.exception == parsed.exception and e.message == parsed.message][:1]
    yield (primary[0] if primary else chain[-1]), 1.0
    others = [e for e in reversed(chain) if e.role not in ("wrapper",) and e not in primary]
    for e in others[:3]:
        yield e, (1.0 if e.role == "group-member" else _SECONDARY)


def _frames_for_pinning(parsed: Parsed) -> list[Frame]:
    """The reported exception's frames, or a wrapper's unfiltered ones (JAX) when they go deeper."""
    frames = list(parsed.frames)
    for e in parsed.chain:
        if e.role == "wrapper" and e.message.split("\n", 1)[0] == parsed.message.split("\n", 1)[0]:
            if len(e.frames) > len(frames):
                frames = list(e.frames)
    return frames


def _looks_filtered(frames: list[Frame]) -> bool:
    return any("traceback_util.py" in f.path and f.function == "reraise_with_filtered_traceback"
               for f in frames[-1:])


def library_path(idx: MatchIndex, path: str) -> str | None:
    """The catalog path of a printed frame file (``.../site-packages/jax/_src/pjit.py``), if any."""
    parts = path.replace("\\", "/").split("/")
    fallback: str | None = None
    for i, part in enumerate(parts):
        if part in idx.tops:
            cand = "/".join(parts[i:])
            if cand in idx.locations:
                return cand
            if fallback is None and cand.endswith(".py") and ("site-packages" in parts[:i] or i == 0):
                fallback = cand
    return fallback


def _no_site(
    idx: MatchIndex, parsed: Parsed, innermost: Frame | None, innermost_lib: tuple[Frame, str] | None,
    surfaced_in_lib: bool, pins: set[int], elsewhere: bool, confident: bool,
) -> NoSite | None:
    lib_frame = _library_frame(idx, innermost_lib) if innermost_lib is not None else None
    if innermost is not None and surfaced_in_lib and not pins:
        origin = classify(parsed.exception, parsed.message, innermost.code)
        if origin == "unknown":
            origin = "native" if innermost.code and "(" in innermost.code else "interpreter"
        return NoSite(origin, "the error surfaced at a library line that is not a raise statement", lib_frame)
    if innermost is not None and elsewhere and not surfaced_in_lib:
        other = "site-packages" in innermost.path or "dist-packages" in innermost.path
        origin = "other-library" if other else "user-code"
        where = "another library" if other else "code outside the indexed libraries"
        return NoSite(origin, f"the error was raised in {where}", lib_frame)
    if not confident:
        origin = classify(parsed.exception, parsed.message, innermost.code if innermost else "")
        return NoSite(origin, "no raise site of the indexed libraries matches the message", lib_frame)
    return None


def _library_frame(idx: MatchIndex, lib: tuple[Frame, str]) -> LibraryFrame:
    frame, path = lib
    site_ids = [s for _, _, s in idx.locations.get(path, ())[:1]]
    repo, url = "", ""
    if site_ids:
        snap = idx.snaps[int(str(idx.sites[site_ids[0]][S_SNAP]))]
        repo = snap[0]
        base = snap[2].rstrip("/")
        if base:
            url = f"{base}/{snap[3]}{path}" + (f"#L{frame.line}" if frame.line else "")
    return LibraryFrame(repo=repo, path=path, line=frame.line, function=frame.function, code=frame.code, url=url)


def _match(idx: MatchIndex, c: R.Scored) -> Match:
    site = idx.sites[c.site]
    snap = idx.snaps[int(str(site[S_SNAP]))]
    path, line, end = R.site_range(idx, c.site)
    return Match(
        id=str(site[S_ID]),
        score=round(c.score, 4),
        kind=str(site[S_KIND]),
        exception=str(site[S_EXC]),
        template=str(idx.templates[c.template][T_RENDER]),
        values=tuple(Value(p, v) for p, v in c.values),
        repo=snap[0],
        commit=snap[1],
        path=f"{snap[3]}{site[S_PATH]}",
        line=int(str(site[S_LINE])),
        url=idx.url(site),
        end_line=end,
        qualname=str(site[S_QUAL]),
        method="frame" if c.method == "frame" else ("exact" if c.method == "exact" else "fuzzy"),
        pinned_by_frame=c.pinned,
        confident=c.score >= R.THRESHOLD,
    )


__all__ = ["explain", "explain_parsed", "library_path", "parse", "parse_safely"]
