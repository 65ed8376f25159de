"""Requests per second of the error page and its JSON, against a constant response of the same app.

    .venv/bin/python bench/web_bench.py [--db CATALOG] [--seconds 3] [--ids 300]

Starts uvicorn (one process, loopback) on a catalog holding JAX (``--db``,
else ``$ERRDEX_DB``, else it indexes /work/jax-src into a temporary catalog),
with one extra route, ``/bench/constant``, that returns fixed bytes through
the same middlewares (security headers, body limit).  A bounded httpx loop
(one keep-alive connection, sequential requests) then measures, in the same
run:

- the baseline: ``/bench/constant``;
- ``/api/errors/{id}`` and ``/errors/{id}``, cold (each id's first request:
  catalog read, document, rendering) and warm (the same ids again: the
  per-generation cache),

in short chunks that alternate with the baseline, so that both see the same
load on a shared machine.

It prints requests/s for each and the ratio to the baseline.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from itertools import cycle, repeat
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
JAX_SRC = Path("/work/jax-src")


def serve(port: int, db: str) -> None:
    """Child mode: the app plus the constant route, under uvicorn."""
    import uvicorn
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from errdex.catalog import open_catalog
    from errdex.web.app import create_app

    app = create_app(open_catalog(db))
    body = b'{"constant": true}' * 64

    async def constant(request: Request) -> Response:
        return Response(body, media_type="application/json")

    app.router.routes.insert(0, Route("/bench/constant", constant))  # before /{owner}/{name}
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ensure_catalog(db: str | None) -> str:
    db = db or os.environ.get("ERRDEX_DB")
    if db and Path(db).exists():
        return db
    tmp = tempfile.mkdtemp(prefix="errdex-webbench-")
    db = str(Path(tmp) / "catalog.sqlite")
    print(f"indexing {JAX_SRC} into {db} ...", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "errdex", "index", str(JAX_SRC), "--repo", "jax-ml/jax", "--db", db],
                   check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, ERRDEX_HOME=tmp))
    return db


class Meter:
    """Requests and seconds spent per label, measured in interleaved chunks.

    The machine is shared, so its speed drifts; alternating short chunks of
    the baseline and the measured URLs exposes both to the same conditions.
    """

    def __init__(self, client: httpx.Client) -> None:
        self.client = client
        self.n: dict[str, int] = {}
        self.t: dict[str, float] = {}

    def chunk(self, label: str, urls: Iterator[str], seconds: float) -> bool:
        """Request ``urls`` for ``seconds``; False once ``urls`` is exhausted."""
        start = time.perf_counter()
        n = 0
        more = True
        while time.perf_counter() - start < seconds:
            url = next(urls, None)
            if url is None:
                more = False
                break
            r = self.client.get(url)
            if r.status_code != 200:
                raise SystemExit(f"{url}: HTTP {r.status_code}")
            n += 1
        self.n[label] = self.n.get(label, 0) + n
        self.t[label] = self.t.get(label, 0.0) + time.perf_counter() - start
        return more

    def rps(self, label: str) -> float:
        return self.n[label] / self.t[label]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--ids", type=int, default=300)
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), args.serve[1])
        return
    db = ensure_catalog(args.db)
    port = free_port()
    proc = subprocess.Popen([sys.executable, __file__, "--serve", str(port), db])
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            for _ in range(300):
                try:
                    client.get("/robots.txt")
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            ids = [row[0] for row in client.get("/api/search-index.json").json()["errors"]]
            random.Random(0).shuffle(ids)
            ids = ids[: args.ids]
            print(f"catalog: {db}; {len(ids)} error ids; {args.seconds:.1f} s per measurement")
            meter = Meter(client)
            meter.chunk("warm-up", repeat("/bench/constant"), 1.0)
            constant = repeat("/bench/constant")
            chunk = args.seconds / 10
            for label, pattern in (("/api/errors/{id}", "/api/errors/{}"), ("/errors/{id}", "/errors/{}")):
                first = iter([pattern.format(i) for i in ids])
                while meter.chunk(label + " cold", first, chunk):
                    meter.chunk("baseline", constant, chunk)
                again = cycle([pattern.format(i) for i in ids])
                for _ in range(10):
                    meter.chunk(label + " warm", again, chunk)
                    meter.chunk("baseline", constant, chunk)
            base_rps = meter.rps("baseline")
            print(f"{'baseline /bench/constant':<30} {base_rps:8.0f} req/s  ({meter.n['baseline']} requests)")
            for label in ("/api/errors/{id}", "/errors/{id}"):
                for phase in ("cold", "warm"):
                    key = f"{label} {phase}"
                    print(f"{key:<30} {meter.rps(key):8.0f} req/s  ratio to baseline {meter.rps(key) / base_rps:5.2f}"
                          f"  ({meter.n[key]} requests)")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
