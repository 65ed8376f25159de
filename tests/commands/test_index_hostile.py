"""``errdex index`` run as a user runs it, on hostile input: clear messages, exit codes, nothing executed.

Each case builds the hostile package and checks the command's exit code,
the message on stderr (which source, which field or limit) and what the
catalog holds afterwards.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

INIT = "def f(x):\n    raise ValueError('bad x')\n"


def run(env: dict[str, str], *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "errdex", *args], env=env, capture_output=True, text=True,
                          timeout=300, check=False, cwd=cwd)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    e = dict(os.environ)
    e["ERRDEX_HOME"] = str(tmp_path / "home")
    e["ERRDEX_DB"] = str(tmp_path / "catalog.sqlite")
    for k in [k for k in e if k.startswith("ERRDEX_LIMIT_") or k == "ERRDEX_STRICT"]:
        del e[k]
    return e


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _repos(env: dict[str, str]) -> list[str]:
    proc = run(env, "stats", "--json")
    return [s["snapshot"]["repo"] for s in json.loads(proc.stdout)] if proc.returncode == 0 else []


@pytest.mark.parametrize(("args", "message"), [
    (["--limit", "bogus=1"], "unknown limit 'bogus'"),
    (["--limit", "sites_per_file"], "expected NAME=VALUE"),
    (["--limit", "archive_bytes=lots"], "limit archive_bytes: 'lots' is not a whole number"),
    (["--limit", "archive_ratio=0"], "must be greater than 0"),
])
def test_bad_limits_are_usage_errors(tmp_path: Path, env: dict[str, str], args: list[str], message: str) -> None:
    root = _package(tmp_path / "src", {"pkg/__init__.py": INIT})
    proc = run(env, "index", str(root), *args)
    assert proc.returncode == 2 and message in proc.stderr
    env["ERRDEX_LIMIT_SITES_PER_FILE"] = "many"
    proc = run(env, "index", str(root))
    assert proc.returncode == 2 and "ERRDEX_LIMIT_SITES_PER_FILE: limit sites_per_file: 'many'" in proc.stderr


def test_a_limit_hit_is_a_warning_naming_the_file_and_is_in_the_json(tmp_path: Path, env: dict[str, str]) -> None:
    body = "def f(x):\n" + "".join(f"    raise ValueError('v{i}')\n" for i in range(8))
    root = _package(tmp_path / "src", {"pkg/__init__.py": "", "pkg/many.py": body})
    proc = run(env, "index", str(root), "--limit", "sites-per-file=3", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "warning:" in proc.stderr and "pkg/many.py: 8 error sites, kept the first 3" in proc.stderr
    (stats,) = json.loads(proc.stdout)
    assert stats["sites"] == 3
    assert stats["warnings"] == [{"path": "pkg/many.py", "reason": stats["warnings"][0]["reason"]}]
    assert "limit sites_per_file = 3" in stats["warnings"][0]["reason"]


@pytest.mark.parametrize(("repo", "shown"), [("../../escape", "'../../escape'"), ("a/b/c", "'a/b/c'"),
                                             ("acme/.git", "'.git'")])
def test_repo_option_breaking_the_rule_is_refused(tmp_path: Path, env: dict[str, str], repo: str, shown: str) -> None:
    root = _package(tmp_path / "src", {"pkg/__init__.py": INIT})
    proc = run(env, "index", str(root), "--repo", repo)
    assert proc.returncode == 1
    assert f"--repo: repository name {repo!r}" in proc.stderr and shown in proc.stderr
    assert _repos(env) == []


def test_wheel_whose_metadata_names_a_bad_repo_is_refused(tmp_path: Path, env: dict[str, str]) -> None:
    wheel = tmp_path / "evil-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("evil/__init__.py", INIT)
        zf.writestr("evil-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: ../../../escape\nVersion: 1.0\n"
                    "Project-URL: Source, https://github.com/../..\n")
    proc = run(env, "index", str(wheel))
    assert proc.returncode == 1
    assert str(wheel) in proc.stderr and "METADATA Project-URL 'Source'" in proc.stderr and "--repo" in proc.stderr
    assert _repos(env) == []
    # Named by the user instead, it indexes.
    assert run(env, "index", str(wheel), "--repo", "evil-org/evil").returncode == 0
    assert _repos(env) == ["evil-org/evil"]


def test_archive_bomb_is_refused_and_leaves_nothing_on_disk(tmp_path: Path, env: dict[str, str]) -> None:
    archive = tmp_path / "bomb-1.0.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(64):
            zf.writestr(f"pkg/m{i}.py", b"\0" * (512 * 1024))
    proc = run(env, "index", str(archive))
    assert proc.returncode == 1
    assert "expands more than 100x" in proc.stderr and "--limit archive_ratio=N" in proc.stderr
    unpacked = tmp_path / "home" / "cache" / "unpacked"
    assert not unpacked.exists() or not any(unpacked.iterdir())


def test_indexing_never_runs_the_indexed_code(tmp_path: Path, env: dict[str, str]) -> None:
    """Every file that Python or a build tool would run writes a marker; after indexing the package as
    a directory, an sdist and a wheel none exists.  The package's folder is the working directory, so
    ``python -m errdex`` could import ``pkg`` (or its ``setup``, ``conftest``) if it ever tried."""
    marker = tmp_path / "executed"
    payload = f"open({str(marker)!r}, 'a').write(__file__ + '\\n')\n"
    files = {
        "setup.py": payload, "conftest.py": payload, "sitecustomize.py": payload, "usercustomize.py": payload,
        "pkg/__init__.py": payload + INIT, "pkg/__main__.py": payload, "pkg/core.py": payload + INIT,
        "tests/test_core.py": payload + "import pytest\n\ndef test_x():\n    with pytest.raises(ValueError):\n"
                                        "        raise ValueError('bad x')\n",
        "pkg.pth": f"import os; {payload}",
        "pyproject.toml": "[build-system]\nrequires = []\nbuild-backend = 'pkg'\n",
    }
    root = _package(tmp_path / "evil-1.0", files)
    sdist = tmp_path / "evil-1.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as tf:
        for name, text in files.items():
            info = tarfile.TarInfo(f"evil-1.0/{name}")
            info.size = len(text.encode())
            tf.addfile(info, io.BytesIO(text.encode()))
        info = tarfile.TarInfo("evil-1.0/PKG-INFO")
        meta = b"Metadata-Version: 2.1\nName: evil\nVersion: 1.0\n"
        info.size = len(meta)
        tf.addfile(info, io.BytesIO(meta))
    wheel = tmp_path / "evil-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
        zf.writestr("evil-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: evil\nVersion: 1.0\n")
    for source in (root, sdist, wheel):
        proc = run(env, "index", str(source), "--no-cache", cwd=root)
        assert proc.returncode == 0, proc.stderr
    assert not marker.exists(), marker.read_text()
    assert sorted(_repos(env)) == ["local/evil", "local/evil-1.0"]  # the sdist and the wheel: one snapshot
