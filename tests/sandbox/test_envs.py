"""Environments: what a project declares for its tests, which Python, and a real cached build."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from errdex.sandbox import EnvSpec, declared_test_requirements, ensure_environment, find_python
from errdex.sandbox.pythons import PythonNotFound
from errdex.sandbox.testdeps import extras_from_metadata, unpinned


def test_declared_test_requirements_from_every_place(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "shop"\n[project.optional-dependencies]\ntests = ["pytest>=7", "shop[fast]"]\n'
        'docs = ["sphinx"]\n'
        '[dependency-groups]\nlint = ["ruff"]\ntesting = ["hypothesis", {include-group = "lint"}]\n'
    )
    (tmp_path / "requirements").mkdir()
    (tmp_path / "requirements" / "tests.txt").write_text(
        "# pinned\n-r base.txt\nfreezegun==1.5.1  # time\n-e .\nhttps://example.org/x.whl\n"
    )
    (tmp_path / "requirements" / "base.txt").write_text("attrs\n")
    reqs = declared_test_requirements(tmp_path, own="shop")
    assert reqs == ("pytest>=7", "hypothesis", "ruff", "attrs", "freezegun==1.5.1")
    assert "sphinx" not in reqs


def test_test_extras_from_metadata() -> None:
    meta = (
        "Metadata-Version: 2.1\nName: m\nVersion: 1\nProvides-Extra: tests\nProvides-Extra: docs\n"
        "Requires-Dist: packaging\nRequires-Dist: pytest; extra == \"tests\"\n"
        "Requires-Dist: simplejson; extra == \"tests\" and python_version >= \"3.8\"\n"
        "Requires-Dist: sphinx; extra == \"docs\"\n\n"
    )
    provided, reqs = extras_from_metadata(meta)
    assert provided == ["tests"]
    assert reqs == ["pytest", "simplejson"]


def test_unpinned_keeps_names_extras_markers() -> None:
    assert unpinned(["a==1", "b[x]>=2; python_version < '3.12'"]) == ("a", 'b[x]; python_version < "3.12"')


def test_find_python_honours_requires_python_and_override() -> None:
    info = find_python(f"=={sys.version_info.major}.{sys.version_info.minor}.*")
    assert info.minor == f"{sys.version_info.major}.{sys.version_info.minor}"
    assert find_python(explicit=sys.executable).version.startswith(info.minor)
    with pytest.raises(PythonNotFound):
        find_python("<3.0")
    with pytest.raises(PythonNotFound):
        find_python(explicit="/nonexistent/python")


@pytest.mark.network
@pytest.mark.slow
def test_environment_holds_exactly_the_version_and_is_cached(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_HOME", str(tmp_path / "home"))
    spec = EnvSpec(name="six", version="1.16.0", test_requirements=("iniconfig",))
    env = ensure_environment(spec)
    assert "six==1.16.0" in env.installed and any(d.startswith("pytest==") for d in env.installed)
    assert any(d.startswith("iniconfig==") for d in env.installed)
    assert (env.site_packages[0] / "six.py").is_file()
    again = ensure_environment(spec)
    assert again.root == env.root and again.build_s == env.build_s  # the cached one, not rebuilt
