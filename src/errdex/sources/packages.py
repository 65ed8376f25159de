"""Distributions by name: ``pypi:NAME[==VERSION]`` (via pip) and ``installed:NAME``.

``pypi:`` runs ``pip download --no-deps`` with the running interpreter, so the
user's pip configuration (index URL, proxy, certificates) applies.  The wheel
is fetched first: pip only copies it.  An sdist is different: pip runs the
package's build backend to read its metadata, which would execute indexed
code, so it is fetched only with ``ERRDEX_PYPI_SDIST=1`` (then preferred when
it ships the tests and the wheel does not) or, with the same permission, when
there is no wheel.  Downloads are cached under
``paths.cache_dir()/pypi`` and, for a pinned version, the choice is remembered
so that a second run does not ask the index again.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from errdex import limits, paths
from errdex.model import SourceKind
from errdex.sources.base import SourceError, SourceTree
from errdex.sources.files import colocated_tests, files_from_list, is_test_path
from errdex.sources.local import Overrides, archive_kind, open_archive, open_directory, package_snapshot
from errdex.sources.metadata import DistMeta, repo_and_field
from errdex.sources.unpack_cache import prune, touch

if TYPE_CHECKING:
    import importlib.metadata  # imported where ``installed:`` needs it: the other sources never do

_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")
_VERSION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+!_-]*$")
PIP_TIMEOUT = 600
SDIST_ENV = "ERRDEX_PYPI_SDIST"
CHOICE = "choice.json"  # in a download's folder: the archive picked; its time is the last use


def sdist_allowed() -> bool:
    """Whether ``pypi:`` may fetch an sdist (pip runs its build backend to read its metadata)."""
    return os.environ.get(SDIST_ENV, "") not in ("", "0")


def parse_pypi_spec(spec: str) -> tuple[str, str | None]:
    """``pypi:NAME`` or ``pypi:NAME==VERSION`` → (name, version); SourceError otherwise."""
    body = spec.removeprefix("pypi:").strip()
    name, sep, version = body.partition("==")
    name, version = name.strip(), version.strip()
    if not _NAME.match(name) or (sep and not _VERSION.match(version)):
        raise SourceError(f"{spec}: expected pypi:NAME or pypi:NAME==VERSION")
    return name, (version or None)


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pip_download(req: str, dest: Path, binary: bool) -> tuple[Path | None, str]:
    dest.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
        "--no-input", "-q", "-d", str(dest),
        "--only-binary" if binary else "--no-binary", ":all:", req,
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=PIP_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        return None, f"pip download timed out after {PIP_TIMEOUT}s"
    except OSError as exc:
        return None, f"cannot run pip: {exc}"
    if proc.returncode != 0:
        lines = [ln for ln in (proc.stderr or proc.stdout).strip().splitlines() if ln.strip()]
        return None, lines[-1] if lines else f"pip exited with {proc.returncode}"
    found = [p for p in dest.iterdir() if p.is_file() and archive_kind(p) is not None]
    if not found:
        return None, "pip reported success but left no archive"
    return max(found, key=lambda p: p.stat().st_mtime), ""


def archive_has_tests(archive: Path) -> bool:
    """Whether an sdist ships test files, judged from its member names (nothing unpacked)."""
    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as zf:
                names = zf.namelist()
        else:
            with tarfile.open(archive, "r:*") as tf:
                names = tf.getnames()
    except (tarfile.TarError, zipfile.BadZipFile, OSError, EOFError):
        return False
    paths = [n.split("/", 1)[-1] for n in names if n.endswith(".py")]
    return any(_is_project_test(p) for p in paths) or bool(colocated_tests(paths))  # cirq's wheel ships its tests


def _is_project_test(path: str) -> bool:
    """A test of the project (``tests/...``, a top-level ``test_x.py``), not a helper module
    inside the package such as ``jax/_src/test_util.py`` (tests beside their modules, ``X_test.py``
    next to ``X.py``, are judged over all the paths by ``colocated_tests``)."""
    parts = path.split("/")
    return is_test_path(path) and (len(parts) == 1 or parts[0] in ("tests", "test"))


def fetch_pypi(name: str, version: str | None) -> Path:
    """The archive to index for ``name`` (at ``version``), downloading it if not cached."""
    req = f"{name}=={version}" if version else name
    cache = paths.cache_dir() / "pypi" / f"{_normalize(name)}-{version or 'latest'}"
    choice = cache / CHOICE
    if version and choice.is_file():
        with contextlib.suppress(OSError, ValueError, KeyError):
            chosen = cache / str(json.loads(choice.read_text())["file"])
            if chosen.is_file():
                touch(choice)  # most recently used: pruned last
                return chosen
    wheel, wheel_err = _pip_download(req, cache / "wheel", binary=True)
    if wheel is not None and (archive_has_tests(wheel) or not sdist_allowed()):
        picked = wheel
    else:
        # pip prepares an sdist's metadata by running its build backend (the
        # package's own setup code), so an sdist is fetched only when the
        # user allows it or when there is no wheel at all.
        if wheel is None and not sdist_allowed():
            raise SourceError(
                f"pypi:{req}: no wheel could be downloaded ({wheel_err}); fetching the sdist would run "
                f"the package's build code through pip: set {SDIST_ENV}=1 to allow it"
            )
        sdist, sdist_err = _pip_download(req, cache / "sdist", binary=False)
        if sdist is not None and (wheel is None or archive_has_tests(sdist)):
            picked = sdist
        elif wheel is not None:
            picked = wheel
        else:
            raise SourceError(f"pypi:{req}: pip download failed (sdist: {sdist_err}; wheel: {wheel_err})")
    if version:
        choice.write_text(json.dumps({"file": picked.relative_to(cache).as_posix()}))
    # Bounded like the unpack cache: the least recently used downloads go once the rest exceed the limit.
    prune(cache.parent, limits.current().download_cache_bytes, keep=cache, marker=CHOICE)
    return picked


@contextlib.contextmanager
def open_pypi(spec: str, ov: Overrides) -> Iterator[SourceTree]:
    name, version = parse_pypi_spec(spec)
    archive = fetch_pypi(name, version)
    with open_archive(archive, spec, ov, snapshot_kind="pypi") as tree:
        yield tree


def _meta_of(dist: importlib.metadata.Distribution) -> DistMeta:
    md = dist.metadata
    urls: list[tuple[str, str]] = []
    for value in md.get_all("Project-URL") or []:
        label, _, url = str(value).partition(",")
        urls.append((label, url.strip()))
    home = md.get("Home-page")
    repo, field = repo_and_field(urls, str(home) if home else None)
    return DistMeta(name=str(md.get("Name") or ""), version=dist.version, repo=repo, repo_field=field)


def _editable_dir(dist: importlib.metadata.Distribution) -> Path | None:
    """The project directory of an editable install (PEP 660 ``direct_url.json``)."""
    raw = dist.read_text("direct_url.json")
    if not raw:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not data.get("dir_info", {}).get("editable"):
        return None
    url = urlparse(str(data.get("url", "")))
    if url.scheme != "file":
        return None
    path = Path(unquote(url.path))
    return path if path.is_dir() else None


@contextlib.contextmanager
def open_installed(spec: str, ov: Overrides, *, python: str | None = None,
                   search_path: Sequence[str] | None = None) -> Iterator[SourceTree]:
    """The files an installed distribution recorded (its RECORD), read where they are.

    The distribution is looked up in ``search_path`` (another interpreter's
    ``sys.path``, as the runtime hook sends it), else in the site-packages of
    ``python`` (asked with ``-I -S``: no installed code runs), else in
    errdex's own environment.  Only its metadata is read; nothing is imported.
    """
    name = spec.removeprefix("installed:").strip()
    if not _NAME.match(name):
        raise SourceError(f"{spec}: expected installed:NAME")
    import importlib.metadata

    where = python or sys.executable
    if search_path is None and python is not None:
        from errdex.sources.interpreter import InterpreterError, probe

        try:
            interp = probe(python)
        except InterpreterError as exc:
            raise SourceError(f"{spec}: {exc}") from exc
        search_path = [*interp.site_dirs, *interp.path]
    try:
        if search_path is None:
            dist = importlib.metadata.distribution(name)
        else:
            found = list(importlib.metadata.distributions(name=name, path=list(search_path)))
            if not found:
                raise importlib.metadata.PackageNotFoundError(name)
            dist = found[0]
    except importlib.metadata.PackageNotFoundError as exc:
        raise SourceError(f"{spec}: no distribution named {name!r} is installed for {where}") from exc
    meta = _meta_of(dist)
    root = Path(str(dist.locate_file(""))).resolve()
    files = files_from_list(root, [str(f) for f in dist.files or ()])
    kind: SourceKind = "installed"
    if not files:
        project = _editable_dir(dist)
        if project is None:
            raise SourceError(f"{spec}: the distribution records no Python files")
        # An editable install: its code is the project directory.
        tree = open_directory(project, spec, ov)
        snap = package_snapshot(meta, name, kind, spec, ov, tree.snapshot.date, tree.snapshot.path_prefix)
        if tree.snapshot.commit and not ov.commit:
            from dataclasses import replace

            snap = replace(snap, commit=tree.snapshot.commit, url_base=tree.snapshot.url_base or snap.url_base)
        yield SourceTree(snapshot=snap, root=tree.root, files=tree.files)
        return
    yield SourceTree(snapshot=package_snapshot(meta, name, kind, spec, ov), root=root, files=files)
