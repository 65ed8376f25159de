"""The limited runner against hostile work: each case is real code doing the harm it names.

The work runs with this test's own interpreter (no environment needs
building); what is asserted is the runner's promise: the run ends, the
harm stays inside, and the result says what happened.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

import pytest

from errdex.sandbox import Limits, RunRequest, run, scrub_env
from errdex.sandbox.runner import _pids_cgroup_root

PY = sys.executable


def py(code: str, limits: Limits | None = None, **kw: object) -> RunRequest:
    return RunRequest(argv=(PY, "-I", "-c", code), limits=limits or Limits(timeout_s=30), **kw)  # type: ignore[arg-type]


def test_plain_run_gets_exit_code_and_output() -> None:
    r = run(py("import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"))
    assert (r.returncode, r.stdout.strip(), r.stderr.strip()) == (3, "out", "err")
    assert not r.timed_out and not r.ok


def test_infinite_loop_is_killed_at_the_timeout_with_its_children() -> None:
    code = (
        "import subprocess, sys, time\n"
        "subprocess.Popen([sys.executable, '-c', 'import time\\nwhile True: time.sleep(1)'], start_new_session=True)\n"
        "while True: pass\n"
    )
    start = time.monotonic()
    r = run(py(code, Limits(timeout_s=2)))
    assert r.timed_out and r.returncode < 0
    assert time.monotonic() - start < 20
    if r.isolation.processes == "cgroup":
        # The grandchild left the process group (new session): only the cgroup could find it.
        assert "while True: time.sleep(1)" not in _all_cmdlines()


def _all_cmdlines() -> str:
    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            with contextlib.suppress(OSError):
                out.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode())
    return "\n".join(out)


def test_memory_hog_fails_inside_its_limit() -> None:
    r = run(py("x = bytearray(3 * 1024**3); print('allocated')", Limits(timeout_s=30, memory_bytes=1024**3)))
    assert r.returncode != 0 and "allocated" not in r.stdout
    assert "MemoryError" in r.stderr


@pytest.mark.skipif(_pids_cgroup_root() is None and os.geteuid() == 0,
                    reason="root without a writable pids cgroup has no process limit")
def test_fork_bomb_is_contained() -> None:
    code = (
        "import os, time\n"
        "n = 0\n"
        "try:\n"
        "    for _ in range(10000):\n"
        "        if os.fork() == 0:\n"
        "            time.sleep(30); os._exit(0)\n"
        "        n += 1\n"
        "except OSError as e:\n"
        "    print('limited after', n, e.errno)\n"
    )
    r = run(py(code, Limits(timeout_s=20, max_procs=40)))
    assert "limited after" in r.stdout, r.stderr
    forked = int(r.stdout.split()[2])
    assert forked < 40
    assert r.isolation.processes in ("cgroup", "rlimit")


def test_no_network_when_the_platform_allows() -> None:
    code = (
        "import socket\n"
        "try:\n"
        "    socket.create_connection(('1.1.1.1', 53), timeout=3); print('connected')\n"
        "except OSError as e:\n"
        "    print('blocked', e)\n"
        "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); print('loopback ok')\n"
    )
    r = run(py(code))
    if r.isolation.network.startswith("none"):
        pytest.skip(f"no network isolation here: {r.isolation.network}")
    assert "blocked" in r.stdout and "connected" not in r.stdout
    assert "loopback ok" in r.stdout


def test_home_and_cwd_are_scratch_and_gone_afterwards(tmp_path: Path) -> None:
    real_home = Path.home()
    marker = "errdex-sandbox-hostile-marker"
    code = (
        "import os, pathlib\n"
        f"pathlib.Path(os.path.expanduser('~/{marker}')).write_text('x')\n"
        f"pathlib.Path('{marker}').write_text('x')\n"
        "print(os.environ['HOME']); print(os.getcwd())\n"
    )
    r = run(py(code))
    home, cwd = r.stdout.split()
    assert not (real_home / marker).exists()
    assert not Path(home).exists() and not Path(cwd).exists()  # scratch removed
    # A scratch the caller owns is kept for the caller to read.
    r = run(py(code, scratch=tmp_path / "s"))
    assert (tmp_path / "s" / "home" / marker).read_text() == "x"
    assert (tmp_path / "s" / "work" / marker).read_text() == "x"


def test_credentials_never_reach_the_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "s3cr3t")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_x")
    monkeypatch.setenv("MY_SERVICE_PASSWORD", "pw")
    r = run(py("import os; print(sorted(os.environ.items()))",
               env={"OPENAI_API_KEY": "sk-x", "DEPLOY_TOKEN": "t", "HARMLESS": "1"}))
    for secret in ("s3cr3t", "ghp_x", "pw'", "sk-x", "DEPLOY_TOKEN"):
        assert secret not in r.stdout
    assert "HARMLESS" in r.stdout


def test_scrub_env_drops_credential_names() -> None:
    kept = scrub_env({"AWS_REGION": "x", "NPM_TOKEN": "x", "SSH_AUTH_SOCK": "x", "DB_PASSWORD": "x",
                      "STRIPE_KEY": "x", "PYTHONHASHSEED": "0", "LANG": "C"})
    assert kept == {"PYTHONHASHSEED": "0", "LANG": "C"}


def test_relative_executable_is_refused() -> None:
    with pytest.raises(ValueError):
        run(RunRequest(argv=("python", "-c", "pass")))
