"""Argument edits by type and shape (mutate._argument_edits) and the traced-function edits in
``variants``' order: each on a small distilled test."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.prove.distill import distill
from errdex.prove.mutate import variants


def _variants(tmp_path: Path, body: str, line: int, package: str = "") -> list[tuple[str, str]]:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("import lib\n\n\ndef test_x():\n" + body)
    d = distill(tmp_path, "tests/test_x.py::test_x", (f"t (tests/test_x.py:{line})",))[0]
    return variants(d, (), package)


@pytest.mark.parametrize(("body", "line", "why", "tail"), [
    pytest.param("    lib.transpose(lambda x: 2.0 * x, 1)\n", 5, "1 as 1.0",
                 "lib.transpose(lambda x: 2.0 * x, 1.0)\n", id="int-as-float"),
    pytest.param("    lib.grad(lib.f)('foo')\n", 5, "'foo' as 1.0", "lib.grad(lib.f)(1.0)\n", id="string-as-number"),
    pytest.param("    lib.add(lib.array(7), lib.array('hello'))\n", 5, "'hello' as 7",
                 "lib.add(lib.array(7), lib.array(7))\n", id="string-as-a-number-of-the-script"),
    pytest.param("    lib.dot(lib.zeros(3), lib.zeros(4))\n", 5, "4 as 3",
                 "lib.dot(lib.zeros(3), lib.zeros(3))\n", id="shapes-agree"),
    pytest.param("    lib.declare('mode', ['default', 'fast'])\n    with lib.setting('invalid'):\n        pass\n", 6,
                 "'invalid' as 'default'", "with lib.setting('default'):\n    pass\n", id="another-string-of-the-script"),
    pytest.param("    _, back = lib.vjp(lib.f, 3.0)\n    back((7.0, 100.0))\n", 6, "(7.0, 100.0) given as its first element",
                 "back(7.0)\n", id="tuple-as-first-element"),
    pytest.param("    _, back = lib.vjp(lib.f, 1.0)\n    back(1.0, 1.0)\n", 6, "positional arguments given as one tuple",
                 "back((1.0, 1.0))\n", id="positionals-as-one-tuple"),
    pytest.param("    g = lib.pmap(lib.f, static_argnums=(1,))\n    g(lib.ones(1), b=1)\n", 6,
                 "keyword arguments given positionally", "g(lib.ones(1), 1)\n", id="keywords-positionally"),
    pytest.param("    x_f32 = lib.array(1.0)\n    x_i32 = lib.array(1)\n    exe = lib.compile(x_f32)\n    exe(x_i32)\n", 8,
                 "x_i32 as x_f32", "exe(x_f32)\n", id="another-variable-of-the-script"),
    pytest.param("    lib.jvp(lib.f, (lib.float16(2),), (lib.float32(4),))\n", 5, "lib.float32 as lib.float16",
                 "lib.jvp(lib.f, (lib.float16(2),), (lib.float16(4),))\n", id="another-attribute-of-the-module"),
    pytest.param("    lib.devices()\n    lib.update('num_devices', 2)\n", 6,
                 "lib.update('num_devices', 2) before lib.devices()",
                 "lib.update('num_devices', 2)\nlib.devices()\n", id="configured-before"),
])
def test_argument_edit(tmp_path: Path, body: str, line: int, why: str, tail: str) -> None:
    vs = _variants(tmp_path, body, line)
    assert any(w == why and v.endswith(tail) for w, v in vs), vs


def test_argument_edits_come_after_the_other_variants(tmp_path: Path) -> None:
    vs = [w for w, _ in _variants(tmp_path, "    lib.run(1, True)\n", 5)]
    assert vs.index("True -> False") < vs.index("1 -> 0") < vs.index("1 as 1.0")


def test_traced_edits_come_before_argument_values(tmp_path: Path) -> None:
    vs = [w for w, _ in _variants(tmp_path, "    for cast in [int, hex]:\n        f = lambda x: cast(x)\n"
                                            "        lib.jit(f)(0)\n", 7, package="jax")]
    assert vs[:2] == ["static_argnums=0 given to jit", "cast(x) -> x in the traced function"], vs
    assert vs.index("cast(x) -> x in the traced function") < vs.index("0 -> 1")


def test_f_string_text_is_never_given_a_number(tmp_path: Path) -> None:
    vs = _variants(tmp_path, "    name = 'x'\n    lib.run(f'--{name}=1', 2)\n", 6)
    assert vs and not any("as 1.0" in w and "--" in w for w, _ in vs)
    assert all("f'" in v for _, v in vs if "lib.run(f" in v)


def test_an_inner_call_may_lose_its_only_argument(tmp_path: Path) -> None:
    vs = _variants(tmp_path, "    lib.shard_map(lib.f, out_specs=lib.P('x'))(1)\n", 5)
    assert any(w == "without positional 1" and v.endswith("lib.shard_map(lib.f, out_specs=lib.P())(1)\n")
               for w, v in vs), vs
    assert not any(v.endswith("lib.shard_map(out_specs=lib.P('x'))(1)\n") for _, v in vs)  # the call's own stays
