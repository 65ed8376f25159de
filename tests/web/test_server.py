"""``errdex serve`` under hostile clients, over real sockets: stalls, many clients, a re-index meanwhile."""

from __future__ import annotations

import asyncio
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from webkit import FIXTURES, Built, Server, run_errdex, start_server, stop_server

from errdex.web.http import CSP
from errdex.web.server import ensure_descriptors

HEADER_TIMEOUT = 1.0
BODY_TIMEOUT = 2.0
SLACK = 1.5  # scheduling on a loaded 2-core machine


@pytest.fixture(scope="module")
def strict_server(shop: Built) -> Iterator[Server]:
    server = start_server(shop, "--header-timeout", str(HEADER_TIMEOUT), "--body-timeout", str(BODY_TIMEOUT))
    yield server
    stop_server(server)


def _address(server: Server) -> tuple[str, int]:
    host, port = server.url.removeprefix("http://").split(":")
    return host, int(port)


def stall(server: Server, first: bytes, drip: bytes = b"", every: float = 0.3, give_up: float = 30) -> tuple[float, bytes]:
    """Send ``first``, then ``drip`` every ``every`` s; (seconds until the server closed, what it sent)."""
    with socket.create_connection(_address(server)) as s:
        start = time.monotonic()
        s.sendall(first)
        s.settimeout(every)
        got = b""
        while time.monotonic() - start < give_up:
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                if drip:
                    try:
                        s.sendall(drip)
                    except OSError:
                        break
                continue
            except ConnectionResetError:
                break
            if not chunk:
                break
            got += chunk
        return time.monotonic() - start, got


def test_stalled_clients_are_dropped_within_the_deadlines(strict_server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    figures = []
    # nothing at all, then half a request line dripped a byte at a time: the header deadline holds
    secs, got = stall(strict_server, b"")
    assert HEADER_TIMEOUT - 0.1 <= secs <= HEADER_TIMEOUT + SLACK and got == b""
    figures.append(("idle connection", secs))
    secs, got = stall(strict_server, b"GET / HTTP/1.1\r\nHost: x\r\n", drip=b"X")
    assert HEADER_TIMEOUT - 0.1 <= secs <= HEADER_TIMEOUT + SLACK
    assert got.startswith(b"HTTP/1.1 408 ") and b"connection: close" in got.lower()
    assert b"content-security-policy: " + CSP.encode() in got and b"x-content-type-options: nosniff" in got
    figures.append(("headers dripped", secs))
    # headers and never the body: 408 from the route's body deadline, in the one error shape
    secs, got = stall(strict_server, b"POST /api/explain HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                     b"Content-Length: 100\r\n\r\n{\"text\": ")
    assert BODY_TIMEOUT - 0.1 <= secs <= BODY_TIMEOUT + SLACK
    assert got.startswith(b"HTTP/1.1 408 ") and b'{"error":{"status":408' in got
    assert b"content-security-policy: " + CSP.encode() in got
    figures.append(("body never sent", secs))
    # a body dripped after the response to a GET: the protocol's body deadline (+1 s grace) closes it
    secs, got = stall(strict_server, b"GET /robots.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", drip=b"y")
    assert got.startswith(b"HTTP/1.1 200 ") and got.count(b"HTTP/1.1") == 1
    assert BODY_TIMEOUT + 1 - 0.1 <= secs <= BODY_TIMEOUT + 1 + SLACK
    figures.append(("body dripped after the response", secs))
    with capsys.disabled():
        print("\n" + "\n".join(f"  dropped after {s:.2f} s: {what}" for what, s in figures))
    # the server is still serving
    assert httpx.get(strict_server.url + "/robots.txt", timeout=5).status_code == 200


def test_limits_from_the_environment_and_refused_values(shop: Built) -> None:
    env = {**shop.env, "ERRDEX_HEADER_TIMEOUT": "0.5"}
    server = start_server(Built(db=shop.db, env=env, analyzed_by=shop.analyzed_by))
    try:
        secs, got = stall(server, b"GET / HTTP/1.1\r\n", drip=b"X")
        assert secs <= 0.5 + SLACK and got.startswith(b"HTTP/1.1 408 ")
    finally:
        stop_server(server)
    proc = run_errdex("serve", "--db", shop.db, "--port", "1", env={**shop.env, "ERRDEX_BODY_TIMEOUT": "soon"},
                      check=False)
    assert proc.returncode == 2 and "$ERRDEX_BODY_TIMEOUT='soon': expected a number" in proc.stderr
    proc = run_errdex("serve", "--db", shop.db, "--port", "1", "--cache-mb", "0", env=shop.env, check=False)
    assert proc.returncode == 2 and "cache-mb must be positive" in proc.stderr


def test_head_and_security_headers_over_the_wire(strict_server: Server) -> None:
    for path in ("/", "/api/repos", "/acme/shopcart", "/static/style.css", "/sitemap.xml", "/errors/0123456789abcdef"):
        get = httpx.get(strict_server.url + path, timeout=10)
        head = httpx.head(strict_server.url + path, timeout=10)
        assert head.status_code == get.status_code and head.content == b"", path
        assert head.headers.get("etag") == get.headers.get("etag"), path
        assert head.headers["content-type"] == get.headers["content-type"], path
        for r in (get, head):
            assert r.headers["content-security-policy"] == CSP and r.headers["x-frame-options"] == "DENY"
            assert r.headers["x-content-type-options"] == "nosniff"


CLIENTS = 1000


async def _many(url: str, paths: list[str]) -> tuple[list[int], float]:
    """``CLIENTS`` connections opened together, each sending one request once all are open."""
    host, port = url.removeprefix("http://").split(":")
    opened = asyncio.Event()
    count = 0

    async def one(i: int) -> int:
        nonlocal count
        reader, writer = await asyncio.open_connection(host, int(port))
        count += 1
        if count == CLIENTS:
            opened.set()
        await opened.wait()
        writer.write(f"GET {paths[i % len(paths)]} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        data = await reader.read()
        writer.close()
        return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0

    start = time.monotonic()
    statuses = await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(CLIENTS))), timeout=240)
    return list(statuses), time.monotonic() - start


