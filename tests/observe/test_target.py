"""Finding the tests: folders of an sdist or checkout, --tests paths, the project's norecursedirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.observe.target import TargetError, given_tests, package_roots, project_tests


def _project(root: Path, config: str) -> Path:
    for rel in ("tests/test_a.py", "tests/sub/b_test.py", "tests/helpers.py", "tests/mypy_cases/test_m.py",
                "tests/.hidden/test_h.py", "src/pkg/__init__.py", "src/pkg/test_util.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("")
    (root / "pyproject.toml").write_text(config)
    return root


def test_tests_folder_without_what_the_project_excludes(tmp_path: Path) -> None:
    root = _project(tmp_path, '[tool.pytest.ini_options]\nnorecursedirs = "docs tests/mypy_cases"\n')
    tree = project_tests(root, "sdist")
    assert tree is not None and tree.files == ("tests/sub/b_test.py", "tests/test_a.py")


def test_norecursedirs_from_setup_cfg(tmp_path: Path) -> None:
    root = _project(tmp_path, "")
    (root / "setup.cfg").write_text("[tool:pytest]\nnorecursedirs = mypy_*\n")
    tree = project_tests(root, "sdist")
    assert tree is not None and "tests/mypy_cases/test_m.py" not in tree.files


def test_tests_option_with_files_of_a_checkout(tmp_path: Path) -> None:
    root = _project(tmp_path, "")
    tree = given_tests([root / "tests" / "test_a.py", root / "tests" / "sub"])
    assert tree.root == root and tree.files == ("tests/test_a.py", "tests/sub/b_test.py")
    whole = given_tests([root])
    assert whole.root == root and "tests/mypy_cases/test_m.py" in whole.files
    with pytest.raises(TargetError):
        given_tests([root / "missing.py"])


def test_package_roots() -> None:
    assert package_roots(["click/core.py", "click/types.py", "six.py", "bad-name/x.py"]) == ("click", "six.py")
