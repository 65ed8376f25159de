"""Isolated environments per (library, version, Python), built once and cached.

An environment lives in ``data_dir()/sandbox/envs/<name>-<version>-py<X.Y>-<hash>``
where the hash covers everything that decides its content (the artifact's
sha256 or the pinned requirement, the Python, the test requirements).  It
is built with ``uv`` (the ``uv`` package on PyPI, a dependency of errdex)
into a temporary sibling and renamed into place when complete, under a file
lock, so concurrent runs share one copy and an interrupted build leaves no
half environment.  All builds share one wheel cache
(``data_dir()/sandbox/uv-cache``).  Without uv, ``python -m venv`` and pip.

Installing runs code only for an sdist's build backend (pip and uv build
sdists); the library itself is never imported here.  The library is
installed from the very artifact errdex indexed when there is one, else as
``name==version`` from the index: exactly the indexed version either way.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from errdex import paths
from errdex.sandbox.pythons import PythonInfo, find_python
from errdex.sandbox.testdeps import unpinned

BUILD_TIMEOUT = 1800
ENV_MARKER = "errdex-env.json"
BASE_TEST_REQUIREMENTS = ("pytest",)


class EnvError(Exception):
    """An environment could not be built: the message has the installer's last words."""


@dataclass(frozen=True, slots=True)
class EnvSpec:
    """What goes into an environment.

    ``artifact``: the wheel/sdist errdex indexed (installed as is), else
    None and ``name==version`` is installed.  ``test_requirements``: what
    the project declares for its tests (``testdeps``); pytest is always added.
    ``extra_requirements``: anything else the caller needs (e.g. ``jaxlib``).
    """

    name: str
    version: str
    artifact: Path | None = None
    test_requirements: tuple[str, ...] = ()
    extra_requirements: tuple[str, ...] = ()
    requires_python: str | None = None
    python: str | None = None  # --python: an interpreter path or name


@dataclass(frozen=True, slots=True)
class Environment:
    """A built environment: run ``python`` (never import its packages into errdex)."""

    key: str
    root: Path
    python: Path
    python_version: str
    site_packages: tuple[Path, ...]
    requirement: str
    installed: tuple[str, ...] = ()  # "name==version" of every installed distribution
    builder: str = "uv"
    pins_dropped: bool = False  # the project's own pins did not install: names only were used
    build_s: float = 0.0
    extras: dict[str, str] = field(default_factory=dict)

    @property
    def bin(self) -> Path:
        return self.root / "bin"


def envs_dir() -> Path:
    path = paths.data_dir() / "sandbox" / "envs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def uv_cache_dir() -> Path:
    return paths.data_dir() / "sandbox" / "uv-cache"


def uv_binary() -> str | None:
    """The uv executable: the PyPI package's, else one on PATH."""
    try:
        from uv import find_uv_bin

        return str(find_uv_bin())
    except (ImportError, FileNotFoundError):
        return shutil.which("uv")


def _sha256(path: Path) -> str:
    """The content of an artifact; of a project directory, its files' names, sizes and times."""
    h = hashlib.sha256()
    if path.is_dir():
        for p in sorted(path.rglob("*")):
            rel = p.relative_to(path).parts
            # Not what a build writes into the project (build/, dist/, *.egg-info): building must
            # not make the next run's environment look different.
            if p.is_file() and not any(part in (".git", "__pycache__", "build", "dist")
                                       or part.endswith(".egg-info") for part in rel):
                st = p.stat()
                h.update(f"{'/'.join(rel)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        return h.hexdigest()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in ".-" else "-" for c in text)[:60]


def requirement_of(spec: EnvSpec) -> str:
    if spec.artifact is not None:
        return f"{spec.name} @ {spec.artifact.resolve().as_uri()}"
    return f"{spec.name}=={spec.version}"


def env_key(spec: EnvSpec, python: PythonInfo) -> str:
    what = {
        "library": (spec.artifact and _sha256(spec.artifact)) or f"{spec.name}=={spec.version}",
        "python": python.version,
        "python_path": str(python.path),
        "tests": sorted(spec.test_requirements),
        "extra": sorted(spec.extra_requirements),
        "layout": 1,
    }
    digest = hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:12]
    return f"{_slug(spec.name)}-{_slug(spec.version)}-py{python.minor}-{digest}"


