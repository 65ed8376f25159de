"""The sources stage (see DESIGN.md): where the code to index comes from.

``open_source(spec)`` is the one entry point: a directory or git checkout, a
wheel / sdist / zip file, ``pypi:NAME[==VERSION]`` or ``installed:NAME``.  It
yields a SourceTree (snapshot + files on disk) and cleans up any temporary
unpacking when the ``with`` block ends.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from errdex.sources.base import SourceError, SourceFile, SourceTree
from errdex.sources.local import Overrides, archive_kind, open_archive, open_directory
from errdex.sources.packages import open_installed, open_pypi

__all__ = ["SourceError", "SourceFile", "SourceTree", "open_source"]


@contextlib.contextmanager
def open_source(
    spec: str, *, repo: str | None = None, commit: str | None = None, ref: str | None = None,
    python: str | None = None, search_path: Sequence[str] | None = None,
) -> Iterator[SourceTree]:
    """Open ``spec`` as a SourceTree; SourceError (naming the source) when it cannot be.

    ``python`` / ``search_path``: where ``installed:NAME`` looks (another interpreter's environment).
    """
    ov = Overrides(repo=repo, commit=commit, ref=ref)
    if repo is not None and not _valid_repo(repo):
        raise SourceError(f"--repo {repo!r}: expected OWNER/NAME")
    if spec.startswith("pypi:"):
        with open_pypi(spec, ov) as tree:
            yield tree
        return
    if spec.startswith("installed:"):
        with open_installed(spec, ov, python=python, search_path=search_path) as tree:
            yield tree
        return
    path = Path(spec).expanduser()
    if path.is_file() or (archive_kind(path) is not None and not path.is_dir()):
        with open_archive(path, str(path.resolve()), ov) as tree:
            yield tree
        return
    yield open_directory(path, spec, ov)


def _valid_repo(repo: str) -> bool:
    parts = repo.split("/")
    return len(parts) == 2 and all(parts) and all(" " not in p for p in parts)
