"""A named tuple held in a class constant, read through ``self`` / ``cls`` (``extract/tuplefields.py``,
issue 17's fortieth round): aniso8601 10.0.1's ``BaseTimeBuilder.range_check_time`` raises
``cls.TIME_SS_LIMIT.rangeexception(cls.TIME_SS_LIMIT.rangeerrorstring)`` with ``TIME_SS_LIMIT =
Limit("Invalid second string.", 0, 60, SecondsOutOfBoundsError, "Second must be between 0..60 ...")`` set in
the class.  The site read the whole call as an unknown helper's (``{cls.TIME_SS_LIMIT.rangeexception(...)}``);
it is the class and the text that field of the constant holds, the class's own first, then a subclass's."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

BUILDERS = '''
    from collections import namedtuple

    Limit = namedtuple("Limit", ["casterrorstring", "min", "max", "rangeexception", "rangeerrorstring"])


    class RangeCheckError(ValueError):
        pass


    class SecondsOutOfBoundsError(RangeCheckError):
        pass


    class MinutesOutOfBoundsError(RangeCheckError):
        pass


    class BaseTimeBuilder:
        TIME_SS_LIMIT = Limit("Invalid second string.", 0, 60, SecondsOutOfBoundsError,
                              "Second must be between 0..60 with 60 representing a leap second.")
        TIME_MM_LIMIT = Limit("Invalid minute string.", 0, 59, MinutesOutOfBoundsError, "Minute must be between 0..59.")
        name = "base"

        @classmethod
        def range_check_time(cls, ss):
            if ss > 60:
                raise cls.TIME_SS_LIMIT.rangeexception(cls.TIME_SS_LIMIT.rangeerrorstring)
            return ss

        def check_minute(self, mm):
            if mm > 59:
                raise RangeCheckError(f"{self.TIME_MM_LIMIT.rangeerrorstring} Got {mm}.")
            return mm

        def check_label(self, label):
            if not label:
                raise ValueError(f"no label for {self.owner.name}")


    class StrictTimeBuilder(BaseTimeBuilder):
        TIME_SS_LIMIT = Limit("Invalid second string.", 0, 59, SecondsOutOfBoundsError,
                              "Second must be between 0..59.")
'''


def _result(tmp_path: Path) -> object:
    (tmp_path / "timecheck").mkdir()
    (tmp_path / "timecheck" / "__init__.py").write_text(textwrap.dedent(BUILDERS))
    return extract_dir(tmp_path)


def test_a_class_and_text_read_from_a_class_constant(tmp_path: Path) -> None:
    site = site_in(_result(tmp_path), "timecheck/__init__.py", "BaseTimeBuilder.range_check_time")  # type: ignore[arg-type]
    assert site.exception_resolved == "timecheck.SecondsOutOfBoundsError"
    assert [t.render() for t in site.templates] == [
        "Second must be between 0..60 with 60 representing a leap second.",
        "Second must be between 0..59.",
    ]


def test_the_field_read_through_self_inside_a_text(tmp_path: Path) -> None:
    site = site_in(_result(tmp_path), "timecheck/__init__.py", "BaseTimeBuilder.check_minute")  # type: ignore[arg-type]
    assert [t.render() for t in site.templates] == ["Minute must be between 0..59. Got {mm}."]


def test_an_attribute_of_no_class_constant_stays_a_placeholder(tmp_path: Path) -> None:
    site = site_in(_result(tmp_path), "timecheck/__init__.py", "BaseTimeBuilder.check_label")  # type: ignore[arg-type]
    assert [t.render() for t in site.templates] == ["no label for {self.owner.name}"]
