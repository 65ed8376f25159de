"""Afters a user would write (``prove/direct.py``): the public constant in place of a private call, and an array
reshaped to the length the other side of a failed ``ndim != len(...)`` check asks, every argument kept.  Built from
the sites of a tiny package this test writes, run in a plain subprocess (a minimal ``numpy`` stands in beside it:
the dev environment has none)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from errdex.extract import extract_tree
from errdex.model import ErrorSite, Snapshot
from errdex.pagenotes import KEPT_MATCHED, KEPT_PUBLIC, arguments_note
from errdex.prove.direct import (
    matched_ndim,
    public_after,
    public_instead,
    public_used,
    reshaped_to_match,
    sample_after,
)
from errdex.prove.keep import arguments_mark
from errdex.prove.mistake import change_sentence, only_drops
from errdex.sources.base import SourceTree
from errdex.sources.files import walk_python_files

LAYOUTS = '''\
import numpy

TILE_LAYOUT = ("tile", 64, 8)


def _tiled_layout(shape):
    """The tiled layout for ``shape``."""
    if len(shape) != 2:
        raise ValueError(f"Shape {shape} is not 2D")
    return TILE_LAYOUT


class Grid:
    def __init__(self, cells, names):
        cells = numpy.asarray(cells)
        if isinstance(names, str):
            names = (names,)
        if cells.ndim != len(names):
            raise ValueError(f"Grid needs cells.ndim == len(names), got {cells.ndim} and {len(names)}")
        self.cells, self.names = cells, tuple(names)
'''

NUMPY = '''\
class Array:
    def __init__(self, items, shape):
        self.items, self.shape, self.ndim = list(items), tuple(shape), len(shape)


def asarray(x):
    return x if isinstance(x, Array) else Array(x, (len(x),))


def reshape(x, shape):
    a = asarray(x)
    known = 1
    for d in shape:
        known *= d if d != -1 else 1
    shape = tuple(len(a.items) // known if d == -1 else d for d in shape)
    return Array(a.items, shape)
'''


def _lib(tmp: Path) -> list[ErrorSite]:
    pkg = tmp / "src" / "gridlib"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("from gridlib.layouts import TILE_LAYOUT, Grid\n")
    (pkg / "layouts.py").write_text(LAYOUTS)
    (tmp / "stub" / "numpy").mkdir(parents=True, exist_ok=True)
    (tmp / "stub" / "numpy" / "__init__.py").write_text(NUMPY)
    root = tmp / "src"
    return list(extract_tree(SourceTree(Snapshot(repo="acme/gridlib"), root, walk_python_files(root)), jobs=1).sites)


def _run(tmp: Path, code: str) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": f"{tmp / 'src'}{os.pathsep}{tmp / 'stub'}"}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp, timeout=60, check=False,
                       env=env)
    return p.returncode, p.stderr


SYMBOLS = {"gridlib": ("TILE_LAYOUT", "Grid"), "gridlib.layouts": ("numpy", "TILE_LAYOUT", "_tiled_layout", "Grid")}


def test_the_public_constant_takes_the_private_calls_place(tmp_path: Path) -> None:
    site = next(s for s in _lib(tmp_path) if "is not 2D" in s.template.render())
    before = "import gridlib.layouts\n\ngridlib.layouts._tiled_layout(shape=())\n"
    assert _run(tmp_path, before)[0] != 0
    [(label, after)] = public_instead(site, SYMBOLS, before)
    assert "public replacement" in label
    assert after == "import gridlib\nimport gridlib.layouts\ntile_layout = gridlib.TILE_LAYOUT\n"
    assert _run(tmp_path, after) == (0, "")
    assert not only_drops(before, after)  # bench/real_fixes.py counts it as a real fix
    assert public_used(before, after) == ("_tiled_layout", "gridlib.TILE_LAYOUT")
    assert public_used(before, before.replace("shape=()", "shape=[64, 8]")) is None  # arguments changed: not this
    mark = arguments_mark(before, after)
    assert mark == f"{KEPT_PUBLIC}_tiled_layout -> gridlib.TILE_LAYOUT"
    assert "uses the public `gridlib.TILE_LAYOUT` instead of the private call `_tiled_layout(...)`" in \
        arguments_note({"arguments": mark})
    assert "uses the public `gridlib.TILE_LAYOUT`" in change_sentence(before, after)


def test_no_public_after_without_a_returned_constant_or_a_private_call(tmp_path: Path) -> None:
    sites = _lib(tmp_path)
    grid = next(s for s in sites if "Grid needs" in s.template.render())
    private = next(s for s in sites if "is not 2D" in s.template.render())
    assert public_instead(grid, SYMBOLS, "import gridlib\ngridlib.Grid([1, 2], ('x', 'y'))\n") == []
    assert public_instead(private, {}, "import gridlib.layouts\ngridlib.layouts._tiled_layout(shape=())\n") == []
    assert public_after("import gridlib\ngridlib.Grid([1], 'x')\n", "_tiled_layout", "gridlib.TILE_LAYOUT") == ""


def test_a_dropped_name_gives_way_to_the_array_reshaped_to_match(tmp_path: Path) -> None:
    site = next(s for s in _lib(tmp_path) if "Grid needs" in s.template.render())
    before = "import gridlib\ngridlib.Grid([1, 2, 3, 4], ('x', 'y'))\n"
    dropping = "import gridlib\ngridlib.Grid([1, 2, 3, 4], ('y',))\n"
    assert _run(tmp_path, before)[0] != 0 and _run(tmp_path, dropping)[0] == 0
    assert only_drops(before, dropping)
    got = reshaped_to_match(before, dropping, site)
    assert [src for _, src in got] == [
        "import numpy\nimport gridlib\ngridlib.Grid(numpy.reshape([1, 2, 3, 4], (-1, 1)), ('x', 'y'))\n",
        "import numpy\nimport gridlib\ngridlib.Grid(numpy.reshape([1, 2, 3, 4], (2, -1)), ('x', 'y'))\n"]
    after = got[0][1]
    assert _run(tmp_path, after) == (0, "")
    assert not only_drops(before, after)
    assert matched_ndim(before, after) == ("[1, 2, 3, 4]", "numpy.reshape([1, 2, 3, 4], (-1, 1))")
    mark = arguments_mark(before, after)
    assert mark.startswith(KEPT_MATCHED)
    assert "reshapes `[1, 2, 3, 4]` to match" in arguments_note({"arguments": mark})
    assert "keeps every argument and passes `numpy.reshape(" in change_sentence(before, after)


def test_no_reshape_where_the_guard_or_the_change_is_another(tmp_path: Path) -> None:
    sites = _lib(tmp_path)
    grid = next(s for s in sites if "Grid needs" in s.template.render())
    private = next(s for s in sites if "is not 2D" in s.template.render())
    before = "import gridlib\ngridlib.Grid([1, 2, 3, 4], ('x', 'y'))\n"
    assert reshaped_to_match(before, "import gridlib\ngridlib.Grid([1, 2, 3, 4], ('y',))\n", private) == []
    assert reshaped_to_match(before, "import gridlib\ngridlib.Grid([1, 2, 3, 4], ('x', 'z'))\n", grid) == []
    assert matched_ndim(before, "import gridlib\ngridlib.Grid([1, 2], ('x', 'y'))\n") is None


def test_the_samples_come_from_the_value_only_after_when_the_public_name_is_kept() -> None:
    before = "import gridlib.layouts\ngridlib.layouts._tiled_layout(shape=())\n"
    ran = "import gridlib.layouts\ngridlib.layouts._tiled_layout(shape=[64, 8])\n"
    public = public_after(before, "_tiled_layout", "gridlib.TILE_LAYOUT")
    assert sample_after(before, public, ran) == ran  # the public name passes no value to check
    assert sample_after(before, ran, "x") == ran
