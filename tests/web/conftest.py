"""Catalogs built the way a user builds them (``errdex index`` of a fixture package,
then ``errdex analyze``), and servers started the way a user starts them
(``errdex serve`` on a free loopback port)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from web_data import write_analyses

from jaxsrc import JaxSource

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


@pytest.fixture(scope="session")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """acme/shopcart at two versions: v2.0.0 (lines shifted by two) then v2.1.0, analysed."""
    base = tmp_path_factory.mktemp("shop")
    env = _env(base / "home")
    db = str(base / "catalog.sqlite")
    old = base / "v2.0.0"
    shutil.copytree(FIXTURES / "web_shop", old)
    cart = old / "shopcart" / "cart.py"
    cart.write_text('"""The cart (v2.0.0)."""\n\n' + cart.read_text())
    new = base / "v2.1.0"
    shutil.copytree(FIXTURES / "web_shop", new)
    run_errdex("index", str(old), "--repo", "acme/shopcart", "--ref", "v2.0.0", "--commit", SHOP_V1_COMMIT,
               "--db", db, env=env)
    run_errdex("index", str(new), "--repo", "acme/shopcart", "--ref", "v2.1.0", "--commit", SHOP_V2_COMMIT,
               "--db", db, env=env)
    return Built(db=db, env=env, analyzed_by=analyze(db, env, "acme/shopcart"))


@pytest.fixture(scope="session")
def xss(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The hostile package, with hostile text in every analysis field too."""
    base = tmp_path_factory.mktemp("xss")
    env = _env(base / "home")
    db = str(base / "catalog.sqlite")
    src = base / "xsslib"
    shutil.copytree(FIXTURES / "web_xss", src)
    run_errdex("index", str(src), "--repo", "evil/xsslib", "--commit", "4" * 40, "--db", db, env=env)
    write_analyses(db)
    return Built(db=db, env=env, analyzed_by="web_data")


@pytest.fixture(scope="session")
def jax(tmp_path_factory: pytest.TempPathFactory, jax_source: JaxSource) -> Built:
    """JAX at jax-v0.10.2 (checkout or wheel, see tests/jaxsrc.py), indexed and analysed."""
    base = tmp_path_factory.mktemp("jax")
    env = _env(base / "home")
    db = str(base / "catalog.sqlite")
    run_errdex("index", *jax_source.index_args(), "--db", db, "-j", "1", env=env)
    return Built(db=db, env=env, analyzed_by=analyze(db, env, "jax-ml/jax"))


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


@pytest.fixture(scope="session")
def shop_server(shop: Built) -> Iterator[Server]:
    server = start_server(shop)
    yield server
    stop_server(server)


@pytest.fixture(scope="session")
def xss_server(xss: Built) -> Iterator[Server]:
    server = start_server(xss)
    yield server
    stop_server(server)


@pytest.fixture(scope="session")
def jax_server(jax: Built) -> Iterator[Server]:
    server = start_server(jax)
    yield server
    stop_server(server)


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's chromium driven by Playwright (never `playwright install`)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):  # .ci/run installs chromium: a skip there would hide a broken set-up
            pytest.fail(f"chromium is needed in CI: no {CHROMIUM}")
        pytest.skip(f"no {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
