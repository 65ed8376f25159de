"""``errdex hook install|uninstall|status``: put the hook (``hook.py``) into any Python >= 3.9.

errdex is installed once (``pipx install errdex`` / ``uv tool install
errdex``); each environment whose errors should be explained gets two small
files in its site-packages, written here:

- ``_errdex_hook.py``: a copy of ``errdex/runtime/hook.py`` with ``COMMAND``
  set to the errdex that installed it (this interpreter, ``-I -m errdex``:
  isolated, so the user's working directory and ``PYTHONPATH`` never reach
  errdex's imports), and its bytecode, compiled by the target interpreter so
  that start-up reads it even where ``PYTHONDONTWRITEBYTECODE`` is set;
- ``_errdex_hook.pth``: ``import _errdex_hook``, which ``site`` runs at start-up.

The target interpreter is asked where its site-packages are with ``-I -S``
(``sources/interpreter.py``): no installed code runs.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from errdex.sources import interpreter
from errdex.sources.interpreter import Interpreter, InterpreterError

MODULE = "_errdex_hook"
PTH = f"{MODULE}.pth"
PTH_LINE = f"import {MODULE}\n"
_COMMAND_LINE = re.compile(r'^COMMAND: "list\[str\] \| None" = (.*?)(  #.*)?$', re.M)
_VERSION_LINE = re.compile(r"^VERSION = (\d+)", re.M)

class HookError(Exception):
    """The interpreter cannot be used (not found, too old, site-packages not writable)."""


@dataclass(frozen=True, slots=True)
class HookStatus:
    """``errdex hook status --json``: whether the hook is installed for one interpreter, and how."""

    python: str
    version: str
    site_packages: str
    installed: bool
    module: str = ""
    pth: str = ""
    command: tuple[str, ...] = ()  # the errdex command the hook runs
    command_found: bool = False
    current: bool = False  # the installed module is this errdex's hook.py
    messages: tuple[str, ...] = field(default_factory=tuple)


def default_python() -> str:
    """The interpreter ``python3`` (else ``python``) on PATH: the user's active environment."""
    found = shutil.which("python3") or shutil.which("python")
    if not found:
        raise HookError("no python3 on PATH: give the interpreter with --python PATH")
    return found


def probe(python: str) -> Interpreter:
    """``interpreter.probe``, failing as a ``HookError``."""
    try:
        return interpreter.probe(python)
    except InterpreterError as exc:
        raise HookError(str(exc)) from exc


def errdex_command() -> list[str]:
    """This errdex, isolated (``-I``): what the hook runs."""
    return [sys.executable, "-I", "-m", "errdex"]


def hook_source(command: list[str]) -> str:
    """``hook.py`` with ``COMMAND`` set."""
    text = Path(__file__).with_name("hook.py").read_text(encoding="utf-8")
    out, n = _COMMAND_LINE.subn(lambda _: f'COMMAND: "list[str] | None" = {command!r}', text, count=1)
    if n != 1:
        raise HookError("hook.py has no COMMAND line to fill in (a broken errdex installation?)")
    return out


def _files(interp: Interpreter) -> tuple[Path, Path]:
    site = Path(interp.purelib)
    return site / f"{MODULE}.py", site / PTH


def install(python: str, command: list[str] | None = None) -> HookStatus:
    """Write the hook into ``python``'s site-packages (replacing an older one) and compile it there."""
    interp = probe(python)
    module, pth = _files(interp)
    try:
        module.parent.mkdir(parents=True, exist_ok=True)
        _write(module, hook_source(command or errdex_command()))
        _write(pth, PTH_LINE)
    except OSError as exc:
        raise HookError(f"cannot write into {module.parent} ({exc.strerror or exc}); "
                        "use a virtual environment, or run as the owner of that Python") from exc
    # bytecode by the target interpreter itself (its magic number), read even with PYTHONDONTWRITEBYTECODE
    subprocess.run([interp.executable, "-I", "-S", "-m", "py_compile", str(module)], capture_output=True,
                   timeout=60, check=False)
    return status_of(interp)


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def uninstall(python: str) -> HookStatus:
    """Remove the hook's files (and bytecode) from ``python``'s site-packages."""
    interp = probe(python)
    module, pth = _files(interp)
    try:
        pth.unlink(missing_ok=True)  # the .pth first: a start-up never imports a half-removed hook
        module.unlink(missing_ok=True)
        for cached in (module.parent / "__pycache__").glob(f"{MODULE}.*.pyc"):
            cached.unlink(missing_ok=True)
    except OSError as exc:
        raise HookError(f"cannot remove the hook from {module.parent} ({exc.strerror or exc})") from exc
    return status_of(interp)


def status(python: str) -> HookStatus:
    return status_of(probe(python))


def status_of(interp: Interpreter) -> HookStatus:
    """What is installed in ``interp``'s site-packages, read from the files (the interpreter is not started)."""
    module, pth = _files(interp)
    version = ".".join(map(str, interp.version))
    base = HookStatus(python=interp.executable, version=version, site_packages=interp.purelib, installed=False)
    if not module.is_file() or not pth.is_file():
        partial = tuple(f"{p} is left from an incomplete install" for p in (module, pth) if p.exists())
        return replace(base, messages=partial)
    text = module.read_text(encoding="utf-8", errors="replace")
    found = _COMMAND_LINE.search(text)
    command: tuple[str, ...] = ()
    if found:
        try:
            value = ast.literal_eval(found.group(1))  # a literal only: the file is never executed here
            command = tuple(str(x) for x in value) if isinstance(value, list) else ()
        except (ValueError, SyntaxError):
            command = ()
    messages: list[str] = []
    exe_ok = bool(command) and (Path(command[0]).is_file() or shutil.which(command[0]) is not None)
    if not command:
        messages.append("the hook records no errdex command: run errdex hook install again")
    elif not exe_ok:
        messages.append(f"the errdex the hook runs is gone ({command[0]}): run errdex hook install again")
    current = text == _current_source(command)
    if command and not current:
        messages.append("the hook is from another errdex version: run errdex hook install again")
    if pth.read_text(encoding="utf-8", errors="replace") != PTH_LINE:
        messages.append(f"{pth} was changed after install")
    return HookStatus(python=interp.executable, version=version, site_packages=interp.purelib, installed=True,
                      module=str(module), pth=str(pth), command=command, command_found=exe_ok, current=current,
                      messages=tuple(messages))


def _current_source(command: tuple[str, ...]) -> str:
    try:
        return hook_source(list(command))
    except (OSError, HookError):
        return ""
