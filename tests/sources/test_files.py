"""Which files a tree yields: Python only, tests marked, caches and links skipped."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from src_builders import FLATPKG

from errdex.sources.files import files_from_list, is_test_path, walk_python_files


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param("pkg/core.py", False, id="plain-module"),
        pytest.param("tests/test_core.py", True, id="tests-folder"),
        pytest.param("pkg/test/helpers.py", True, id="test-folder"),
        pytest.param("pkg/test_util.py", True, id="test-prefix"),
        pytest.param("pkg/shapes_test.py", False, id="test-suffix-outside-tests-is-library"),
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
    assert {f.path: f.is_test for f in files}["flatpkg/sub/shapes_test.py"] is False  # by location: library
    assert all(f.abspath.is_file() and f.abspath.is_relative_to(root.resolve()) for f in files)


def test_files_from_list_drops_paths_outside_root(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / "pkg" / "data.json").write_text("{}")
    files = files_from_list(tmp_path, ["pkg/a.py", "pkg/data.json", "../../bin/tool.py", "/etc/x.py", "pkg/missing.py"])
    assert [f.path for f in files] == ["pkg/a.py"]
