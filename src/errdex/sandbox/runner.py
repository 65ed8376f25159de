"""The limited runner: one subprocess per unit of work, and nothing of it survives the run.

``run(RunRequest(...))`` starts ``argv`` through ``jail.py`` with:
- a wall-clock timeout, after which the whole process group and every
  process of its cgroup is killed (SIGKILL);
- an address-space limit (``RLIMIT_AS``), a file-size limit, no core files;
- a process-count limit: a fresh ``pids`` cgroup when errdex may create one
  (root with cgroup v1 or v2 mounted), else ``RLIMIT_NPROC`` (which binds
  only non-root users);
- a scratch directory holding HOME, TMPDIR, the XDG directories and the
  working directory, deleted afterwards unless the caller owns it;
- an environment built from an allow-list (PATH, locale, time zone), so no
  token, key or password of the user's reaches the code, and caller-supplied
  variables with credential-like names are dropped as well;
- no network: a new network namespace (as root directly, otherwise in an
  unprivileged user namespace when the kernel allows it); ``RunResult``
  says what was achieved, never silently less.

Output goes to files in the scratch directory (no pipe can fill up and
block the child) and the last ``output_limit`` bytes of each are returned.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

JAIL = Path(__file__).with_name("jail.py")
GiB = 1024**3

# Names that carry credentials: never passed, even when a caller asks.
_CREDENTIAL = re.compile(
    r"(TOKEN|SECRET|PASSW(OR)?D|PASSPHRASE|CREDENTIAL|API_?KEY|_KEY$|^KEY$|AUTH|COOKIE|SESSION|PRIVATE)"
    r"|^(AWS|AZURE|GCP|GOOGLE|GH|GITHUB|GITLAB|HF|HUGGING|OPENAI|ANTHROPIC|NPM|PYPI|TWINE|DOCKER|SSH|GPG"
    r"|DATABASE_URL|PGPASS|ERRDEX_DB)",
    re.IGNORECASE,
)
# What is copied from errdex's own environment: nothing that can identify or authorise.
_PASSTHROUGH = ("LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM")


@dataclass(frozen=True, slots=True)
class Limits:
    """What one unit of work may use."""

    timeout_s: float = 600.0
    memory_bytes: int = 8 * GiB  # RLIMIT_AS: address space, not resident memory (jaxlib reserves a lot)
    max_procs: int = 256  # processes and threads at once
    file_size_bytes: int = 2 * GiB  # RLIMIT_FSIZE: a single file written
    network: bool = False  # True only for work that must fetch (never for a library's tests)


@dataclass(frozen=True, slots=True)
class RunRequest:
    """One unit of work: ``argv`` (an absolute executable first) under ``limits``.

    ``env`` adds variables (credential-like names are dropped); ``path`` is
    prepended to PATH (an environment's ``bin``).  ``scratch``: a directory
    the caller owns and reads afterwards (outputs the work writes there);
    when None a temporary one is made and removed.  ``cwd`` defaults to
    ``scratch/work``.
    """

    argv: tuple[str, ...]
    limits: Limits = Limits()
    env: Mapping[str, str] = field(default_factory=dict)
    path: tuple[str, ...] = ()
    scratch: Path | None = None
    cwd: Path | None = None
    output_limit: int = 64 * 1024


@dataclass(frozen=True, slots=True)
class Isolation:
    """What the platform allowed: ``network`` is ``namespace``/``user-namespace``/``allowed`` or
    ``none: <why>``; ``processes`` is ``cgroup``/``rlimit`` or ``none: <why>``."""

    network: str = "unknown"
    processes: str = "unknown"


@dataclass(frozen=True, slots=True)
class RunResult:
    """How the unit of work ended: exit code (negative: killed by that signal), output tails."""

    returncode: int
    stdout: str
    stderr: str
    duration_s: float
    timed_out: bool = False
    isolation: Isolation = Isolation()

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


def scrub_env(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` without the variables whose names look like credentials."""
    return {k: v for k, v in env.items() if not _CREDENTIAL.search(k)}


def sandbox_env(scratch: Path, extra: Mapping[str, str], path: tuple[str, ...]) -> dict[str, str]:
    """The child's whole environment: allow-listed basics, scratch directories, ``extra`` scrubbed."""
    env = {k: os.environ[k] for k in _PASSTHROUGH if k in os.environ}
    home, tmp = scratch / "home", scratch / "tmp"
    env.update({
        "HOME": str(home),
        "TMPDIR": str(tmp), "TMP": str(tmp), "TEMP": str(tmp),
        "XDG_CACHE_HOME": str(home / ".cache"), "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "PATH": os.pathsep.join([*path, "/usr/local/bin", "/usr/bin", "/bin"]),
        "PYTHONNOUSERSITE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PIP_NO_INPUT": "1",
        "NO_PROXY": "*",
    })
    env.update(scrub_env(extra))
    return env


# --------------------------------------------------------------------------- process-count cgroup


def _pids_cgroup_root() -> Path | None:
    """Where errdex may create a ``pids`` cgroup (root only), or None."""
    if os.geteuid() != 0:
        return None
    v1 = Path("/sys/fs/cgroup/pids")
    if (v1 / "cgroup.procs").is_file() and os.access(v1, os.W_OK):
        return v1
    v2 = Path("/sys/fs/cgroup")
    with contextlib.suppress(OSError):
        if "pids" in (v2 / "cgroup.controllers").read_text().split() and os.access(v2, os.W_OK):
            return v2
    return None


class _Cgroup:
    """A throw-away ``pids`` cgroup: its ``pids.max`` stops a fork bomb; killing its members
    ends every process the work started, including those that left the process group."""

    def __init__(self, max_procs: int) -> None:
        self.path: Path | None = None
        root = _pids_cgroup_root()
        if root is None:
            return
        path = root / "errdex-sandbox" / uuid.uuid4().hex[:16]
        try:
            path.mkdir(parents=True)
            (path / "pids.max").write_text(str(max_procs))
        except OSError:
            with contextlib.suppress(OSError):
                path.rmdir()
            return
        self.path = path

    @property
    def procs(self) -> str:
        return str(self.path / "cgroup.procs") if self.path else ""

    def members(self) -> list[int]:
        if self.path is None:
            return []
        with contextlib.suppress(OSError, ValueError):
            return [int(x) for x in (self.path / "cgroup.procs").read_text().split()]
        return []

    def kill_all(self) -> None:
        """SIGKILL until empty: a fork bomb may be forking while we read the list."""
        for _ in range(200):
            pids = self.members()
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)

    def remove(self) -> None:
        if self.path is None:
            return
        self.kill_all()
        for _ in range(100):
            try:
                self.path.rmdir()
                return
            except OSError:
                time.sleep(0.02)