@pytest.mark.slow
def test_a_thousand_concurrent_clients_all_answered(shop: Built, capsys: pytest.CaptureFixture[str]) -> None:
    """All connected at once, then all asking at once.  The header deadline is set long for this test
    (an open connection that has not yet asked is what it drops) and the defaults otherwise."""
    have = ensure_descriptors(CLIENTS + 256)  # this process holds the client ends (errdex serve raises its own)
    assert have >= CLIENTS + 64, f"ulimit -n allows {have} open files; this test needs {CLIENTS + 64}"
    server = start_server(shop, "--header-timeout", "120")
    try:
        api = httpx.get(server.url + "/api/repos/acme/shopcart?per_page=100", timeout=10).json()
        ids = [e["id"] for e in api["errors"]]
        paths = [f"/api/errors/{i}" for i in ids] + [f"/errors/{i}" for i in ids] + ["/", "/api/repos", "/acme/shopcart"]
        with ThreadPoolExecutor(1) as pool:  # its own thread: an earlier test may hold this one's event loop
            statuses, secs = pool.submit(asyncio.run, _many(server.url, paths)).result()
    finally:
        stop_server(server)
    errors = sum(1 for s in statuses if s != 200)
    with capsys.disabled():
        print(f"\n  {CLIENTS} concurrent clients: {errors} errors ({100 * errors / CLIENTS:.1f}%) in {secs:.1f} s")
    assert errors == 0, sorted(set(statuses))


