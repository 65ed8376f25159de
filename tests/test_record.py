"""errdex.record: the run-time frozen value classes behave as ``dataclasses``' own, method by method."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import subprocess
import sys

import pytest

from errdex.record import frozen_class, frozen_field, frozen_replace

_MISSING = dataclasses.MISSING


def _pair(body: dict[str, object], annotations: dict[str, str]) -> tuple[type, type]:
    """The same class body built by ``dataclasses`` and by ``errdex.record``."""
    def make(decorator: object, field: object) -> type:
        ns: dict[str, object] = {"__annotations__": dict(annotations), "__module__": __name__}
        for name, value in body.items():
            if isinstance(value, tuple) and value and value[0] == "field":
                ns[name] = field(**value[1])  # type: ignore[operator]
            else:
                ns[name] = value
        ns["doubled"] = property(lambda self: self.a * 2)
        return decorator(type("Point", (), ns))  # type: ignore[operator,no-any-return]

    real = make(dataclasses.dataclass(frozen=True, slots=True), dataclasses.field)
    ours = make(frozen_class(frozen=True, slots=True), frozen_field)
    return real, ours


ANN = {"a": "int", "b": "str", "c": "tuple[int, ...]", "memo": "dict[int, int]"}
BODY: dict[str, object] = {"b": "x", "c": (), "memo": ("field", {"default_factory": dict, "compare": False, "repr": False})}


@pytest.fixture
def pair() -> tuple[type, type]:
    return _pair(BODY, ANN)


def test_construction_defaults_and_factories(pair: tuple[type, type]) -> None:
    real, ours = pair
    for args, kwargs in [((1,), {}), ((1, "y"), {}), ((1,), {"c": (2, 3)}), ((), {"a": 4, "b": "z", "memo": {1: 2}})]:
        r, o = real(*args, **kwargs), ours(*args, **kwargs)
        assert [getattr(o, n) for n in ANN] == [getattr(r, n) for n in ANN]
    assert ours(1).memo is not ours(1).memo  # a fresh dict each time
    for bad_args, bad_kwargs in [((), {}), ((1, "a", (), {}, 5), {}), ((1,), {"zz": 1}), ((1,), {"a": 2})]:
        with pytest.raises(TypeError):
            real(*bad_args, **bad_kwargs)
        with pytest.raises(TypeError):
            ours(*bad_args, **bad_kwargs)


def test_repr_eq_hash_match_args(pair: tuple[type, type]) -> None:
    real, ours = pair
    assert repr(ours(1, "q", (2,), {3: 4})) == repr(real(1, "q", (2,), {3: 4})) == "Point(a=1, b='q', c=(2,))"
    assert ours(1, memo={1: 1}) == ours(1, memo={2: 2})  # compare=False
    assert ours(1) != ours(2)
    assert ours(1) != real(1)  # another class: NotImplemented both ways
    assert hash(ours(1, "q", (2,))) == hash(real(1, "q", (2,)))
    assert len({ours(1), ours(1), ours(2)}) == 2
    assert ours.__match_args__ == real.__match_args__
    assert ours.__slots__ == real.__slots__
    assert ours(3).doubled == 6
    match ours(5, "w"):
        case ours(a, b):  # type: ignore[misc]
            assert (a, b) == (5, "w")


def test_frozen(pair: tuple[type, type]) -> None:
    _, ours = pair
    o = ours(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.a = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        del o.b
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.other = 1
    with pytest.raises(AttributeError):
        _ = o.__dict__


def test_dataclasses_functions_see_the_fields(pair: tuple[type, type]) -> None:
    real, ours = pair
    assert dataclasses.is_dataclass(ours) and dataclasses.is_dataclass(ours(1))
    assert [(f.name, f.type, f.compare, f.repr, f.default, f.default_factory) for f in dataclasses.fields(ours)] == \
           [(f.name, f.type, f.compare, f.repr, f.default, f.default_factory) for f in dataclasses.fields(real)]
    assert dataclasses.asdict(ours(1, memo={1: 2})) == dataclasses.asdict(real(1, memo={1: 2}))
    changed = dataclasses.replace(ours(1, "q"), b="r")
    assert type(changed) is ours and (changed.a, changed.b) == (1, "r")
    assert frozen_replace(ours(1, "q"), a=7) == ours(7, "q")
    assert frozen_replace(real(1, "q"), a=7) == real(7, "q")  # a real dataclass too
    assert copy.replace(ours(1), c=(9,)) == ours(1, c=(9,))
    with pytest.raises(TypeError):
        frozen_replace(ours(1), nope=1)


def test_pickle_and_copy(pair: tuple[type, type]) -> None:
    _, ours = pair
    from errdex.match.model import Frame, Match, Value

    m = Match(id="x", score=0.5, kind="error", exception="E", template="t {a}", values=(Value("{a}", "1"),),
              repo="r", commit="c", path="p.py", line=3, url="")
    assert pickle.loads(pickle.dumps(m)) == m
    assert copy.deepcopy(Frame("a.py", 1)) == Frame("a.py", 1)
    assert copy.copy(ours(1)) == ours(1)


def test_what_it_refuses() -> None:
    with pytest.raises(TypeError):
        frozen_class(frozen=True)
    with pytest.raises(TypeError):  # a default before a field without one
        _pair({"a": 1}, {"a": "int", "b": "str"})
    with pytest.raises(ValueError, match="mutable default"):
        _pair({"b": []}, {"a": "int", "b": "list[int]"})

    class Defines:
        __annotations__ = {"a": "int"}

        def __eq__(self, other: object) -> bool:
            return True

    with pytest.raises(TypeError, match="defines"):
        frozen_class(frozen=True, slots=True)(Defines)


def test_explain_path_imports_neither_dataclasses_nor_typing() -> None:
    code = ("import sys, errdex.commands.explain, errdex.match, errdex.match.versions, errdex.match.route;"
            "print(sorted({'dataclasses', 'typing', 'inspect'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
