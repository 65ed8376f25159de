"""The trampoline between errdex and a library's code: limits itself, then ``execve``.

``runner.run`` starts this file (with errdex's own interpreter, ``-I -S``,
importing nothing but the standard library) instead of the target command.
It applies the limits to itself and replaces itself with the target, so the
limits are inherited by the target and everything it starts.  Doing this in
a separate process rather than in a ``preexec_fn`` keeps ``run`` safe to call
from several threads (``--jobs``): a ``preexec_fn`` runs Python code between
``fork`` and ``exec`` of a multi-threaded parent, where locks held by other
threads can deadlock it.

Order matters: join the process-count cgroup first (children are charged to
it from then on), then the network namespace (needs privileges that the
later steps do not drop), then the resource limits, the working directory,
and finally ``execve`` with the scrubbed environment.  What was achieved is
written to ``status_path`` as JSON for the parent to report.

Usage (by ``runner.py`` only): ``python -I -S jail.py CONFIG_JSON -- ARGV...``.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import socket
import struct
import sys

_SIOCGIFFLAGS = 0x8913
_SIOCSIFFLAGS = 0x8914
_IFF_UP = 0x1


def _loopback_up() -> None:
    """Bring ``lo`` up in the new namespace: tests that serve on 127.0.0.1 still work."""
    import fcntl

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        req = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(s.fileno(), _SIOCGIFFLAGS, req))[1]
        fcntl.ioctl(s.fileno(), _SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | _IFF_UP))


def _isolate_network() -> str:
    """A new, empty network namespace: as root directly, otherwise inside a user namespace.

    Returns how (``namespace``, ``user-namespace``) or why not (``none: ...``).
    """
    unshare = getattr(os, "unshare", None)
    if unshare is None:
        return "none: os.unshare needs Python 3.12 on Linux"
    if os.geteuid() == 0:
        try:
            unshare(os.CLONE_NEWNET)
        except OSError as exc:
            return f"none: unshare(CLONE_NEWNET) failed ({exc.strerror})"
        with contextlib.suppress(OSError):  # no loopback is still no network
            _loopback_up()
        return "namespace"
    uid, gid = os.geteuid(), os.getegid()
    try:
        unshare(os.CLONE_NEWUSER | os.CLONE_NEWNET)
        with open("/proc/self/setgroups", "w") as f:
            f.write("deny")
        with open("/proc/self/uid_map", "w") as f:
            f.write(f"{uid} {uid} 1")
        with open("/proc/self/gid_map", "w") as f:
            f.write(f"{gid} {gid} 1")
    except OSError as exc:
        return f"none: unprivileged user namespaces unavailable ({exc.strerror})"
    with contextlib.suppress(OSError):
        _loopback_up()
    return "user-namespace"


def _count_own_processes() -> int:
    uid = os.getuid()
    n = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.stat(f"/proc/{entry}").st_uid == uid:
                n += 1
        except OSError:
            continue
    return n


def _limit(which: int, value: int) -> None:
    _soft, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY and value > hard:
        value = hard
    resource.setrlimit(which, (value, value if hard == resource.RLIM_INFINITY or value <= hard else hard))


def main(argv: list[str]) -> int:
    config = json.loads(argv[1])
    target = argv[3:] if len(argv) > 3 and argv[2] == "--" else []
    if not target:
        sys.stderr.write("errdex sandbox: no command\n")
        return 126
    status: dict[str, object] = {}

    procs = config.get("cgroup_procs")
    if procs:
        try:
            with open(procs, "w") as f:
                f.write(str(os.getpid()))
            status["processes"] = "cgroup"
        except OSError as exc:
            status["processes"] = f"none: cannot join cgroup ({exc.strerror})"

    status["network"] = _isolate_network() if not config.get("network") else "allowed"

    max_procs = int(config.get("max_procs") or 0)
    if max_procs and status.get("processes") != "cgroup":
        if os.geteuid() == 0:
            status["processes"] = "none: RLIMIT_NPROC does not bind root and no cgroup was available"
        else:
            # RLIMIT_NPROC counts all of this user's processes, so the budget is on top of those.
            _limit(resource.RLIMIT_NPROC, _count_own_processes() + max_procs)
            status["processes"] = "rlimit"
    memory = int(config.get("memory_bytes") or 0)
    if memory:
        _limit(resource.RLIMIT_AS, memory)
    file_size = int(config.get("file_size_bytes") or 0)
    if file_size:
        _limit(resource.RLIMIT_FSIZE, file_size)
    _limit(resource.RLIMIT_CORE, 0)

    os.chdir(config["cwd"])
    try:
        with open(config["status_path"], "w") as f:
            json.dump(status, f)
    except OSError:
        pass
    env = {str(k): str(v) for k, v in config["env"].items()}
    try:
        os.execve(target[0], target, env)
    except OSError as exc:
        sys.stderr.write(f"errdex sandbox: cannot execute {target[0]}: {exc}\n")
        return 127
    return 127  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv))
