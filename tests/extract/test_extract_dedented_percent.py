"""A helper that dedents its text before formatting it with the caller's values (asn1crypto 1.5.1, round 22:
``unwrap(string, *params)``: ``output = textwrap.dedent(string)`` ... ``if params: output = output % params``,
called with a triple-quoted text and the values).  The ``%`` of a text known only in phase 2 was read for
a parameter alone; dedented first, its ``%s`` stayed literal text, and ``First arc must be one of 0, 1 or 2,
not 3`` matched nothing."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

ERRORS = '''
    import re
    import textwrap


    def unwrap(string, *params):
        output = textwrap.dedent(string)
        if output.find("\\n") != -1:
            output = re.sub("(?<=\\\\S)\\n(?=[^ \\n\\t])", " ", output)
        if params:
            output = output % params
        output = output.strip()
        return output
'''

CORE = """
    from ._errors import unwrap


    def check(first, value):
        if first > 2:
            raise ValueError(unwrap(
                '''
                First arc must be one of 0, 1 or 2, not %s
                ''',
                repr(first)
            ))
        raise TypeError(unwrap(
            '''
            %s value must be %s, not %s
            ''',
            "name",
            type(value),
            value
        ))
"""


def test_a_dedented_format_takes_the_callers_values(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "_errors.py").write_text(textwrap.dedent(ERRORS))
    (tmp_path / "pkg" / "core.py").write_text(textwrap.dedent(CORE))
    found = {s.line: {t.render() for t in s.templates} for s in extract_dir(tmp_path).sites}
    first, second = sorted(found)
    assert "First arc must be one of 0, 1 or 2, not {params}" in found[first]  # one field: the value itself
    assert "{params[0]} value must be {params[1]}, not {params[2]}" in found[second]
