"""Helpers of the web tests (running errdex, starting servers), apart from the fixtures in
conftest.py: test modules import them by a name no other test folder uses, because every
folder's conftest is the module ``conftest`` and which one that name holds depends on
the order of collection."""


from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import httpx
from web_data import write_analyses

ROOT = Path(__file__).resolve().parents[2]


FIXTURES = ROOT / "tests" / "fixtures"


ERRDEX = [sys.executable, "-m", "errdex"]


SHOP_V1_COMMIT = "2" * 40


SHOP_V2_COMMIT = "3" * 40


def run_errdex(*args: str, env: dict[str, str], check: bool = True, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*ERRDEX, *args], env=env, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    if check and proc.returncode != 0:
        raise AssertionError(f"errdex {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def has_command(name: str, env: dict[str, str]) -> bool:
    return run_errdex(name, "--help", env=env, check=False).returncode == 0


@dataclass(frozen=True)
class Built:
    db: str
    env: dict[str, str]
    analyzed_by: str  # "errdex analyze" or "web_data"


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(ERRDEX_HOME=str(home), ERRDEX_STRICT="1", PYTHONPATH=str(ROOT / "src"))
    env.pop("ERRDEX_DB", None)
    env.pop("ERRDEX_REPORT_URL", None)
    return env


def analyze(db: str, env: dict[str, str], repo: str) -> str:
    """``errdex analyze``; the errors it could not analyse get analyses made from their sites.

    The web tests check how pages show analyses, not the analyses themselves
    (tests/analyze does), so a failure of that stage on some errors is
    reported as a warning instead of failing every web test.
    """
    if not has_command("analyze", env):
        write_analyses(db, payload="")
        return "web_data"
    proc = run_errdex("analyze", "--repo", repo, "--db", db, env=env, check=False, timeout=1200)
    filled = write_analyses(db, payload="", only_missing=True)
    if proc.returncode != 0 or filled:
        warnings.warn(f"errdex analyze left {filled} error(s) of {repo} without analysis (exit "
                      f"{proc.returncode}): {proc.stdout[-800:]} {proc.stderr[-400:]}", stacklevel=1)
        return f"errdex analyze (+{filled} from web_data)"
    return "errdex analyze"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Server:
    url: str
    proc: subprocess.Popen[bytes]


def start_server(built: Built, *extra: str) -> Server:
    port = free_port()
    proc = subprocess.Popen([*ERRDEX, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", built.db, *extra],
                            env=built.env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise AssertionError(f"errdex serve exited with {proc.returncode}: {err}")
        try:
            if httpx.get(url + "/robots.txt", timeout=2).status_code == 200:
                return Server(url=url, proc=proc)
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.terminate()
    raise AssertionError("errdex serve did not answer within 60 s")


def stop_server(server: Server) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        server.proc.wait()


CHROMIUM = "/usr/bin/chromium"


CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


SCREENSHOTS = ROOT / "artifacts" / "screenshots"
