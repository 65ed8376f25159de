"""A builtin exception of several arguments prints the tuple of their reprs; an argument that is a value alone
is quoted only if it is a string (persiantools 6.2.0, round 22: ``ValueError("month must be in 1..12", month)``
after ``month = operator.index(month)`` prints ``('month must be in 1..12', 13)``; the template quoted it,
``'{month}'``, and no event reached the site from its last line)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

DATES = '''
    import operator


    def check_date_fields(year, month):
        month = operator.index(month)
        if not 1 <= month <= 12:
            raise ValueError("month must be in 1..12", month)
        name = f"m{month}"
        raise ValueError("bad name", name)
'''


def test_a_value_alone_is_its_repr_unquoted(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "dates.py").write_text(textwrap.dedent(DATES))
    found = {s.line: [t.segments for t in s.templates] for s in extract_dir(tmp_path).sites}
    first, second = sorted(found)
    (segs,) = found[first]
    assert segs[0].text == "('month must be in 1..12', " and segs[1].expr == "month" and segs[1].conversion == "r"
    assert segs[2].text == ")"
    (named,) = found[second]
    assert named[0].text == "('bad name', 'm"  # an f-string is a str: quoted
