"""Which files a tree yields: Python only, tests marked (colocated ``X_test.py`` too), caches and links skipped."""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import pytest
from src_builders import COLOCATED, FLATPKG, tree_files

from errdex.extract import extract_tree
from errdex.sources import open_source
from errdex.sources.base import SourceFile
from errdex.sources.files import colocated_tests, files_from_list, is_test_path, walk_python_files
from errdex.sources.inplace import wheel_files


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param("pkg/core.py", False, id="plain-module"),
        pytest.param("tests/test_core.py", True, id="tests-folder"),
        pytest.param("pkg/test/helpers.py", True, id="test-folder"),
        pytest.param("pkg/test_util.py", True, id="test-prefix"),
        pytest.param("pkg/shapes_test.py", False, id="test-suffix-alone-is-not-judged-here"),
        pytest.param("scipy/stats/_bws_test.py", False, id="a-statistical-test-module"),
        pytest.param("tests/api_test.py", True, id="test-suffix-in-tests"),
        pytest.param("conftest.py", True, id="conftest"),
        pytest.param("pkg/testing.py", False, id="testing-module-is-library"),
        pytest.param("pkg/contest.py", False, id="not-a-test"),
        pytest.param("latest/x.py", False, id="folder-named-like-test-suffix"),
    ],
)
def test_is_test_path(path: str, expected: bool) -> None:
    assert is_test_path(path) is expected


def test_walk_skips_caches_non_python_and_links(tmp_path: Path) -> None:
    root = tmp_path / "flat"
    shutil.copytree(FLATPKG, root)
    (root / "flatpkg" / "__pycache__").mkdir()
    (root / "flatpkg" / "__pycache__" / "stale.py").write_text("x = 1\n")
    (root / ".git").mkdir()
    (root / ".git" / "hook.py").write_text("x = 1\n")
    outside = tmp_path / "outside.py"
    outside.write_text("raise ValueError('outside the tree')\n")
    os.symlink(outside, root / "flatpkg" / "linked.py")
    os.symlink(tmp_path, root / "flatpkg" / "linked_dir")

    files = walk_python_files(root)
    assert [f.path for f in files] == [
        "flatpkg/__init__.py",
        "flatpkg/sub/shapes.py",
        "flatpkg/sub/shapes_test.py",
        "setup.py",
    ]
    is_test = {f.path: f.is_test for f in files}
    assert is_test["flatpkg/sub/shapes_test.py"] is True  # shapes.py is beside it
    assert is_test["flatpkg/sub/shapes.py"] is False
    assert all(f.abspath.is_file() and f.abspath.is_relative_to(root.resolve()) for f in files)


def test_files_from_list_drops_paths_outside_root(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / "pkg" / "data.json").write_text("{}")
    files = files_from_list(tmp_path, ["pkg/a.py", "pkg/data.json", "../../bin/tool.py", "/etc/x.py", "pkg/missing.py"])
    assert [f.path for f in files] == ["pkg/a.py"]


@pytest.mark.parametrize(
    ("paths", "expected"),
    [
        pytest.param(["cirq/work/sampler.py", "cirq/work/sampler_test.py"], {"cirq/work/sampler_test.py"},
                     id="beside-its-module"),
        pytest.param(["scipy/stats/_bws_test.py", "scipy/stats/_stats_py.py"], set(), id="a-statistical-test"),
        pytest.param(["deal/_mem_test.py", "deal/_cli/_test.py", "deal/_cli/_main.py"], set(), id="no-sibling-no-name"),
        pytest.param(["pkg/a.py", "pkg/a_test.py", "pkg/b_test.py"], {"pkg/a_test.py"}, id="one-pair-is-no-suite"),
        pytest.param(["pkg/a.py", "pkg/a_test.py", "pkg/b.py", "pkg/b_test.py", "pkg/pkg_test.py"],
                     {"pkg/a_test.py", "pkg/b_test.py", "pkg/pkg_test.py"}, id="the-rest-of-a-suite"),
        pytest.param(["pkg/a.py", "pkg/a_test.py", "pkg/b.py", "pkg/b_test.py", "pkg/c_test.py", "pkg/d_test.py"],
                     {"pkg/a_test.py", "pkg/b_test.py"}, id="half-paired-is-no-suite"),
        pytest.param(["other/a.py", "pkg/a_test.py"], set(), id="sibling-in-another-folder"),
        pytest.param(["setup.py", "setup_test.py"], {"setup_test.py"}, id="top-level"),
    ],
)
def test_colocated_tests(paths: list[str], expected: set[str]) -> None:
    assert colocated_tests(paths) == expected


COLOCATED_TESTS = {
    "qubitkit/protocols/measurement_key_test.py": True,
    "qubitkit/protocols/resolve_test.py": True,
    "qubitkit/protocols/hash_from_pickle_test.py": True,  # no sibling, but two of the folder's three have one
    "qubitkit/protocols/measurement_key.py": False,
    "qubitkit/stats/_bws_test.py": False,  # a statistical test: no _bws.py
    "qubitkit/stats/_page_trend_test.py": False,
}


def _judged(files: tuple[SourceFile, ...]) -> dict[str, bool]:
    return {f.path: f.is_test for f in files if f.path in COLOCATED_TESTS}


def test_every_source_kind_decides_colocated_tests_alike(tmp_path: Path) -> None:
    assert _judged(walk_python_files(COLOCATED)) == COLOCATED_TESTS
    members = [rel for rel, _ in tree_files(COLOCATED)]
    assert _judged(files_from_list(COLOCATED, members)) == COLOCATED_TESTS
    wheel = tmp_path / "qubitkit-0.3.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for rel, data in tree_files(COLOCATED):
            zf.writestr(rel, data)
        zf.writestr("qubitkit-0.3.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: qubitkit\nVersion: 0.3.0\n")
    assert _judged(wheel_files(wheel)[0]) == COLOCATED_TESTS


def test_a_colocated_test_is_evidence_not_a_site(tmp_path: Path) -> None:
    root = Path(shutil.copytree(COLOCATED, tmp_path / "qubitkit-0.3.0"))
    with open_source(str(root)) as tree:
        result = extract_tree(tree, jobs=1)
    sites = {(s.path.rsplit("/", 1)[-1], s.exception) for s in result.sites}
    assert ("measurement_key_test.py", "ValueError") not in sites  # the test helper's raise ValueError('missing keys')
    assert ("hash_from_pickle_test.py", "ValueError") not in sites
    assert {("_bws_test.py", "ValueError"), ("_page_trend_test.py", "ValueError")} <= sites
    assert {(t.path, t.exception) for t in result.tests} >= {
        ("qubitkit/protocols/measurement_key_test.py", "ValueError"),
        ("qubitkit/protocols/resolve_test.py", "TypeError"),
    }
