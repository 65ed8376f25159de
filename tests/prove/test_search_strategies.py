"""A clean call the search offers as the after passes distinct values where the before passed none twice
(``search_strategies.distinct``, used by ``search_afters.clean_variants``; rating 10, 669a: the after was the
meaningless ``CompoundFactor('x', 'x')``, a reader wants two distinct factor names)."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.prove import search_strategies
from errdex.prove.search_strategies import OMIT, distinct

LIB = '''\
class Compound(tuple):
    """Factors, at least two: ``Compound('b', 'c')``."""

    def __init__(self, *factors):
        if len(factors) < 2:
            raise ValueError("A compound should contain at least two factors")
        for f in factors:
            if not isinstance(f, str):
                raise ValueError("each factor must be a str")

    def __new__(cls, *factors):
        return tuple.__new__(Compound, factors)


class Same(tuple):
    def __new__(cls, *factors):
        if len(set(factors)) != 1 or len(factors) < 2:
            raise ValueError("all factors must be one")
        return tuple.__new__(Same, factors)
'''


def test_a_literal_passed_twice_is_passed_as_another_value_the_second_time() -> None:
    assert distinct([("*", "")], [("*", "'x', 'x'")]) == [("*", "'x', 'y'")]
    assert distinct([], [("*a", "1"), ("b", "1"), ("c", "1")]) == [("*a", "1"), ("b", "2"), ("c", "3")]
    assert distinct([], [("*", "'ab', 'ab'")]) == [("*", "'ab', 'ab2'")]
    # nothing repeated, or the before repeats it too (the error may be about the repetition): as it is
    assert distinct([], [("*", "'x', 'y'"), ("k", OMIT)]) is None
    assert distinct([("*", "'x', 'x', 'x'")], [("*", "'x', 'x'")]) is None
    assert distinct([], [("*", "True, True"), ("n", "None")]) is None  # no other value of a bool or of None


def test_clean_variants_offer_the_distinct_call_when_it_runs_clean(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cmplib.py").write_text(LIB)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    from errdex.prove import search_afters, search_plan, search_run

    line = next(i for i, x in enumerate(LIB.splitlines(), 1) if "at least two factors\")" in x)
    s = search_run.Search({"path": "cmplib.py", "line": line, "end_line": line}, "cmplib", 1.0)
    for call in ("Compound", "Same"):
        plan = {"module": "cmplib", "call": call, "ctor": None, "args": [("*", None, [])]}
        how = {"plan": plan, "ctor": None, "args": [("*", "")]}
        twice = [("*", "'x', 'x'")]
        s.clean = [(search_plan.render("cmplib", call, None, twice), None, twice)]  # the clean call the search made
        (got,) = search_afters.clean_variants(s, how, 0, {})
        # Compound: 'x', 'y' runs clean and is offered; Same: it raises, so 'x', 'x' stays
        assert got[0].endswith(f"cmplib.{call}('x', 'y')\n" if call == "Compound" else f"cmplib.{call}('x', 'x')\n")


def test_supplied_and_hinted_values() -> None:
    """A parameter left at its sentinel default is given the hint's other kinds (a function, a list of one); the
    adapter's values of a class a hint names, a list of one where it asks for a sequence."""
    import typing as t
    from collections.abc import Callable, Sequence

    class Unset:
        pass

    class Shape(t.Protocol):
        n: int

    hint = Callable[..., int] | Sequence[Callable[..., int]] | Unset
    got = search_strategies.supplied_values(hint, Unset())
    assert got[0] == search_strategies.CALLABLE and f"[{search_strategies.CALLABLE}]" in got
    assert search_strategies.supplied_values(int | None, None) == ["1"]
    assert search_strategies.unset_default(Unset(), "Unset") and search_strategies.unset_default(None, "None")
    assert not search_strategies.unset_default(0, "None")
    key = f"{Shape.__module__}.{Shape.__qualname__}"
    search_strategies.MADE[key] = [("collections", "mk()")]
    try:
        assert search_strategies.hinted_values(Shape | Sequence[Shape]) == ["mk()", "[mk()]"]
        assert search_strategies.hinted_values(int) == []
    finally:
        del search_strategies.MADE[key]
        search_strategies.EXTRA_IMPORTS[:] = [m for m in search_strategies.EXTRA_IMPORTS if m != "collections"]