@pytest.mark.slow
def test_index_while_serving_is_consistent(shop: Built, tmp_path: Path) -> None:
    """Readers during a re-index see the catalog before or after it, never between, and never an error."""
    db = tmp_path / "catalog.sqlite"
    shutil.copyfile(shop.db, db)
    built = Built(db=str(db), env=shop.env, analyzed_by=shop.analyzed_by)
    server = start_server(built)
    seen: list[tuple[int, int, int]] = []
    failures: list[str] = []
    stop = threading.Event()

    def read() -> None:
        with httpx.Client(base_url=server.url, timeout=30) as c:
            while not stop.is_set():
                try:
                    home = c.get("/api/repos")
                    repo = c.get("/api/repos/acme/shopcart?per_page=100")
                except httpx.HTTPError as exc:
                    failures.append(repr(exc))
                    continue
                if home.status_code != 200 or repo.status_code != 200:
                    failures.append(f"{home.status_code} {repo.status_code}")
                    continue
                doc = repo.json()
                for e in doc["errors"][:3]:
                    if c.get(e["url"]).status_code != 200:
                        failures.append(f"{e['url']} failed")
                seen.append((home.json()["repos"][0]["snapshots"], len(doc["snapshots"]), doc["total"]))

    readers = [threading.Thread(target=read) for _ in range(3)]
    for t in readers:
        t.start()
    try:
        # the readers must have read the catalog before the index starts: on a fast run the index could
        # otherwise finish before any reader's first request, and the "before" state would never be seen
        deadline = time.monotonic() + 30
        while not seen and not failures and time.monotonic() < deadline:
            time.sleep(0.05)
        src = tmp_path / "v2.2.0"
        shutil.copytree(FIXTURES / "web_shop", src)
        cart = src / "shopcart" / "cart.py"
        cart.write_text(cart.read_text() + '\n\ndef refund(order):\n    raise ValueError(f"cannot refund {order}")\n')
        run_errdex("index", str(src), "--repo", "acme/shopcart", "--ref", "v2.2.0", "--commit", "5" * 40,
                   "--db", str(db), env=shop.env)
        time.sleep(1.0)
    finally:
        stop.set()
        for t in readers:
            t.join()
        stop_server(server)
    assert failures == []
    # each document is the catalog before (2 snapshots, 7 errors) or after (3, 8), never a mix; the home
    # document, read first, may be older than the repo document read after it, never newer
    assert {(snaps, total) for _, snaps, total in seen} == {(2, 7), (3, 8)}, set(seen)
    assert all(home in (2, 3) and home <= snaps for home, snaps, _ in seen), set(seen)


def test_dot_segments_sent_as_they_are_are_refused(strict_server: Server) -> None:
    """What curl --path-as-is sends: uvicorn does not fold "..", the routes' names rule refuses it."""
    for path in (b"/api/repos/acme/..", b"/api/repos/../shopcart", b"/api/repos/acme/shopcart/a/../b.py",
                 b"/acme/shopcart/../../x.py", b"/api/repos/acme/shopcart/%2E%2E/x.py"):
        with socket.create_connection(_address(strict_server)) as s:
            s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            got = b""
            while chunk := s.recv(65536):
                got += chunk
        assert got.startswith(b"HTTP/1.1 422 "), (path, got[:200])


def test_connections_over_the_cap_get_503_in_the_one_shape(shop: Built) -> None:
    server = start_server(shop, "--max-connections", "5", "--header-timeout", "30")
    held: list[socket.socket] = []
    try:
        host, port = _address(server)
        # start_server's probes may still be closing: wait until a sixth connection is the one refused
        deadline = time.monotonic() + 20
        while len(held) < 5 and time.monotonic() < deadline:
            s = socket.create_connection((host, port))
            s.settimeout(0.3)
            try:
                if s.recv(65536):  # refused: an earlier connection is still counted
                    s.close()
                    time.sleep(0.2)
                    continue
            except TimeoutError:
                pass
            held.append(s)
        assert len(held) == 5
        with socket.create_connection((host, port)) as extra:
            got = b""
            while chunk := extra.recv(65536):
                got += chunk
        assert got.startswith(b"HTTP/1.1 503 ") and b"retry-after: 1" in got
        assert got.endswith(b'{"error":{"status":503,"title":"Service Unavailable","detail":'
                            b'"more than 5 connections are open; try again shortly"}}')
        assert b"content-security-policy: " + CSP.encode() in got
        held.pop().close()
        time.sleep(0.5)
        assert httpx.get(server.url + "/robots.txt", timeout=10).status_code == 200
    finally:
        for s in held:
            s.close()
        stop_server(server)
