"""The climb of prove/search_climb.py on devlib (tests/fixtures/prove_devlib): no change of a call that raises
"same dtype" runs clean (the launch reads the host device's ``core_count``, which it has not), but one change at a
time, each raising deeper in ``ops.py``, reaches a call that passes every check and stops on the device: that call
is the after that passes the check.  Also the strategies it draws on: a class of a public module built with its
own int defaults, an array the adapter writes recognised."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.prove import search_strategies
from errdex.prove.search_climb import climb, depth, lacking, nearest_hit, raising_line

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_devlib"
OPS = "devlib/ops.py"
LACKS = [["AttributeError", r"device\w*\([^)]*\)(?:\[\d+\])?\.(?P<attr>\w+)", "{device}"]]
VALUES = {"a": ["'float32'", "'int8'", "'float16'"], "b": ["'float32'", "'float16'", "'int8'"],
          "config": ["None", "devlib.Config(1, 1)", "devlib.Config(64, 64)"]}


@pytest.fixture(autouse=True)
def devlib() -> Iterator[None]:
    sys.path.insert(0, str(FIXTURE))
    try:
        yield
    finally:
        sys.path.remove(str(FIXTURE))
        for m in [m for m in sys.modules if m == "devlib" or m.startswith("devlib.")]:
            del sys.modules[m]


def _site_line() -> int:
    lines = (FIXTURE / OPS).read_text().splitlines()
    return next(i for i, t in enumerate(lines, 1) if "same dtype" in t)


def _render(o: tuple[str, str, None, list[tuple[str, str]]]) -> str:
    args = dict(o[3])
    return f"import devlib\ndevlib.mixed_matmul({args['a']}, {args['b']}, config={args['config']})\n"


def _options(o: tuple[str, str, None, list[tuple[str, str]]]) -> list[tuple[str, str, None, list[tuple[str, str]]]]:
    out = []
    for i, (name, v) in enumerate(o[3]):
        for alt in VALUES[name]:
            if alt != v:
                new = list(o[3])
                new[i] = (name, alt)
                out.append(("args", name, None, new))
    return out


def _run(src: str) -> BaseException | None:
    try:
        exec(compile(src, "example.py", "exec"), {"__name__": "__main__"})
    except Exception as exc:
        return exc
    return None


START = ("args", "", None, [("a", "'float32'"), ("b", "'float32'"), ("config", "None")])


def test_the_climb_passes_every_check_and_stops_on_the_device() -> None:
    below = _site_line()
    exc = _run(_render(START))
    assert isinstance(exc, ValueError) and depth(exc, OPS, below) == 0  # the hit: stopped at the site
    [climbed] = climb(_run, _render, _options, START, OPS, below, LACKS)
    after = _render(climbed)
    assert "'int8', 'float16'" in after and "Config(64, 64)" in after  # dtypes, then a config whose tile divides
    stop = _run(after)
    assert isinstance(stop, AttributeError) and lacking(stop, LACKS)
    assert raising_line(stop)[2] == "cores = default_device().core_count"
    assert depth(stop, OPS, below) > below
    # the before shown beside it: the climbed call with one change that raises at the site again
    before = nearest_hit(_run, _render, _options, climbed, lambda e: isinstance(e, ValueError) and depth(e, OPS, below) == 0
                         and raising_line(e)[1] == below)
    assert before == after.replace("('int8', ", "('float16', ")  # ``a`` given ``b``'s dtype: the one change


def test_no_lacks_no_climb_and_no_stop_of_its_arguments_counts() -> None:
    below = _site_line()
    assert climb(_run, _render, _options, START, OPS, below, []) == []
    # a call stopped by a later check of its arguments is deeper, but nothing the machine lacks
    exc = _run(_render(("args", "", None, [("a", "'int8'"), ("b", "'float16'"), ("config", "None")])))
    assert depth(exc, OPS, below) > below and not lacking(exc, LACKS)


def test_a_class_of_a_public_module_is_built_there_with_its_own_int_defaults() -> None:
    import devlib.ops

    search_strategies.PACKAGE[0] = "devlib"
    try:
        assert search_strategies.own_public(devlib.ops.Config)
        made = search_strategies.library_values(devlib.ops.Config)
    finally:
        search_strategies.PACKAGE[0] = ""
    assert "devlib.Config(64, 64)" in made  # exported at the top: built by that name, ints the class's own 64


def test_an_array_written_as_the_adapter_writes_arrays_is_varied() -> None:
    adapter = {"array": "np.zeros({shape}, {dtype})", "dims": [128, 8], "dtypes": ["'int8'"]}
    got = search_strategies.array_variants("np.zeros((8, 128), 'float32')", adapter)
    assert "np.zeros((8, 128), 'int8')" in got and "np.zeros((128, 128), 'float32')" in got
    assert search_strategies.array_variants("np.ones(3)", adapter) == []
