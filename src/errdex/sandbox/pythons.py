"""Which Python an environment is built with: one the library supports, found like setup.sh finds one.

Candidates, in order: ``--python`` (then nothing else is tried),
``$ERRDEX_PYTHON``, ``python3.13`` … ``python3.9`` and ``python3`` on PATH,
and every pyenv version 3.9-3.14.  Each is asked for its version once (a
subprocess of a trusted interpreter, no library code).  The newest one that
satisfies the distribution's ``Requires-Python`` wins: 3.12+ is preferred
because the recorder is cheap there (``sys.monitoring``).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version


class PythonNotFound(Exception):
    """No interpreter fits: the message lists what was tried."""


@dataclass(frozen=True, slots=True)
class PythonInfo:
    path: Path
    version: str  # "3.12.1"

    @property
    def minor(self) -> str:
        return ".".join(self.version.split(".")[:2])


@functools.cache
def probe(path: str) -> PythonInfo | None:
    """The version of the interpreter at ``path``, or None if it is not a working Python 3."""
    try:
        proc = subprocess.run(
            [path, "-I", "-S", "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
            capture_output=True, text=True, timeout=20, check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = proc.stdout.strip()
    if proc.returncode != 0 or not text.startswith("3."):
        return None
    return PythonInfo(path=Path(path), version=text)


def candidates() -> list[str]:
    names = [os.environ.get("ERRDEX_PYTHON", "")]
    names += [f"python3.{m}" for m in range(14, 8, -1)] + ["python3"]
    found: list[str] = []
    for name in names:
        exe = shutil.which(name) if name else None
        if exe:
            found.append(exe)
    root = os.environ.get("PYENV_ROOT") or str(Path.home() / ".pyenv")
    versions = Path(root) / "versions"
    if versions.is_dir():
        for v in sorted(versions.iterdir(), reverse=True):
            candidate = v / "bin" / "python3"
            if re.match(r"3\.(9|1[0-4])\.", v.name) and candidate.is_file():
                found.append(str(candidate))
    return list(dict.fromkeys(found))


def _rank(info: PythonInfo) -> tuple[bool, Version]:
    """3.12 and 3.13 first (cheap recorder, wheels for nearly everything), then the newest."""
    return info.minor in ("3.12", "3.13"), Version(info.version)


def find_python(requires_python: str | None = None, explicit: str | None = None) -> PythonInfo:
    """The interpreter to build an environment with (see module docstring)."""
    if explicit:
        exe = shutil.which(explicit) or explicit
        info = probe(str(Path(exe).absolute()))
        if info is None:
            raise PythonNotFound(f"--python {explicit}: not a working Python 3 interpreter")
        return info
    try:
        spec = SpecifierSet(requires_python or "")
    except InvalidSpecifier:
        spec = SpecifierSet("")
    tried: list[str] = []
    best: PythonInfo | None = None
    for path in candidates():
        info = probe(path)
        if info is None:
            continue
        tried.append(f"{path} ({info.version})")
        if Version(info.version) < Version("3.9") or not spec.contains(info.version, prereleases=True):
            continue
        if best is None or _rank(info) > _rank(best):
            best = info
    if best is None:
        raise PythonNotFound(
            f"no Python satisfying {requires_python or '>=3.9'} found (tried: {', '.join(tried) or 'none'}); "
            "pass --python PATH"
        )
    return best