# --------------------------------------------------------------------------- run


def _tail(path: Path, limit: int) -> str:
    try:
        with path.open("rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - limit))
            data = f.read()
    except OSError:
        return ""
    return data.decode("utf-8", "replace")


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(OSError):
        os.killpg(pgid, signal.SIGKILL)


def run(request: RunRequest) -> RunResult:
    """Run one unit of work under its limits; never raises for what the work does."""
    if not request.argv or not os.path.isabs(request.argv[0]):
        raise ValueError(f"sandbox: argv must start with an absolute executable, got {request.argv[:1]!r}")
    owned = request.scratch is None
    scratch = Path(tempfile.mkdtemp(prefix="errdex-run-")) if owned else Path(str(request.scratch))
    for sub in ("home", "tmp", "work"):
        (scratch / sub).mkdir(parents=True, exist_ok=True)
    cwd = request.cwd or scratch / "work"
    limits = request.limits
    cgroup = _Cgroup(limits.max_procs)
    status_path = scratch / ".jail-status.json"
    config = {
        "cwd": str(cwd),
        "env": sandbox_env(scratch, request.env, request.path),
        "memory_bytes": limits.memory_bytes,
        "max_procs": limits.max_procs,
        "file_size_bytes": limits.file_size_bytes,
        "network": limits.network,
        "cgroup_procs": cgroup.procs,
        "status_path": str(status_path),
    }
    out_path, err_path = scratch / ".stdout", scratch / ".stderr"
    argv = [sys.executable, "-I", "-S", str(JAIL), json.dumps(config), "--", *request.argv]
    start = time.monotonic()
    timed_out = False
    try:
        with out_path.open("wb") as out, err_path.open("wb") as err:
            try:
                proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                        start_new_session=True, close_fds=True)
            except OSError as exc:
                return RunResult(returncode=127, stdout="", stderr=f"sandbox: cannot start: {exc}",
                                 duration_s=0.0)
            try:
                proc.wait(timeout=limits.timeout_s)
            except subprocess.TimeoutExpired:
                timed_out = True
                _kill_group(proc.pid)
                cgroup.kill_all()
                proc.wait()
            finally:
                if proc.returncode is None:  # interrupted (KeyboardInterrupt): leave nothing running
                    _kill_group(proc.pid)
                    cgroup.kill_all()
                    proc.wait()
            # Whatever the work left behind (daemons, a fork bomb's survivors) goes too.
            _kill_group(proc.pid)
            cgroup.kill_all()
        duration = time.monotonic() - start
        isolation = Isolation()
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(status_path.read_text())
            isolation = Isolation(network=str(data.get("network", "unknown")),
                                  processes=str(data.get("processes", "unknown")))
        return RunResult(
            returncode=int(proc.returncode),
            stdout=_tail(out_path, request.output_limit),
            stderr=_tail(err_path, request.output_limit),
            duration_s=duration,
            timed_out=timed_out,
            isolation=isolation,
        )
    finally:
        cgroup.remove()
        if owned:
            shutil.rmtree(scratch, ignore_errors=True)
