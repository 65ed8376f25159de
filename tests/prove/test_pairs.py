"""Two edits at once (pairs.py), the expectations distill unwraps (an ``assertRaises`` alias, a
``check_raises`` thunk), absl cases computed at run time, and the values no edit of the script's own
gives (mutate's fill edits, the trace adapter's arrays / None values / converters): parsing only."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.prove.distill import Distilled, distill
from errdex.prove.mutate import variants
from errdex.prove.pairs import paired, tripled


def _distill(tmp_path: Path, text: str, node: str, line: int) -> Distilled:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(text)
    return distill(tmp_path, f"tests/test_x.py::{node}", (f"t (tests/test_x.py:{line})",))[0]


def test_assert_raises_alias_is_unwrapped_and_its_other_calls_dropped(tmp_path: Path) -> None:
    d = _distill(tmp_path, (
        "import functools\nimport unittest\nimport lib\n\n\nclass T(unittest.TestCase):\n"
        "    def test_x(self):\n"
        "        check = functools.partial(self.assertRaisesRegex, TypeError, 'bad')\n"
        "        check(lib.f, 1)\n"
        "        check(lib.g, 2, key=3)\n"), "T::test_x", 10)
    assert d.source == "import lib\nlib.g(2, key=3)\n"


def test_check_raises_thunk_is_called(tmp_path: Path) -> None:
    d = _distill(tmp_path, (
        "import lib\nfrom lib import testing\n\n\ndef test_x():\n"
        "    testing.check_raises(lambda: lib.f(0), ValueError, 'first')\n"
        "    testing.check_raises(lambda: lib.f(1), ValueError, 'second')\n"), "test_x", 7)
    assert d.source == "import lib\nlib.f(1)\n"


def test_absl_parameters_computed_by_a_comprehension(tmp_path: Path) -> None:
    d = _distill(tmp_path, (
        "import lib\nfrom absl.testing import parameterized\n\n\nclass T(parameterized.TestCase):\n\n"
        "    @parameterized.parameters([dict(mode=m, jit=j) for m in ['a', 'b'] for j in lib.JITS if m])\n"
        "    def test_run(self, jit, mode):\n        lib.run(jit, mode)\n"), "T::test_run3", 9)
    assert "jit = [dict(mode=m, jit=j) for m in ['a', 'b'] for j in lib.JITS if m][3]['jit']\n" in d.source
    assert d.source.endswith("[3]['mode']\nlib.run(jit, mode)\n")


def test_fill_edits_and_adapter_values(tmp_path: Path) -> None:
    d = _distill(tmp_path, (
        "import jax\nimport numpy as np\n\n\ndef test_x():\n    arr = np.ma.array([1, 2], mask=[True, False])\n"
        "    jax.vmap(lambda x: x)({}, None, arr, np.zeros(3))\n"), "test_x", 7)
    got = dict(variants(d, (), "jax"))
    assert got["{} -> one element"].endswith("jax.vmap(lambda x: x)([1], None, arr, np.zeros(3))\n")
    assert got["{} -> an array"].startswith("import jax.numpy as jnp\n")
    assert got["{} -> an array"].endswith("jax.vmap(lambda x: x)(jnp.ones(2), None, arr, np.zeros(3))\n")
    assert got["None -> 'float32'"].endswith("({}, 'float32', arr, np.zeros(3))\n")
    assert got["arr -> numpy.asarray(arr)"].endswith("({}, None, np.asarray(arr), np.zeros(3))\n")
    assert got["arr -> arr[0] (one element)"].endswith("({}, None, arr[0], np.zeros(3))\n")
    assert "{} -> an array" not in dict(variants(d, (), "otherlib"))  # no adapter: generic edits only


def test_pairs_start_from_the_singles_that_got_past_the_error(tmp_path: Path) -> None:
    d = _distill(tmp_path, (
        "import numpy as np\nfrom jax import grad\n\n\ndef test_x():\n"
        "    def f(x):\n        return np.exp(x)\n    grad(f)(np.zeros(3))\n"), "test_x", 8)
    singles = variants(d, (), "jax")
    twin = next(src for why, src in singles if why == "np.exp -> jax.numpy.exp in the traced function")
    pairs = paired(d, (), "jax", [twin], [src for _, src in singles])
    got = dict(pairs)
    both = got["np.exp -> jax.numpy.exp in the traced function, and np.zeros(3) -> 1.0 (a scalar)"]
    assert both.endswith("def f(x):\n    return jnp.exp(x)\ngrad(f)(1.0)\n")
    assert not {src for _, src in singles} & set(got.values())  # only pairs


def test_without_progress_pairs_are_bounded(tmp_path: Path) -> None:
    d = _distill(tmp_path, "import lib\n\n\ndef test_x():\n    lib.window(size=0, step=0)\n", "test_x", 5)
    pairs = paired(d, (), "lib")
    assert 0 < len(pairs) <= 40 and all(", and " in why for why, _ in pairs)
    assert dict(pairs)["without step=, and 0 -> 1"].endswith("lib.window(size=1)\n")  # each first edited again


def test_triples_start_from_the_pairs_that_got_past_the_error(tmp_path: Path) -> None:
    """Three arguments wrong: a pair that got past this error is edited a third time, the marks of the
    raising call kept through both earlier edits."""
    d = _distill(tmp_path, "import lib\n\n\ndef test_x():\n    lib.box(0, 0, 0)\n", "test_x", 5)
    singles = variants(d, (), "lib")
    modules: dict[str, ast.Module] = {}
    one = next(src for why, src in singles if src.endswith("lib.box(1, 0, 0)\n"))
    pairs = paired(d, (), "lib", [one], [src for _, src in singles], modules)
    first = next((why, src) for why, src in pairs if src.endswith("lib.box(1, 1, 0)\n"))
    triples = tripled(d, [(first[0], modules[first[1]])], (), "lib", [src for _, src in (*singles, *pairs)])
    got = {src: why for why, src in triples}
    assert "import lib\nlib.box(1, 1, 1)\n" in got and got["import lib\nlib.box(1, 1, 1)\n"].count(", and ") == 2
    assert not set(got) & {src for _, src in (*singles, *pairs)}  # only triples
