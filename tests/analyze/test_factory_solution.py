"""The public function that creates the class, offered where its constructor's check fails
(``analyze/static/factory.py``; rating 8, bce3: `jax.sharding.Mesh` refused its devices and the page had no
fix, where `jax.make_mesh((2, 8), ('x', 'y'))` builds the devices from a shape and the names together)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.context import load_context
from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_facts
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.sources import open_source

PKG = {
    "gridlike/__init__.py": "from .grid import make_grid as make_grid, make_plain as make_plain\n",
    "gridlike/grid.py": (
        "import numpy as np\n\n\n"
        "class Grid:\n"
        "    \"\"\"Devices laid out on named axes.\"\"\"\n\n"
        "    def __init__(self, devices, axis_names):\n"
        "        devices = np.asarray(devices)\n"
        "        if devices.ndim != len(axis_names):\n"
        "            raise ValueError(\n"
        "                f'Grid needs one axis name per dimension of devices, got {devices.ndim} and '\n"
        "                f'{len(axis_names)}')\n"
        "        self.devices = devices\n"
        "        self.axis_names = tuple(axis_names)\n\n\n"
        "def make_grid(axis_shapes, axis_names):\n"
        "    \"\"\"Creates a grid with the shape and axis names specified.\n\n"
        "    >>> g = gridlike.make_grid((2, 4), ('x', 'y'))\n"
        "    >>> g = gridlike.make_grid((8,), ('x',))  # one axis\n\n"
        "    Returns:\n      A :class:`gridlike.Grid`.\n"
        "    \"\"\"\n"
        "    if len(axis_shapes) != len(axis_names):\n"
        "        raise ValueError('axis_shapes and axis_names must have the same length')\n"
        "    devices = np.arange(int(np.prod(axis_shapes))).reshape(axis_shapes)\n"
        "    return Grid(devices, axis_names)\n\n\n"
        "class Plain:\n"
        "    def __init__(self, size):\n"
        "        if size < 0:\n"
        "            raise ValueError('size must not be negative')\n"
        "        self.size = size\n\n\n"
        "def make_plain():\n"
        "    \"\"\"Makes a thing.\n\n    >>> gridlike.make_plain()\n    \"\"\"\n"
        "    if _broken():\n"
        "        raise RuntimeError('cannot make it')\n"
        "    return Plain(1)\n\n\n"
        "def _broken():\n    return False\n"),
}


def _pages(tmp_path: Path) -> dict[str, object]:
    for rel, text in PKG.items():
        (tmp_path / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / rel).write_text(text)
    cat = SqliteCatalog(tmp_path / "c.sqlite")
    with open_source(str(tmp_path / "src"), repo="example/gridlike", ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    snap = cat.snapshots()[0]
    ctx = load_context(cat, snap)
    out: dict[str, object] = {}
    for s in ctx.sites:
        f = gather_facts(cat, snap, s, context=ctx)
        out[s.template.render()[:20]] = (f, analyze_facts(f, ctx))
    cat.close()
    return out


def test_the_function_that_creates_the_class_is_offered_in_its_own_words(tmp_path: Path) -> None:
    pages = _pages(tmp_path)
    f, a = pages["Grid needs one axis "]  # type: ignore[misc]
    assert [d[0] for d in f.factory_docs] == ["gridlike.make_grid"]
    texts = [s.text for s in a.solutions]
    made = [t for t in texts if "`gridlike.make_grid`" in t]
    assert made == ["Or let `gridlike.make_grid` create the `Grid`: \"Creates a grid with the shape and axis names "
                    "specified.\" (its docstring's example: `gridlike.make_grid((2, 4), ('x', 'y'))`)."], texts
    assert texts.index(made[0]) > 0  # after the page's own solution
    # the Defensive note takes it as the supported path instead of "no fallback" (sixteenth pages round)
    assert a.guard_note.endswith(  # type: ignore[attr-defined]
        "take the supported path around it: let `gridlike.make_grid` create the "
        "`Grid` (its docstring's example: `gridlike.make_grid((2, 4), ('x', 'y'))`), which builds the arguments "
        "this check compares."), a.guard_note  # type: ignore[attr-defined]
    # a factory whose docstring names no such class, or no call of itself, lends nothing; nor does a function
    _f, plain = pages["size must not be neg"]  # type: ignore[misc]
    assert not any("make_plain" in s.text for s in plain.solutions)
    _g, own = pages["axis_shapes and axis"]  # type: ignore[misc]
    assert not any("create the" in s.text for s in own.solutions)


_ARGS = ("    Args:\n      axis_shapes: Shape of the grid. For example, (4, 2).\n"
         "      axis_names: Names of the grid axes.\n\n    Returns:\n")


def test_a_factory_whose_shape_matches_the_names_is_the_prevention(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # rating 12, bce3: Prevention was absent; readers wrote "build meshes with `jax.make_mesh(shape, names)`, where
    # `len(shape) == len(names)`", which the factory's Args ("Shape of ...") and its examples support
    grid = PKG["gridlike/grid.py"].replace("    Returns:\n", _ARGS, 1)
    monkeypatch.setitem(PKG, "gridlike/grid.py", grid)
    _f, a = _pages(tmp_path)["Grid needs one axis "]  # type: ignore[misc]
    assert any(p.startswith("Build the `Grid` with `gridlike.make_grid(axis_shapes, axis_names)`, where "
                            "`len(axis_shapes) == len(axis_names)` (as each example in its docstring: "
                            "`gridlike.make_grid((2, 4), ('x', 'y'))`)") and "`numpy.ndim(devices) == len(axis_names)`" in p
               for p in a.prevention), a.prevention
    assert any(s.startswith("Calling `gridlike.make_grid` with more or fewer `axis_names` than `axis_shapes`")
               for s in a.situations), a.situations


def test_no_shape_rule_when_an_example_gives_other_lengths_or_no_parameter_is_a_shape(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    grid = PKG["gridlike/grid.py"].replace("    Returns:\n", _ARGS, 1).replace("((8,), ('x',))", "((8,), ('x', 'y'))")
    monkeypatch.setitem(PKG, "gridlike/grid.py", grid)
    _f, a = _pages(tmp_path)["Grid needs one axis "]  # type: ignore[misc]
    assert not any(p.startswith("Build the `Grid`") for p in a.prevention), a.prevention
    other = PKG["gridlike/grid.py"].replace("    Returns:\n", _ARGS.replace("Shape of", "Sizes of"), 1)
    monkeypatch.setitem(PKG, "gridlike/grid.py", other)
    _f, a = _pages(tmp_path / "b")["Grid needs one axis "]  # type: ignore[misc]
    assert not any(p.startswith("Build the `Grid`") for p in a.prevention), a.prevention
