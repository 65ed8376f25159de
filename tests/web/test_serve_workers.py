"""``errdex serve --workers N``: several uvicorn worker processes serving a PostgreSQL catalog."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import cluster_helpers as H

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "catalog"))
import pg_server


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        out.extend(int(c) for c in text)
    return out


def _get(url: str, data: bytes | None = None) -> tuple[int, bytes]:
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return resp.status, resp.read()


@pytest.mark.slow
def test_serve_workers_on_postgres(tmp_path: Path) -> None:
    reason = pg_server.available()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is needed in CI: {reason}")
        pytest.skip(reason)
    env = dict(os.environ, ERRDEX_HOME=str(tmp_path / "home"))
    env.pop("ERRDEX_DB", None)
    wheel = H.make_wheel(tmp_path / "w", "tinyjit", "0.3.0", H.FIXTURES / "match_tinyjit" / "tinyjit")
    with pg_server.server() as base:
        db = pg_server.fresh_database(base)
        subprocess.run([sys.executable, "-m", "errdex", "index", str(wheel), "--db", db], env=env, check=True,
                       capture_output=True, timeout=300)
        port = H.free_port()
        proc = subprocess.Popen([sys.executable, "-m", "errdex", "serve", "--workers", "2", "--port", str(port),
                                 "--db", db], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    status, body = _get(f"http://127.0.0.1:{port}/api/search?q=reshape")
                    break
                except OSError as exc:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        died = proc.stderr.read().decode() if proc.poll() is not None else "no answer"
                        raise AssertionError(died) from exc
                    time.sleep(0.5)
            assert status == 200 and b"reshape" in body
            assert len(_children(proc.pid)) >= 2  # the worker processes (and uvicorn's own helpers)
            statuses = set()
            for _ in range(12):  # requests spread over the workers, each with its own connections
                s, body = _get(f"http://127.0.0.1:{port}/api/explain",
                               json.dumps({"text": "cannot reshape array of size 3 into shape (2, 2)"}).encode())
                statuses.add(s)
                assert json.loads(body)["matches"][0]["repo"] == "example-org/tinyjit"
            assert statuses == {200}
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_serve_refuses_zero_workers(tmp_path: Path) -> None:
    env = dict(os.environ, ERRDEX_HOME=str(tmp_path / "home"))
    r = subprocess.run([sys.executable, "-m", "errdex", "serve", "--workers", "0", "--db", str(tmp_path / "c.sqlite")],
                       env=env, capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 2 and "--workers 0" in r.stderr
