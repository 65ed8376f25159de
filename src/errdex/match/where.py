"""Where one exception of a pasted traceback was raised, as its frames say: the innermost frame, the
innermost library frame and the sites it pins (``explain``), and, when no site raised it, what did
(``no_site``: compiled code, the interpreter, code the library generated, the user's code, another
library).
"""

from __future__ import annotations

from errdex.match import rank as R
from errdex.match.frames import generated, library_path
from errdex.match.index import S_SNAP, MatchIndex
from errdex.match.model import Frame, LibraryFrame, NoSite, Origin, Parsed
from errdex.match.origin import classify
from errdex.record import dataclass


@dataclass(frozen=True, slots=True)
class Where:
    """What one exception's frames say about where it was raised."""

    innermost: Frame | None = None
    innermost_lib: tuple[Frame, str] | None = None  # the frame and its catalog path
    pins: frozenset[int] = frozenset()  # sites whose line range holds the innermost frame
    surfaced_in_lib: bool = False  # the innermost frame is a library frame (or code the library generated)
    elsewhere: bool = False  # the frames show it was raised at no raise site of the catalog
    generated: bool = False  # the innermost frame is code the library generated at run time (no file)


def where(idx: MatchIndex, frames: list[Frame], notes: tuple[str, ...]) -> Where:
    if not frames:
        return Where()
    lib = [(f, p) for f in frames if (p := library_path(idx, f.path)) is not None]
    innermost = frames[-1]
    innermost_lib = lib[-1] if lib else None
    surfaced = innermost_lib is not None and innermost_lib[0] is innermost
    pins: frozenset[int] = frozenset()
    if surfaced and innermost_lib is not None:
        pins = frozenset(R.pinned_sites(idx, innermost_lib[1], innermost_lib[0].line))
    made = not surfaced and generated(idx, frames)  # raised in the library's code, at no site of a file
    filtered = any("JAX_TRACEBACK_FILTERING" in n for n in notes) or looks_filtered(frames)
    elsewhere = not filtered and (not surfaced or not pins)
    return Where(innermost, innermost_lib, pins, surfaced or made, elsewhere, made)


def looks_filtered(frames: list[Frame]) -> bool:
    return any("traceback_util.py" in f.path and f.function == "reraise_with_filtered_traceback"
               for f in frames[-1:])




_COMPILED = (".pyx", ".pxd", ".pxi")


def no_site(idx: MatchIndex, parsed: Parsed, w: Where, confident: bool, exact: bool = False) -> NoSite | None:
    """Why no raise site of the indexed libraries produced the error, or None when one may have: the frames say
    where it surfaced (compiled code, generated code, a line that raises nothing, another library), or, with
    no frame deciding, no template reads the message (no confident answer and no ``exact`` reading at the top:
    a group of sites tied on one text, or an exact answer a note took the confidence from, is no verdict of
    "no site")."""
    lib_frame = _library_frame(idx, w.innermost_lib) if w.innermost_lib is not None else None
    innermost = w.innermost
    if innermost is not None and w.surfaced_in_lib and w.innermost_lib is not None \
            and w.innermost_lib[1].endswith(_COMPILED):
        return NoSite("native", f"raised in the library's compiled code (Cython, {w.innermost_lib[1]}); errdex "
                      "indexes Python source only", lib_frame)
    if innermost is not None and w.generated:
        return NoSite("generated", f"raised in code the library generated at run time ({_pseudo_name(innermost.path)}), "
                      "which is in no file that errdex indexes", lib_frame)
    if innermost is not None and w.surfaced_in_lib and not w.pins:
        found = classify(parsed.exception, parsed.message, innermost.code)
        if found == "unknown":
            found = "native" if innermost.code and "(" in innermost.code else "interpreter"
        return NoSite(found, "the error surfaced at a library line that is not a raise statement", lib_frame)
    if innermost is not None and w.elsewhere and not w.surfaced_in_lib:
        other = "site-packages" in innermost.path or "dist-packages" in innermost.path
        origin: Origin = "other-library" if other else "user-code"
        where = "another library" if other else "code outside the indexed libraries"
        dep = _installed_package(innermost.path) if other else ""
        if dep and w.innermost_lib is not None and lib_frame is not None:
            # a dependency's error raised through the indexed library (requests over urllib3)
            caller = lib_frame.repo or w.innermost_lib[1].split("/", 1)[0]
            return NoSite(origin, f"raised in {dep}, called from {caller} ({w.innermost_lib[1]}:{lib_frame.line})",
                          lib_frame)
        if dep:
            where = dep
        return NoSite(origin, f"the error was raised in {where}", lib_frame)
    if not confident and not exact:
        guess = classify(parsed.exception, parsed.message, innermost.code if innermost else "")
        return NoSite(guess, "no raise site of the indexed libraries matches the message", lib_frame)
    return None


def _pseudo_name(path: str) -> str:
    """``<cattrs generated structure X>`` of a printed file name, without a directory put before it."""
    start = path.find("<")
    return path[start:] if start >= 0 else path


def _installed_package(path: str) -> str:
    """``urllib3`` of ``/venv/lib/python3.13/site-packages/urllib3/connection.py`` ("" if none)."""
    parts = path.replace("\\", "/").split("/")
    for i, part in enumerate(parts[:-1]):
        if part in ("site-packages", "dist-packages") and i + 1 < len(parts):
            name = parts[i + 1]
            return name[:-3] if name.endswith(".py") else name
    return ""


def _library_frame(idx: MatchIndex, lib: tuple[Frame, str]) -> LibraryFrame:
    frame, path = lib
    site_ids = [s for _, _, s in idx.locations.get(path, ())[:1]]
    repo, url = "", ""
    if site_ids:
        snap = idx.snaps[idx.sites[site_ids[0]][S_SNAP]]
        repo = snap[0]
        base = snap[2].rstrip("/")
        if base:
            url = f"{base}/{snap[3]}{path}" + (f"#L{frame.line}" if frame.line else "")
    return LibraryFrame(repo=repo, path=path, line=frame.line, function=frame.function, code=frame.code, url=url)
