"""Another Python interpreter's version and site-packages, asked without running installed code.

``installed:NAME --python PATH`` and ``errdex hook install --python PATH`` need
to know where an interpreter keeps its distributions.  It is run with ``-I -S``:
no ``site``, so no ``.pth`` file of an installed package runs (errdex never
runs indexed code outside its sandbox), and neither the user's environment
variables nor working directory change its answer.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass

MIN_VERSION = (3, 9)

# Run by the target interpreter with -I -S: its version and where its site-packages are.  A venv
# is recognised by its pyvenv.cfg, because before 3.11 only ``site`` (not run here) applies it.
_PROBE = r"""
import json, os, site, sys, sysconfig
prefix = sys.prefix
here = os.path.dirname(os.path.abspath(sys.executable))
for d in (here, os.path.dirname(here)):
    if os.path.isfile(os.path.join(d, "pyvenv.cfg")):
        prefix = d
        break
paths = sysconfig.get_paths(vars={"base": prefix, "platbase": prefix})
dirs = [paths["purelib"], paths["platlib"]] + [p for p in site.getsitepackages([prefix])]
seen = []
for d in dirs:
    if d not in seen:
        seen.append(d)
print(json.dumps({"version": list(sys.version_info[:3]), "executable": sys.executable, "prefix": prefix,
                  "purelib": paths["purelib"], "site_dirs": seen, "path": [p for p in sys.path if p]}))
"""



class InterpreterError(Exception):
    """The interpreter cannot be run, is too old, or answers nonsense."""


@dataclass(frozen=True, slots=True)
class Interpreter:
    """A Python interpreter as ``-I -S`` describes it."""

    executable: str
    version: tuple[int, int, int]
    prefix: str
    purelib: str
    site_dirs: tuple[str, ...] = ()
    path: tuple[str, ...] = ()  # sys.path without site: the standard library


def probe(python: str) -> Interpreter:
    """Ask ``python`` (with ``-I -S``) for its version and site-packages."""
    exe = shutil.which(python) or python
    try:
        proc = subprocess.run([exe, "-I", "-S", "-c", _PROBE], capture_output=True, text=True, timeout=60,
                              check=False, env={k: v for k, v in os.environ.items() if not k.startswith("PYTHON")})
    except (OSError, subprocess.SubprocessError) as exc:
        raise InterpreterError(f"{python}: cannot run it ({exc})") from exc
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise InterpreterError(f"{python}: not a Python >= 3.9 interpreter ({tail})")
    try:
        data = json.loads(proc.stdout)
        version = tuple(int(x) for x in data["version"])[:3]
        interp = Interpreter(executable=str(data["executable"]) or exe, version=(version[0], version[1], version[2]),
                             prefix=str(data["prefix"]), purelib=str(data["purelib"]),
                             site_dirs=tuple(str(d) for d in data["site_dirs"]),
                             path=tuple(str(p) for p in data["path"]))
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise InterpreterError(f"{python}: unexpected answer to the probe ({exc})") from exc
    if interp.version[:2] < MIN_VERSION:
        raise InterpreterError(f"{python}: Python {'.'.join(map(str, interp.version))} is too old (the hook needs 3.9+)")
    return interp
