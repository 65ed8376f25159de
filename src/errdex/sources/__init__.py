"""The sources stage (see DESIGN.md): where the code to index comes from.

``open_source(spec)`` is the one entry point: a directory or git checkout, a
wheel / sdist / zip file, ``pypi:NAME[==VERSION]`` or ``installed:NAME``.  It
yields a SourceTree (snapshot + files on disk) and cleans up any temporary
unpacking when the ``with`` block ends.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence
from pathlib import Path

from errdex.model import FileFailure
from errdex.sources.base import SourceError, SourceFile, SourceTree
from errdex.sources.local import Overrides, archive_kind, open_archive, open_directory
from errdex.sources.names import InvalidName, check_repo, module_path_problem, printable_path, repo_problem
from errdex.sources.packages import open_installed, open_pypi

__all__ = ["SourceError", "SourceFile", "SourceTree", "open_source"]


@contextlib.contextmanager
def open_source(
    spec: str, *, repo: str | None = None, commit: str | None = None, ref: str | None = None,
    path_prefix: str | None = None, python: str | None = None, search_path: Sequence[str] | None = None,
) -> Iterator[SourceTree]:
    """Open ``spec`` as a SourceTree; SourceError (naming the source) when it cannot be.

    ``path_prefix`` (``--repo-path-prefix``) says where the package sits in the repository
    (``src/``): a wheel does not say, and a ``src/`` layout's links 404 without it.
    ``python`` / ``search_path``: where ``installed:NAME`` looks (another interpreter's environment).
    """
    ov = Overrides(repo=repo, commit=commit, ref=ref, path_prefix=_prefix(path_prefix))
    if repo is not None:
        try:
            check_repo(repo, where="--repo")
        except InvalidName as exc:
            raise SourceError(str(exc)) from None
    if spec.startswith("pypi:"):
        with open_pypi(spec, ov) as tree:
            yield checked(tree, spec)
        return
    if spec.startswith("installed:"):
        with open_installed(spec, ov, python=python, search_path=search_path) as tree:
            yield checked(tree, spec)
        return
    path = Path(spec).expanduser()
    if path.is_file() or (archive_kind(path) is not None and not path.is_dir()):
        with open_archive(path, str(path.resolve()), ov) as tree:
            yield checked(tree, spec)
        return
    yield checked(open_directory(path, spec, ov), spec)


def checked(tree: SourceTree, spec: str) -> SourceTree:
    """The tree as the catalog may hold it: its repo obeys the name rule (the openers made sure;
    this is the last gate), and files whose path breaks it are moved to ``skipped``."""
    problem = repo_problem(tree.snapshot.repo)
    if problem:
        raise SourceError(f"{spec}: repository name {tree.snapshot.repo!r}: {problem}")
    kept: list[SourceFile] = []
    skipped: list[FileFailure] = []
    for f in tree.files:
        why = module_path_problem(f.path)
        if why is None:
            kept.append(f)
        else:
            skipped.append(FileFailure(printable_path(f.path), f"path breaks the module path rule: {printable_path(why)}"))
    if not skipped:
        return tree
    return dataclasses.replace(tree, files=tuple(kept), skipped=(*tree.skipped, *skipped))


def _prefix(prefix: str | None) -> str | None:
    """``src`` / ``src/`` / ``python/pkg/`` as a repo directory ending in ``/`` ("" for the root)."""
    if prefix is None:
        return None
    clean = prefix.strip().strip("/")
    if not clean:
        return ""
    problem = module_path_problem(clean)
    if problem is not None:
        raise SourceError(f"--repo-path-prefix {prefix!r}: {problem}")
    return clean + "/"