def env_identity(spec: EnvSpec) -> str:
    """What decides an environment's content apart from the interpreter a machine finds for it: the
    library's artifact (its content), the requirements, Requires-Python and ``--python``.  The same
    on a client and on a cluster's workers, so records made by either are recognised by both."""
    what = {
        "library": (spec.artifact and _sha256(spec.artifact)) or f"{spec.name}=={spec.version}",
        "tests": sorted(spec.test_requirements),
        "extra": sorted(spec.extra_requirements),
        "requires_python": spec.requires_python,
        "python": spec.python,
        "layout": 1,
    }
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:16]


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive ``flock`` on ``path`` (created), for work that processes of one machine share."""
    with path.open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _installer_env() -> dict[str, str]:
    """uv/pip read their own configuration (index URL, proxy, certificates) from here."""
    env = dict(os.environ)
    env["UV_CACHE_DIR"] = str(uv_cache_dir())
    env.setdefault("UV_LINK_MODE", "copy")
    env.pop("VIRTUAL_ENV", None)
    # pip's find-links / extra index, which uv does not read from pip.conf, when given by variable.
    if "PIP_FIND_LINKS" in env and "UV_FIND_LINKS" not in env:
        env["UV_FIND_LINKS"] = env["PIP_FIND_LINKS"]
    if "PIP_INDEX_URL" in env and "UV_INDEX_URL" not in env:
        env["UV_INDEX_URL"] = env["PIP_INDEX_URL"]
    return env


def _call(cmd: Sequence[str], what: str) -> None:
    try:
        proc = subprocess.run(list(cmd), capture_output=True, text=True, timeout=BUILD_TIMEOUT,
                              env=_installer_env(), check=False)
    except subprocess.TimeoutExpired as exc:
        raise EnvError(f"{what}: timed out after {BUILD_TIMEOUT}s") from exc
    except OSError as exc:
        raise EnvError(f"{what}: cannot run {cmd[0]} ({exc})") from exc
    if proc.returncode != 0:
        lines = [ln for ln in (proc.stderr + proc.stdout).strip().splitlines() if ln.strip()]
        raise EnvError(f"{what} failed: " + " | ".join(lines[-8:]))


def _install(builder: str, uv: str | None, target: Path, python: PythonInfo, reqs: Sequence[str]) -> None:
    if builder == "uv" and uv:
        _call([uv, "pip", "install", "--quiet", "--python", str(target / "bin" / "python"), *reqs],
              "uv pip install")
    else:
        _call([str(target / "bin" / "python"), "-m", "pip", "install", "--quiet",
               "--disable-pip-version-check", *reqs], "pip install")


def _inspect(python: Path) -> tuple[tuple[Path, ...], tuple[str, ...]]:
    """site-packages and installed distributions, asked of the environment's interpreter with -I -S
    (no site, so no installed ``.pth`` file runs): importlib.metadata reads the .dist-info folders."""
    code = (
        "import json, sys, sysconfig; v = {'base': sys.argv[1], 'platbase': sys.argv[1]}; "
        "p = sysconfig.get_paths(vars=v); sites = sorted({p['purelib'], p['platlib']}); "
        "sys.path[:0] = sites; import importlib.metadata as m; "
        "print(json.dumps([sites, sorted({d.metadata['Name'] + '==' + d.version "
        "for d in m.distributions(path=sites)})]))"
    )
    proc = subprocess.run([str(python), "-I", "-S", "-c", code, str(python.parent.parent)], capture_output=True, text=True,
                          timeout=60, check=False)
    if proc.returncode != 0:
        raise EnvError(f"cannot inspect {python}: {proc.stderr.strip()[-300:]}")
    sites, dists = json.loads(proc.stdout)
    return tuple(Path(s) for s in sites), tuple(dists)


def _build(spec: EnvSpec, python: PythonInfo, dest: Path, key: str) -> Environment:
    uv = uv_binary()
    builder = "uv" if uv else "venv+pip"
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{key}-", dir=dest.parent))
    start = time.monotonic()
    try:
        if uv:
            _call([uv, "venv", "--quiet", "--relocatable", "--python", str(python.path), str(tmp)], "uv venv")
        else:
            _call([str(python.path), "-m", "venv", str(tmp)], "python -m venv")
        main = requirement_of(spec)
        if spec.artifact is not None and spec.artifact.is_dir():
            # A build writes into the project folder (build/, *.egg-info): build a copy instead,
            # so the user's checkout stays as it was and the next run sees the same files.
            src = tmp / ".errdex-src"
            shutil.copytree(spec.artifact, src, symlinks=True, ignore=shutil.ignore_patterns(
                ".git", "__pycache__", "build", "dist", "*.egg-info", ".tox", ".venv", "node_modules"))
            main = f"{spec.name} @ {src.as_uri()}"
        tests = tuple(dict.fromkeys((*BASE_TEST_REQUIREMENTS, *spec.test_requirements)))
        dropped = False
        try:
            _install(builder, uv, tmp, python, [main, *spec.extra_requirements, *tests])
        except EnvError:
            # A project's test pins are often for its CI's newest Python; the names are what matter.
            _install(builder, uv, tmp, python, [main, *spec.extra_requirements, *unpinned(tests)])
            dropped = True
        shutil.rmtree(tmp / ".errdex-src", ignore_errors=True)
        sites, installed = _inspect(tmp / "bin" / "python")
        env = Environment(
            key=key, root=dest, python=dest / "bin" / "python", python_version=python.version,
            site_packages=tuple(dest / s.relative_to(tmp) for s in sites), requirement=requirement_of(spec),
            installed=installed, builder=builder, pins_dropped=dropped,
            build_s=round(time.monotonic() - start, 2),
        )
        (tmp / ENV_MARKER).write_text(json.dumps(_env_json(env), indent=1))
        if dest.exists():
            shutil.rmtree(dest)
        os.rename(tmp, dest)
        return env
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _env_json(env: Environment) -> dict[str, object]:
    return {
        "key": env.key, "python_version": env.python_version,
        "site_packages": [str(p.relative_to(env.root)) for p in env.site_packages],
        "requirement": env.requirement, "installed": list(env.installed), "builder": env.builder,
        "pins_dropped": env.pins_dropped, "build_s": env.build_s,
    }


def _load(dest: Path) -> Environment | None:
    marker = dest / ENV_MARKER
    try:
        data = json.loads(marker.read_text())
    except (OSError, ValueError):
        return None
    if not (dest / "bin" / "python").exists():
        return None
    return Environment(
        key=str(data["key"]), root=dest, python=dest / "bin" / "python",
        python_version=str(data["python_version"]),
        site_packages=tuple(dest / s for s in data["site_packages"]), requirement=str(data["requirement"]),
        installed=tuple(data.get("installed", ())), builder=str(data.get("builder", "")),
        pins_dropped=bool(data.get("pins_dropped")), build_s=float(data.get("build_s", 0.0)),
    )


def ensure_environment(spec: EnvSpec, *, rebuild: bool = False) -> Environment:
    """The environment for ``spec``, built if it is not cached yet (EnvError if it cannot be)."""
    python = find_python(spec.requires_python, spec.python)
    key = env_key(spec, python)
    dest = envs_dir() / key
    with locked(envs_dir() / f"{key}.lock"):
        if not rebuild:
            env = _load(dest)
            if env is not None:
                return env
        return _build(spec, python, dest, key)
