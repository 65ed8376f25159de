"""A caught text raised again under another class, the ``try`` body building a dataclass whose ``__post_init__``
validates (greenery 4.2.3, round 38: ``Bound.__sub__`` does ``try: return Bound(self.v - other.v)`` / ``except
ValueError as e: raise ArithmeticError(*e.args) from e``, ``Bound.__post_init__`` raising ``ValueError(f"Invalid
bound: {self.v!r}")``): calling the class runs the ``__post_init__`` its generated ``__init__`` calls, so the
re-raise carries that text (``forwarded._Graph.targets``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

from errdex.model import ExtractResult

BOUND = '''
    from __future__ import annotations

    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Bound:
        """An integer but sometimes also possibly infinite (None)"""

        v: int | None

        def __post_init__(self, /) -> None:
            if self.v is not None and self.v < 0:
                raise ValueError(f"Invalid bound: {self.v!r}")

        def __sub__(self, other: Bound, /) -> Bound:
            if self.v is None:
                return INF
            try:
                return Bound(self.v - other.v)
            except ValueError as e:
                raise ArithmeticError(*e.args) from e


    @dataclass(frozen=True)
    class Limit(Bound):
        def shrink(self, by: int) -> Limit:
            try:
                return Limit(self.v - by)
            except ValueError as e:
                raise ArithmeticError(*e.args) from e


    INF = Bound(None)
'''


def _sites(tmp_path: Path) -> ExtractResult:
    (tmp_path / "gpkg").mkdir()
    (tmp_path / "gpkg" / "__init__.py").touch()
    (tmp_path / "gpkg" / "bound.py").write_text(textwrap.dedent(BOUND))
    return extract_dir(tmp_path)


def test_a_re_raise_around_a_dataclass_call_carries_its_post_init_text(tmp_path: Path) -> None:
    site = site_in(_sites(tmp_path), "gpkg/bound.py", "Bound.__sub__")
    assert [t.render() for t in site.templates] == ["{*e.args}", "Invalid bound: {self.v}"]


def test_an_inherited_post_init_is_run_too(tmp_path: Path) -> None:
    site = site_in(_sites(tmp_path), "gpkg/bound.py", "Limit.shrink")
    assert [t.render() for t in site.templates] == ["{*e.args}", "Invalid bound: {self.v}"]
