"""What the prove tests share: running the errdex CLI as a user would, in its own data directory, on a
small package written for the test."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from errdex.prove.runs import Runs


def cli(*args: str, home: Path, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """``python -m errdex ARGS`` with ``ERRDEX_HOME=home`` (catalogs, sandboxes and caches of one test)."""
    env = {**os.environ, "ERRDEX_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "errdex", *args], capture_output=True, text=True, env=env,
                          timeout=timeout, check=False)


def package(root: Path, name: str, init: str, core: str) -> Path:
    """``root/name``: an installable package ``name`` (version 1.0) of ``__init__.py`` and ``core.py``."""
    pkg = root / name
    (pkg / name).mkdir(parents=True)
    (pkg / name / "__init__.py").write_text(init)
    (pkg / name / "core.py").write_text(core)
    (pkg / "pyproject.toml").write_text('[build-system]\nrequires = ["setuptools>=61"]\n'
                                        'build-backend = "setuptools.build_meta"\n'
                                        f'[project]\nname = "{name}"\nversion = "1.0"\n')
    return pkg


def observe_and_prove(fixture: Path, name: str, tmp_path: Path) -> tuple[Path, str, Path, dict[str, Any]]:
    """The fixture package ``name`` copied under ``tmp_path``, observed (which indexes it first) and proven
    from that directory, as a user would: ``(home, db, package, prove's JSON document)``."""
    home, db, pkg = tmp_path / "home", str(tmp_path / "c.sqlite"), tmp_path / name
    shutil.copytree(fixture, pkg)
    r = cli("observe", str(pkg), "--db", db, "--json", home=home)
    assert r.returncode == 0, r.stderr
    r = cli("prove", "--artifact", str(pkg), "--package", name, "--db", db, "--json", home=home)
    assert r.returncode == 0, r.stderr
    doc: dict[str, Any] = json.loads(r.stdout)
    return home, db, pkg, doc


def indexed_fixture(fixture: Path, name: str, tmp_path: Path) -> tuple[Path, str]:
    """The fixture package ``name`` copied under ``tmp_path`` and indexed as ``acme/<name>`` 1.0:
    ``(package, db)``."""
    pkg, db = tmp_path / name, str(tmp_path / "c.sqlite")
    shutil.copytree(fixture, pkg)
    r = cli("index", str(pkg), "--repo", f"acme/{name}", "--ref", "1.0", "--db", db, home=tmp_path / "home")
    assert r.returncode == 0, r.stderr
    return pkg, db


def run_search(script: Path, name: str, pkg: Path, targets: list[dict[str, Any]],
               tmp_path: Path) -> tuple[str, list[str], Path]:
    """The argument search script run on ``targets`` with the package importable, as ``errdex prove
    --search`` runs it in the sandbox: ``(before, afters, its working directory)`` of the first result."""
    req, out, work = tmp_path / "in.json", tmp_path / "out.json", tmp_path / "work"
    work.mkdir()
    req.write_text(json.dumps({"package": name, "budget_s": 5.0, "seed": 0, "targets": targets}))
    p = subprocess.run([sys.executable, str(script), str(req), str(out)], cwd=work,
                       env={**os.environ, "PYTHONPATH": str(pkg)}, capture_output=True, text=True, timeout=300,
                       check=False)
    assert p.returncode == 0, p.stderr
    got = json.loads(out.read_text())["results"][0]
    return str(got["before"]), [str(a) for a in got["afters"]], work


class LocalRunner:
    """A prover's ``runs`` without the sandbox: each code in a fresh ``python -c`` in the test's folder, where
    its small package is; what the needed-change and sample checks ask of the engine, nothing more."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp

    def runs(self, codes: Sequence[str], scratch: Path, name: str) -> Runs:
        out = []
        for c in codes:
            p = subprocess.run([sys.executable, "-c", c], capture_output=True, text=True, cwd=self.tmp, timeout=60,
                               check=False)
            out.append((p.returncode, p.stdout, p.stderr, ""))
        return Runs(out, len(out))
