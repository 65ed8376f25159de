"""Sources on this machine: a directory (maybe a git checkout) or an archive file.

Each opener returns a SourceTree whose snapshot says where the code came
from; the caller's ``--repo/--commit/--ref`` override what the source says.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from errdex.model import Snapshot, SourceKind
from errdex.sources.archives import single_top_folder
from errdex.sources.base import SourceError, SourceFile, SourceTree
from errdex.sources.files import package_layout
from errdex.sources.git import git_info
from errdex.sources.inplace import wheel_files
from errdex.sources.metadata import DistMeta, find_metadata, tag_for
from errdex.sources.names import normalise_part, repo_problem
from errdex.sources.unpack_cache import unpack_cached

ARCHIVE_SUFFIXES: tuple[tuple[str, SourceKind], ...] = (
    (".whl", "wheel"),
    (".zip", "zip"),
    (".tar.gz", "sdist"),
    (".tgz", "sdist"),
    (".tar.bz2", "sdist"),
    (".tar.xz", "sdist"),
    (".tar", "sdist"),
)


@dataclass(frozen=True, slots=True)
class Overrides:
    """What the user said on the command line; None means "ask the source"."""

    repo: str | None = None
    commit: str | None = None
    ref: str | None = None
    path_prefix: str | None = None  # where the package sits in the repo (``src/``): --repo-path-prefix


def archive_kind(path: Path) -> SourceKind | None:
    name = path.name.lower()
    for suffix, kind in ARCHIVE_SUFFIXES:
        if name.endswith(suffix):
            return kind
    return None


def url_base(repo: str, pin: str | None, on_github: bool) -> str:
    """``https://github.com/{repo}/blob/{pin}``, or "" when links could not resolve."""
    if not on_github or not pin:
        return ""
    return f"https://github.com/{repo}/blob/{pin}"


def _require_files(files: tuple[SourceFile, ...], where: str) -> None:
    if not files:
        raise SourceError(f"{where}: no Python (.py) files to index")


def open_directory(path: Path, spec: str, ov: Overrides) -> SourceTree:
    """A plain directory, or a git checkout whose origin and HEAD pin the snapshot."""
    if not path.exists():
        raise SourceError(f"{spec}: no such file or directory")
    if not path.is_dir():
        raise SourceError(f"{spec}: not a directory, archive (.whl/.tar.gz/.zip), pypi:NAME or installed:NAME")
    root = path.resolve()
    files, prefix = package_layout(root)
    _require_files(files, spec)
    gi = git_info(root)
    if gi is not None:
        sub = root.relative_to(gi.toplevel.resolve()).as_posix() if root != gi.toplevel.resolve() else ""
        full_prefix = (f"{sub}/" if sub else "") + prefix
        if gi.repo and not ov.repo and (problem := repo_problem(gi.repo)):
            raise SourceError(f"{spec}: git remote 'origin' ({gi.remote_url}): repository name {gi.repo!r}: "
                              f"{problem}; name it with --repo OWNER/NAME")
        repo = ov.repo or gi.repo or f"local/{normalise_part(gi.toplevel.name)}"
        commit = ov.commit or gi.commit
        snap = Snapshot(
            repo=repo,
            commit=commit,
            ref=ov.ref or gi.tag,
            date=gi.date or None,
            source_kind="git",
            source=str(root),
            url_base=url_base(repo, commit, bool(ov.repo or gi.repo)),
            path_prefix=full_prefix if ov.path_prefix is None else ov.path_prefix,
        )
    else:
        repo = ov.repo or f"local/{normalise_part(root.name)}"
        snap = Snapshot(
            repo=repo,
            commit=ov.commit,
            ref=ov.ref,
            source_kind="dir",
            source=str(root),
            url_base=url_base(repo, ov.commit or ov.ref, ov.repo is not None),
            path_prefix=prefix if ov.path_prefix is None else ov.path_prefix,
        )
    return SourceTree(snapshot=snap, root=root, files=files)


def _strip_version_suffix(stem: str) -> str:
    return stem.split("-", 1)[0]


def package_snapshot(
    meta: DistMeta | None, fallback_name: str, kind: SourceKind, source: str, ov: Overrides,
    date: str | None = None, prefix: str = "",
) -> Snapshot:
    """The snapshot of a distribution: repo from its metadata, ref from its version."""
    meta_repo = meta.repo if meta else None
    if meta and meta_repo and not ov.repo and (problem := repo_problem(meta_repo)):
        raise SourceError(f"{source}: METADATA {meta.repo_field or 'Project-URL'}: repository name "
                          f"{meta_repo!r}: {problem}; name it with --repo OWNER/NAME")
    version = meta.version if meta else None
    name = (meta.name if meta and meta.name else fallback_name) or "unknown"
    # The distribution's Name (or the file's) as a repo name: one rule makes it valid (names.py).
    repo = ov.repo or meta_repo or f"local/{normalise_part(name)}"
    on_github = bool(ov.repo or meta_repo)
    if ov.ref:
        ref: str | None = ov.ref
    elif version:
        ref = tag_for(repo, version) if on_github else version
    else:
        ref = None
    return Snapshot(
        repo=repo,
        commit=ov.commit,
        ref=ref,
        date=date,
        source_kind=kind,
        source=source,
        url_base=url_base(repo, ov.commit or ref, on_github),
        path_prefix=prefix if ov.path_prefix is None else ov.path_prefix,
        version=version,
    )


def unpacked_tree(archive: Path, kind: SourceKind, source: str, ov: Overrides,
                  snapshot_kind: SourceKind | None = None) -> SourceTree:
    """Describe ``archive``: a wheel is read in place (``inplace.py``); an sdist or zip, whose
    layout must be found on disk, is unpacked (or its cached copy reused)."""
    fallback = _strip_version_suffix(archive.name)
    if kind == "wheel":
        files, meta, newest = wheel_files(archive)
        _require_files(files, source)
        snap = package_snapshot(meta, fallback, snapshot_kind or kind, source, ov, newest)
        return SourceTree(snapshot=snap, root=archive, files=files)
    info = unpack_cached(archive, kind)
    root = single_top_folder(info.root)
    meta = find_metadata(root)
    files, prefix = package_layout(root)
    _require_files(files, source)
    snap = package_snapshot(meta, fallback, snapshot_kind or kind, source, ov, info.newest, prefix)
    return SourceTree(snapshot=snap, root=root, files=files)


@contextlib.contextmanager
def open_archive(path: Path, spec: str, ov: Overrides, snapshot_kind: SourceKind | None = None) -> Iterator[SourceTree]:
    """An archive unpacked (safely) into the cache (see ``unpack_cache``)."""
    kind = archive_kind(path)
    if kind is None:
        raise SourceError(f"{spec}: unknown archive type (expected .whl, .zip, .tar.gz)")
    if not path.is_file():
        raise SourceError(f"{spec}: no such file")
    yield unpacked_tree(path.resolve(), kind, spec, ov, snapshot_kind)
