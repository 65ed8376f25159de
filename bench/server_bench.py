"""Seconds until ``errdex serve`` drops a stalled client, and what the deadlines cost a normal request.

    .venv/bin/python bench/server_bench.py [--db CATALOG] [--header-timeout 5] [--body-timeout 10] [--seconds 3]

Starts two servers on loopback over the same catalog (``--db``, else a
temporary catalog of tests/fixtures/web_shop): ``errdex serve`` itself
(uvicorn's h11 with errdex's header and body deadlines) and the same app
under uvicorn's plain h11 protocol (the baseline: the protocol ``errdex
serve`` ran before; the app's own body deadline applies to both).  Then, in
the same run:

- stalls against each server: a connection that sends nothing, one that
  drips half a request line a byte at a time, one that sends headers and
  never the body.  Printed: seconds until the server closed the connection,
  and the ratio to the configured deadline (1.00 is exact); the baseline
  keeps the first two open (given up after ``--give-up`` seconds).
- requests/s of ``GET /api/repos`` on one keep-alive connection, alternating
  between the two servers in short chunks (order swapped each round), and
  the ratio errdex/baseline.  On a shared machine this ratio is noisy.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
STALLS = {
    "sends nothing": (b"", b""),
    "drips a request line": (b"GET / HTTP/1.1\r\nHost: x\r\n", b"X"),
    "headers, never the body": (b"POST /api/explain HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                b"Content-Length: 100\r\n\r\n", b""),
}


def child(port: int, db: str, plain: bool, header_timeout: float, body_timeout: float) -> None:
    """Child mode: one server, errdex's (deadlines) or plain uvicorn h11 (baseline)."""
    import uvicorn

    from errdex.catalog import open_catalog
    from errdex.web.app import create_app
    from errdex.web.server import serve
    from errdex.web.settings import WebSettings

    settings = WebSettings(header_timeout=header_timeout, body_timeout=body_timeout)
    app = create_app(open_catalog(db), settings)
    if plain:
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", http="h11")
    else:
        serve(app, settings, "127.0.0.1", port)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: str, plain: bool, args: argparse.Namespace) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, __file__, "--child", str(port), "--db", db,
                             "--header-timeout", str(args.header_timeout), "--body-timeout", str(args.body_timeout)]
                            + (["--plain"] if plain else []),
                            env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/robots.txt", timeout=2).status_code == 200:
                return proc, port
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


def stall(port: int, first: bytes, drip: bytes, give_up: float) -> float | None:
    """Seconds until the server closed the connection; None if it was still open after ``give_up``."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        t0 = time.monotonic()
        s.sendall(first)
        s.settimeout(0.25)
        while time.monotonic() - t0 < give_up:
            try:
                if not s.recv(65536):
                    return time.monotonic() - t0
            except TimeoutError:
                if drip:
                    s.sendall(drip)
            except ConnectionResetError:
                return time.monotonic() - t0
    return None


def rate(client: httpx.Client, seconds: float) -> tuple[int, float]:
    n, t0 = 0, time.monotonic()
    while time.monotonic() - t0 < seconds:
        assert client.get("/api/repos").status_code == 200
        n += 1
    return n, time.monotonic() - t0


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--db")
    p.add_argument("--header-timeout", type=float, default=5.0)
    p.add_argument("--body-timeout", type=float, default=10.0)
    p.add_argument("--give-up", type=float, default=30.0)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--child", type=int)
    p.add_argument("--plain", action="store_true")
    p.add_argument("--no-stalls", action="store_true", help="only the requests/s comparison")
    args = p.parse_args()
    if args.child:
        child(args.child, args.db, args.plain, args.header_timeout, args.body_timeout)
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            db = str(Path(tmp) / "catalog.sqlite")
            subprocess.run([sys.executable, "-m", "errdex", "index", str(ROOT / "tests/fixtures/web_shop"),
                            "--repo", "acme/shopcart", "--db", db], check=True, capture_output=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "ERRDEX_HOME": tmp})
        ours, our_port = start(db, False, args)
        base, base_port = start(db, True, args)
        try:
            deadline = {"sends nothing": args.header_timeout, "drips a request line": args.header_timeout,
                        "headers, never the body": args.body_timeout}
            if not args.no_stalls:
                print(f"stalled clients (header deadline {args.header_timeout:g} s, "
                      f"body deadline {args.body_timeout:g} s)")
            for what, (first, drip) in ({} if args.no_stalls else STALLS).items():
                mine = stall(our_port, first, drip, args.give_up)
                theirs = stall(base_port, first, drip, args.give_up)
                shown = "never" if mine is None else f"{mine:6.2f} s  ratio to deadline {mine / deadline[what]:.2f}"
                before = f"still open after {args.give_up:g} s" if theirs is None else f"{theirs:.2f} s"
                print(f"  {what:26} errdex serve: {shown:40} baseline (plain h11): {before}")
            counts = {"errdex": [0, 0.0], "baseline": [0, 0.0]}
            with (httpx.Client(base_url=f"http://127.0.0.1:{our_port}") as a,
                  httpx.Client(base_url=f"http://127.0.0.1:{base_port}") as b):
                for i in range(10):
                    pair = (("errdex", a), ("baseline", b))
                    for name, client in pair if i % 2 else reversed(pair):
                        n, secs = rate(client, args.seconds / 10)
                        counts[name][0] += n
                        counts[name][1] += secs
            ours_rps = counts["errdex"][0] / counts["errdex"][1]
            base_rps = counts["baseline"][0] / counts["baseline"][1]
            print(f"GET /api/repos  baseline (plain h11) {base_rps:7.0f} req/s   errdex serve {ours_rps:7.0f} req/s"
                  f"   ratio {ours_rps / base_rps:.2f}")
        finally:
            for proc in (ours, base):
                proc.terminate()
                proc.wait()


if __name__ == "__main__":
    main()
