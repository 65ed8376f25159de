"""Texts held in a field of the package's named tuples (``extract/tuplefields.py``): aniso8601 10.0.1 builds
``DATE_MM_LIMIT = Limit("Invalid month string.", 1, 12, MonthOutOfBoundsError, "Month must be between
1..12.", range_check)`` as class attributes (one module defines ``Limit = namedtuple(...)``, another imports
it), and ``range_check(valuestr, limit)`` raises ``limit.rangeexception(limit.rangeerrorstring)``, read as
``{limit.rangeerrorstring}`` (issue 17's twenty-seventh round).  The texts are those built into that field,
the reading module's first; a field not named like a message, or one two named tuples share, stays a value."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

BUILDERS = '''
    from collections import namedtuple

    Limit = namedtuple("Limit", ["casterrorstring", "min", "max", "rangeexception", "rangeerrorstring", "name"])
    Other = namedtuple("Other", "name")


    class RangeCheckError(ValueError):
        pass


    class MonthOutOfBoundsError(RangeCheckError):
        pass


    class DayOutOfBoundsError(RangeCheckError):
        pass


    def range_check(value, limit):
        if value < limit.min or value > limit.max:
            raise limit.rangeexception(limit.rangeerrorstring)
        return value


    def named(value, limit):
        if not value:
            raise ValueError(limit.name)


    class BaseTimeBuilder:
        DATE_MM_LIMIT = Limit("Invalid month string.", 1, 12, MonthOutOfBoundsError,
                              "Month must be between 1..12.", "month")
        DATE_DD_LIMIT = Limit("Invalid day string.", 1, 31, DayOutOfBoundsError, "Day must be between 1..31.", "day")
'''

PYTHON = '''
    from . import Limit, RangeCheckError


    class YearOutOfBoundsError(RangeCheckError):
        pass


    class PythonTimeBuilder:
        DATE_YYYY_LIMIT = Limit("Invalid year string.", 1, 9999, YearOutOfBoundsError,
                                "Year must be between 1..9999.", "year")
'''


def test_a_field_read_through_a_parameter_holds_the_texts_built_into_it(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(textwrap.dedent(BUILDERS))
    (tmp_path / "pkg" / "python.py").write_text(textwrap.dedent(PYTHON))
    result = extract_dir(tmp_path)
    texts = [t.render() for t in site_in(result, "pkg/__init__.py", "range_check").templates]
    assert texts == ["Month must be between 1..12.", "Day must be between 1..31.", "Year must be between 1..9999."]
    # `name` is no message's name (and two named tuples have it): a value
    assert [t.render() for t in site_in(result, "pkg/__init__.py", "named").templates] == ["{limit.name}"]


MANY = '''
    from collections import namedtuple

    Limit = namedtuple("Limit", "rangeexception rangeerrorstring")


    def range_check(value, limit):
        if value is None:
            raise limit.rangeexception(limit.rangeerrorstring)


    class Builder:
''' + "".join(f'''        LIMIT_{i} = Limit(ValueError, "Component {i} must be positive.")
''' for i in range(10))


def test_a_site_keeps_the_first_eight_texts_built(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(textwrap.dedent(MANY))
    result = extract_dir(tmp_path)
    texts = [t.render() for t in site_in(result, "pkg/__init__.py", "range_check").templates]
    # in the order built (`variants.capped` would keep the first and the last ones past its cap)
    assert texts == [f"Component {i} must be positive." for i in range(8)]
