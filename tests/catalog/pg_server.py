"""A throw-away PostgreSQL server for the catalog tests (initdb + pg_ctl into a temp dir).

Runs as the ``postgres`` user when the tests run as root (initdb refuses
root); listens only on a Unix socket inside its own directory, so parallel
test workers each get their own server.  ``available()`` says why not when
the binaries or the user are missing, and the tests skip with that reason.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path


def _find_bin() -> Path:
    """``$ERRDEX_PG_BIN``, else the newest Debian PostgreSQL (``/usr/lib/postgresql/<major>/bin``)."""
    if os.environ.get("ERRDEX_PG_BIN"):
        return Path(os.environ["ERRDEX_PG_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int("0" + p.parts[-3]))
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


BIN = _find_bin()
# One port per pytest-xdist worker (gw0, gw1, ...): sockets live in separate
# directories anyway, but the server's shared-memory key derives from the port.
PORT = 5439 + int("0" + "".join(c for c in os.environ.get("PYTEST_XDIST_WORKER", "") if c.isdigit()))


def available() -> str | None:
    """None when a server can be started here, else the reason it cannot."""
    if not (BIN / "initdb").is_file() or not (BIN / "pg_ctl").is_file():
        return f"no PostgreSQL binaries in {BIN}"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run the server as"
    return None


def _as_server_user(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@contextlib.contextmanager
def server() -> Iterator[str]:
    """Start a server; yield the base URL (no database name); stop and delete it afterwards."""
    base = Path(tempfile.mkdtemp(prefix="errdex-pg-", dir="/tmp"))
    data, sock = base / "data", base / "sock"
    sock.mkdir()
    if os.geteuid() == 0:
        pw = pwd.getpwnam("postgres")
        for p in (base, sock):
            os.chown(p, pw.pw_uid, pw.pw_gid)
    try:
        subprocess.run(_as_server_user([str(BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                                        "--no-sync", "-E", "UTF8"]),
                       check=True, capture_output=True, text=True)
        opts = f"-k {sock} -p {PORT} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
        subprocess.run(_as_server_user([str(BIN / "pg_ctl"), "-D", str(data), "-o", opts, "-w", "-t", "60",
                                        "-l", str(base / "log"), "start"]),
                       check=True, capture_output=True, text=True)
        yield f"postgresql://postgres@/?host={sock}&port={PORT}"
    finally:
        subprocess.run(_as_server_user([str(BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
                       capture_output=True, check=False)
        shutil.rmtree(base, ignore_errors=True)


def fresh_database(base_url: str) -> str:
    """A new, empty database on the server; its URL."""
    import psycopg

    name = "errdex_" + uuid.uuid4().hex[:12]
    with psycopg.connect(base_url.replace("/?", "/postgres?"), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return base_url.replace("/?", f"/{name}?")
