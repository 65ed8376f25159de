"""The values the match stage hands out: what was parsed, what matched, and why.

``Explanation`` is what ``explain()`` returns; ``errdex.model.to_json`` of it
is the documented JSON of ``errdex explain --json`` and ``POST /api/explain``
(docs/matching.md), so field names here are the JSON's keys.
"""

from __future__ import annotations

from errdex.record import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:  # ``typing`` costs ``errdex explain`` a fifth of Python's start-up: not imported at run time
    from typing import Literal

    Origin = Literal["native", "interpreter", "user-code", "other-library", "generated", "unknown"]
    Method = Literal["exact", "fuzzy", "frame", "class"]
    Role = Literal["primary", "cause", "context", "group-member", "group", "wrapper"]
    Evidence = Literal["frames", "raise-line", "message"]
else:  # only ever used in annotations, which are strings at run time
    Origin = Method = Role = Evidence = str


@dataclass(frozen=True, slots=True)
class Frame:
    """One traceback frame as printed: the file as the user's machine named it."""

    path: str
    line: int | None = None
    function: str = ""
    code: str = ""


@dataclass(frozen=True, slots=True)
class ParsedException:
    """One exception of the input (a chain or group has several), in print order."""

    exception: str  # as printed: "jax.errors.ConcretizationTypeError", "" for a bare message
    message: str
    frames: tuple[Frame, ...] = ()
    notes: tuple[str, ...] = ()
    role: Role = "primary"

    @property
    def exception_name(self) -> str:
        return self.exception.rsplit(".", 1)[-1]


@dataclass(frozen=True, slots=True)
class Parsed:
    """What was understood of the input text.

    ``exception``/``message``/``frames`` are those of the exception the text
    reports (the last one printed, or the leaf of a group); ``chain`` holds
    every exception found, causes first, with its role.
    """

    format: str  # "cpython", "pytest", "ipython", "message", "empty"
    exception: str = ""
    message: str = ""
    frames: tuple[Frame, ...] = ()
    notes: tuple[str, ...] = ()
    chain: tuple[ParsedException, ...] = ()


@dataclass(frozen=True, slots=True)
class Value:
    """The text that filled one placeholder: ``{self.name}`` = ``my_fn``."""

    placeholder: str
    value: str


@dataclass(frozen=True, slots=True)
class VersionFit:
    """One indexed version (snapshot) consistent with the input, and where it raises the error.

    ``evidence``: ``frames`` — every library frame of the traceback shows the
    very line this version has at that number (``frames`` of them checked);
    ``raise-line`` — only the raise site could be checked (a catalog indexed
    without line digests); ``message`` — no traceback: this version raises
    exactly this message.
    """

    snapshot: str  # Snapshot.key
    version: str  # its version, else ref, else short commit
    evidence: Evidence
    frames: int  # library frames checked against this version's lines
    path: str  # where this version raises the error
    line: int
    url: str


@dataclass(frozen=True, slots=True)
class Tied:
    """Another site that raises text the input cannot tell apart from the top match's (``ties.py``)."""

    id: str
    path: str
    line: int
    qualname: str
    exception: str = ""


@dataclass(frozen=True, slots=True)
class Match:
    """One raise site that could have produced the input, with a calibrated score (0–1)."""

    id: str
    score: float
    kind: str
    exception: str
    template: str
    values: tuple[Value, ...]
    repo: str
    commit: str
    path: str
    line: int
    url: str
    end_line: int = 0
    qualname: str = ""
    method: Method = "exact"
    pinned_by_frame: bool = False
    confident: bool = False
    wraps: str | None = None  # id of the match whose whole message one of this template's placeholders holds
    tied: tuple[Tied, ...] = ()  # other sites raising the same text (top match only; empty when frames pin one)
    tied_count: int = 0  # how many sites are tied in all (``tied`` lists at most ``ties.MAX_LISTED``)
    tie_note: str = ""
    url_approximate: bool = False  # ``url`` assumes the package sits at the repository root (a wheel's layout)  # "N places raise this exact message ...": what tells them apart
    versions: tuple[VersionFit, ...] = ()  # top match only: the indexed versions that fit the input, best first
    versions_checked: int = 0  # top match only: how many indexed versions of its repo were checked


@dataclass(frozen=True, slots=True)
class LibraryFrame:
    """The innermost frame inside an indexed library, mapped to its repo path."""

    repo: str
    path: str
    line: int | None
    function: str = ""
    code: str = ""
    url: str = ""


@dataclass(frozen=True, slots=True)
class NoSite:
    """Why no raise site of an indexed library produced this error, and where it surfaced."""

    origin: Origin
    reason: str
    frame: LibraryFrame | None = None


@dataclass(frozen=True, slots=True)
class Explanation:
    """The answer to one ``explain`` call (docs/matching.md documents its JSON)."""

    matches: tuple[Match, ...]
    parsed: Parsed
    confident: bool = False
    threshold: float = 0.5
    no_site: NoSite | None = None
