"""Distributions by name: metadata → repo and tag, installed:NAME, and pypi: (network)."""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path

import pytest

from errdex.sources import SourceError, open_source
from errdex.sources.metadata import parse_metadata_text, repo_from_metadata, tag_for
from errdex.sources.packages import archive_has_tests, fetch_pypi, parse_pypi_spec


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("pypi:jax", ("jax", None)),
        ("pypi:jax==0.10.2", ("jax", "0.10.2")),
        ("pypi:zope.interface == 6.0", ("zope.interface", "6.0")),
    ],
)
def test_parse_pypi_spec(spec: str, expected: tuple[str, str | None]) -> None:
    assert parse_pypi_spec(spec) == expected


@pytest.mark.parametrize("spec", ["pypi:", "pypi:-bad", "pypi:jax>=1", "pypi:jax==", "pypi:a b"])
def test_bad_pypi_specs(spec: str) -> None:
    with pytest.raises(SourceError, match="expected pypi:NAME or pypi:NAME==VERSION"):
        parse_pypi_spec(spec)


def test_tag_rules() -> None:
    assert tag_for("jax-ml/jax", "0.10.2") == "jax-v0.10.2"
    assert tag_for("JAX-ML/jax", "0.10.2") == "jax-v0.10.2"
    assert tag_for("benjaminp/six", "1.16.0") == "1.16.0"
    assert tag_for("someone/else", "2.0") == "v2.0"


def test_repo_from_metadata_prefers_source_url() -> None:
    urls = [("Documentation", "https://docs.example.org"), ("Issues", "https://github.com/org/issues-only/issues"),
            ("Source", "https://github.com/org/real")]
    assert repo_from_metadata(urls, None) == "org/real"
    assert repo_from_metadata([], "https://github.com/org/home") == "org/home"
    assert repo_from_metadata([("Homepage", "https://example.org")], "https://example.org") is None


def test_parse_jax_like_metadata() -> None:
    meta = parse_metadata_text(
        "Metadata-Version: 2.4\nName: jax\nVersion: 0.10.2\nHome-page: https://github.com/jax-ml/jax\n"
        "Project-URL: Source Code, https://github.com/jax-ml/jax\n\nlong description\n"
    )
    assert (meta.name, meta.version, meta.repo) == ("jax", "0.10.2", "jax-ml/jax")


def test_installed_distribution_reads_its_recorded_files() -> None:
    dist = importlib.metadata.distribution("typer")
    with open_source("installed:typer") as tree:
        snap = tree.snapshot
        assert snap.source_kind == "installed"
        assert snap.version == dist.version
        assert snap.repo == "fastapi/typer"
        assert snap.ref == f"v{dist.version}"
        paths = {f.path for f in tree.files}
        assert "typer/main.py" in paths
        assert all(p.endswith(".py") for p in paths)
        assert all((tree.root / p).is_file() for p in paths)


def test_installed_editable_reads_the_project_directory() -> None:
    """errdex itself is installed editable in the test venv: its RECORD has no code."""
    with open_source("installed:errdex") as tree:
        snap = tree.snapshot
        assert snap.source_kind == "installed"
        assert snap.path_prefix == "src/"
        paths = {f.path for f in tree.files}
        assert {"errdex/cli.py", "errdex/sources/packages.py"} <= paths
        cli = next(f for f in tree.files if f.path == "errdex/cli.py")
        assert cli.abspath == tree.root / "src" / "errdex" / "cli.py"


def test_installed_unknown_is_clear_error() -> None:
    with pytest.raises(SourceError, match="no distribution named 'no-such-dist-xyz' is installed"), \
            open_source("installed:no-such-dist-xyz"):
        pass


def test_archive_has_tests(tmp_path: Path) -> None:
    from src_builders import build_sdist, build_wheel

    assert archive_has_tests(build_sdist(tmp_path)) is True
    assert archive_has_tests(build_wheel(tmp_path)) is False


def test_an_sdist_with_tests_beside_its_modules_has_tests(tmp_path: Path) -> None:
    import zipfile

    from src_builders import COLOCATED, tree_files

    sdist = tmp_path / "qubitkit-0.3.0.zip"
    with zipfile.ZipFile(sdist, "w") as zf:
        for rel, data in tree_files(COLOCATED):
            if not (rel.endswith("_test.py") and "/protocols/" in rel):
                zf.writestr(f"qubitkit-0.3.0/{rel}", data)
    assert archive_has_tests(sdist) is False  # only the statistical tests: library code
    with zipfile.ZipFile(sdist, "a") as zf:
        zf.writestr("qubitkit-0.3.0/qubitkit/protocols/resolve_test.py", b"def test_resolve_none(): ...\n")
    assert archive_has_tests(sdist) is True  # beside resolve.py


@pytest.mark.network
def test_pypi_six_prefers_sdist_with_tests_and_caches_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_PYPI_SDIST", "1")
    archive = fetch_pypi("six", "1.16.0")
    assert archive.name == "six-1.16.0.tar.gz"
    choice = archive.parent.parent / "choice.json"
    assert json.loads(choice.read_text()) == {"file": "sdist/six-1.16.0.tar.gz"}
    assert fetch_pypi("six", "1.16.0") == archive  # from the cache, pip not asked again
    with open_source("pypi:six==1.16.0") as tree:
        snap = tree.snapshot
        assert (snap.source_kind, snap.repo, snap.ref, snap.version) == ("pypi", "benjaminp/six", "1.16.0", "1.16.0")
        assert {f.path: f.is_test for f in tree.files}.items() >= {"six.py": False, "test_six.py": True}.items()


@pytest.mark.network
def test_pypi_unknown_package_is_clear_error() -> None:
    with pytest.raises(SourceError, match=r"pypi:no-such-package-errdex-xyz==1.0: no wheel could be downloaded \(ERROR: No matching distribution"), \
            open_source("pypi:no-such-package-errdex-xyz==1.0"):
        pass


@pytest.mark.network
def test_pypi_download_cache_keeps_the_most_recently_used_within_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # six's wheels are about 11 KB each: a 25,000-byte cache holds two of them.
    monkeypatch.setenv("ERRDEX_LIMIT_DOWNLOAD_CACHE_BYTES", "25000")
    monkeypatch.delenv("ERRDEX_PYPI_SDIST", raising=False)
    first = fetch_pypi("six", "1.14.0")
    second = fetch_pypi("six", "1.15.0")
    assert fetch_pypi("six", "1.14.0") == first  # used again: now the most recent of the two
    third = fetch_pypi("six", "1.16.0")
    assert third.is_file() and first.is_file()
    assert not second.exists() and not second.parent.parent.exists()  # the least recently used went
    cached = sum(p.stat().st_size for p in first.parents[2].rglob("*") if p.is_file())
    assert cached <= 25000
