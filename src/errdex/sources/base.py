"""What a source hands to extraction: a snapshot and the Python files under a root."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from errdex.model import FileFailure, Snapshot


class SourceError(Exception):
    """A source that cannot be opened: the message names what and where."""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One file to extract from.

    ``path`` is package-relative with "/" separators (``jax/_src/pxla.py``),
    the same path that sites and links use; ``abspath`` is where it is on disk.
    ``is_test`` marks files under a tests folder, named ``test_*.py``, or an
    ``X_test.py`` beside its ``X.py`` (``files.tree_tests``): they give
    evidence (tests that expect an error) but no error sites.  When
    ``member`` is set, ``abspath`` is a wheel and the file is that member of
    it, read in place (``inplace.py``), of ``size`` bytes.
    """

    path: str
    abspath: Path
    is_test: bool = False
    member: str = ""
    size: int = 0


@dataclass(frozen=True, slots=True)
class SourceTree:
    """A snapshot and its files, ready for extraction (on disk, read-only).

    ``skipped`` are files left out because their path breaks the name rule
    (``sources/names.py``); extraction puts them on the skipped-files ledger.
    """

    snapshot: Snapshot
    root: Path
    files: tuple[SourceFile, ...]
    skipped: tuple[FileFailure, ...] = ()
