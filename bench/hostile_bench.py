"""Hostile inputs of issue 13 against ``errdex index``: peak memory, catalog size, bytes left on disk.

Builds each input, runs the real CLI (``-j1``, no result cache) in a fresh
child per case, and prints the child's peak RSS (``RUSAGE_CHILDREN`` of a
small middleman process, so each figure is that run's alone), the catalog's
size and what the unpack cache holds afterwards.  Ratios are against a
baseline measured in the same run: an ordinary module (functions with
docstrings, a few statements and one raise each) of the same byte size as
the 20,000-raise line.

    .venv/bin/python bench/hostile_bench.py            # every case (~2 min on 2 cores)
    .venv/bin/python bench/hostile_bench.py --quick    # without the 1.9 GiB zip and the 8 MB wheel
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

MIDDLEMAN = (
    "import resource, subprocess, sys\n"
    "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)\n"
    "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(r.ru_maxrss, p.returncode)\n"
    "sys.stderr.write(p.stderr)\n"
)


@dataclass(frozen=True)
class Run:
    case: str
    input_bytes: int
    code: int
    rss_kib: int
    catalog_bytes: int
    left_bytes: int
    message: str


def one_line(n: int) -> str:
    return "def f(x):\n    " + "; ".join(f'raise ValueError("bad value {i}")' for i in range(n)) + "\n"


def ordinary(size: int) -> str:
    """An ordinary module of about ``size`` bytes: what a library's code looks like."""
    parts: list[str] = []
    i = total = 0
    while total < size:
        block = (f"def check_{i}(value, limit={i}):\n    \"\"\"Check that value {i} is below the limit.\"\"\"\n"
                 f"    total = value * 2 + {i}\n    if total > limit:\n"
                 f"        raise ValueError(f\"value {{value}} is over the limit {{limit}} (case {i})\")\n"
                 f"    return total\n\n\n")
        parts.append(block)
        total += len(block)
        i += 1
    return "".join(parts)


def package(base: Path, name: str, text: str) -> tuple[Path, int]:
    root = base / name
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "m.py").write_text(text)
    return root, len(text.encode())


def zip_of_many_members(base: Path, members: int = 280, size: int = 7 * 1024**2) -> Path:
    """The zip of the issue: ``members`` Python files of ``size`` bytes each, 1.9 GiB from a few MB."""
    archive = base / "many-1.0.zip"
    data = b"#" * size
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for i in range(members):
            zf.writestr(f"pkg/m{i}.py", data)
    return archive


def tiny_wheel(base: Path) -> Path:
    """A wheel of a few tens of KB whose one module is ~8 MB of raises (just under the file limit)."""
    wheel = base / "tiny-1.0-py3-none-any.whl"
    body = "def f(x):\n" + "    raise ValueError('x')\n" * (8 * 1024**2 // 26 - 4)
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("tiny/__init__.py", "")
        zf.writestr("tiny/m.py", body)
        zf.writestr("tiny-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: tiny\nVersion: 1.0\n")
    return wheel


def dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.exists() else 0


def measure(base: Path, case: str, source: Path, input_bytes: int, *extra: str) -> Run:
    home = base / f"home-{case}"
    db = base / f"{case}.sqlite"
    env = dict(os.environ, ERRDEX_HOME=str(home))
    for k in [k for k in env if k.startswith("ERRDEX_LIMIT_")]:
        del env[k]
    cmd = [sys.executable, "-m", "errdex", "index", str(source), "--db", str(db), "--no-cache", "-j1", *extra]
    proc = subprocess.run([sys.executable, "-c", MIDDLEMAN, *cmd], env=env, capture_output=True, text=True,
                          check=False)
    rss, code = (int(x) for x in proc.stdout.split())
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("errdex:")]
    run = Run(case, input_bytes, code, rss, db.stat().st_size if db.exists() else 0,
              dir_bytes(home / "cache" / "unpacked"), lines[0][:160] if lines else "")
    shutil.rmtree(home, ignore_errors=True)
    db.unlink(missing_ok=True)
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip the 1.9 GiB zip and the 8 MB wheel")
    ap.add_argument("--json", action="store_true", help="print the runs as JSON too")
    args = ap.parse_args()
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="errdex-hostile-") as tmp:
        base = Path(tmp)
        twenty = one_line(20_000)
        src, n = package(base, "baseline", ordinary(len(twenty.encode())))
        runs.append(measure(base, "baseline (ordinary module, same size as 20k)", src, n))
        src, n = package(base, "raises20k", twenty)
        runs.append(measure(base, "20,000 raises on one line", src, n))
        runs.append(measure(base, "20,000 on one line, no site cap", src, n, "--limit", "sites_per_file=1000000"))
        src, n = package(base, "raises50k", one_line(50_000))
        runs.append(measure(base, "50,000 raises on one line", src, n))
        runs.append(measure(base, "50,000 on one line, no site cap", src, n, "--limit", "sites_per_file=1000000"))
        if not args.quick:
            archive = zip_of_many_members(base)
            runs.append(measure(base, "zip 280 x 7 MiB", archive, archive.stat().st_size))
            archive.unlink()
            archive = zip_of_many_members(base, members=3_000, size=512 * 1024)  # each under the ratio floor
            runs.append(measure(base, "zip 3,000 x 512 KiB", archive, archive.stat().st_size))
            archive.unlink()
            wheel = tiny_wheel(base)
            runs.append(measure(base, "tiny wheel, 8 MB module", wheel, wheel.stat().st_size))
            runs.append(measure(base, "tiny wheel, ratio lifted", wheel, wheel.stat().st_size,
                                "--limit", "archive_ratio=100000"))
    baseline = runs[0]
    print(f"{'case':48} {'input':>10} {'exit':>4} {'peak RSS':>10} {'x base':>7} {'catalog':>10} {'x base':>7} "
          f"{'left':>8}")
    for r in runs:
        print(f"{r.case:48} {r.input_bytes / 1e6:>8.2f}MB {r.code:>4} {r.rss_kib / 1024:>8.1f}MB "
              f"{r.rss_kib / baseline.rss_kib:>6.2f}x {r.catalog_bytes / 1e6:>8.2f}MB "
              f"{r.catalog_bytes / max(baseline.catalog_bytes, 1):>6.2f}x {r.left_bytes / 1e6:>6.2f}MB")
    for r in runs:
        if r.message:
            print(f"  {r.case}: {r.message}")
    if args.json:
        print(json.dumps([r.__dict__ for r in runs], indent=2))


if __name__ == "__main__":
    main()
