"""Error ids: stable when a raise moves or is reformatted, never shared by two sites."""

from __future__ import annotations

import re
from pathlib import Path

from extract_helpers import extract_dir

from errdex.model import ExtractResult

V1 = '''\
def check(x):
    if x is None:
        raise ValueError(f"the value {x} is missing from the config file")
    return x


def twice(a):
    if a:
        raise RuntimeError("the same message twice")
    raise RuntimeError("the same message twice")
'''

# The same code after an edit: lines added above, the raise re-wrapped, the placeholder renamed.
V2 = '''\
import os

HELP = "unrelated"


def check(value):
    """Now with a docstring."""
    if value is None:
        raise ValueError(
            f"the value {value} is missing "
            "from the config   file"
        )
    return value


def twice(a):
    if a:
        raise RuntimeError("the same message twice")
    raise RuntimeError(
        "the same message twice")
'''


def _write(root: Path, text: str) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "mod.py").write_text(text)
    return root


def _ids(result: ExtractResult) -> dict[tuple[str, int], str]:
    return {(s.qualname, i): s.error_id for s in result.sites
            for i in [sorted(x.line for x in result.sites if x.qualname == s.qualname).index(s.line)]}


def test_ids_are_16_hex_and_unique(shapes: ExtractResult) -> None:
    ids = [s.error_id for s in shapes.sites]
    assert all(re.fullmatch(r"[0-9a-f]{16}", i) for i in ids)
    assert len(set(ids)) == len(ids)


def test_moved_and_reformatted_raise_keeps_its_id(tmp_path: Path) -> None:
    a = extract_dir(_write(tmp_path / "v1", V1))
    b = extract_dir(_write(tmp_path / "v2", V2))
    check_a = next(s for s in a.sites if s.qualname == "check")
    check_b = next(s for s in b.sites if s.qualname == "check")
    assert check_a.line != check_b.line
    assert check_a.error_id == check_b.error_id
    assert _ids(a) == _ids(b)


def test_two_identical_raises_in_one_function_get_different_ids(tmp_path: Path) -> None:
    result = extract_dir(_write(tmp_path, V1))
    twice = sorted((s for s in result.sites if s.qualname == "twice"), key=lambda s: s.line)
    assert len(twice) == 2
    assert twice[0].template == twice[1].template
    assert twice[0].error_id != twice[1].error_id


def test_ids_are_deterministic(tmp_path: Path) -> None:
    root = _write(tmp_path, V1)
    assert _ids(extract_dir(root)) == _ids(extract_dir(root))


def test_repo_is_part_of_the_id(tmp_path: Path) -> None:
    root = _write(tmp_path, V1)
    a = extract_dir(root, repo="acme/one")
    b = extract_dir(root, repo="acme/two")
    assert {s.error_id for s in a.sites}.isdisjoint({s.error_id for s in b.sites})
