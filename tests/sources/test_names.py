"""The name rule shared by indexing and the web routes."""

from __future__ import annotations

import re

import pytest

from errdex.sources import names


@pytest.mark.parametrize("repo", ["jax-ml/jax", "pallets/click", "a/b.c_d-e", "0/x"])
def test_valid_repos(repo: str) -> None:
    assert names.repo_problem(repo) is None
    owner, name = repo.split("/")
    assert re.match(names.PART_ROUTE_PATTERN, owner) and re.match(names.PART_ROUTE_PATTERN, name)


@pytest.mark.parametrize("repo", ["../../escape", "a/..", "./b", "a/b/c", "a", "a/.hidden", "a/b c", "a/x.git",
                                  "a/" + "x" * 101, "a/b\n"])
def test_invalid_repos(repo: str) -> None:
    assert names.repo_problem(repo) is not None
    with pytest.raises(names.InvalidName, match="wheel METADATA Name"):
        names.check_repo(repo, where="wheel METADATA Name")


@pytest.mark.parametrize("path", ["jax/_src/core.py", "click/core.py", "__init__.py", "a-b/c.d.py"])
def test_valid_module_paths(path: str) -> None:
    assert names.module_path_problem(path) is None
    assert re.match(names.MODULE_PATH_ROUTE_PATTERN, path)


@pytest.mark.parametrize("path", ["../x.py", "a/../b.py", "a/./b.py", "/abs.py", "a//b.py", "", "a/b c.py",
                                  "x" * 501])
def test_invalid_module_paths(path: str) -> None:
    assert names.module_path_problem(path) is not None
    assert not re.match(names.MODULE_PATH_ROUTE_PATTERN, path)
