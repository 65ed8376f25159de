"""pydantic-core's ``PydanticCustomError(error_type, message_template, context)`` raised by a package with its
own template (pydantic-extra-types 2.11.1's ``color.py``; issue 17's round 30 captured ``value is not a valid
color: color values must be in the range 0 to 255``).  The compiled class prints the template with the
context's ``{key}`` fields filled; the builtin rule gave the tuple of the three arguments.
``extract/adapters/pydanticcore.py`` reads the template as the text, its fields placeholders; a template
that is a value (``str(exc)``) is that value; ``PydanticKnownError`` keeps the builtin rule."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

COLOR = '''
    from pydantic_core import PydanticCustomError, PydanticKnownError
    import pydantic_core


    def parse_color_value(value, max_val=255):
        try:
            color = float(value)
        except ValueError as e:
            raise PydanticCustomError(
                'color_error',
                'value is not a valid color: color values must be a valid number',
            ) from e
        if 0 <= color <= max_val:
            return color / max_val
        raise PydanticCustomError(
            'color_error',
            'value is not a valid color: color values must be in the range 0 to {max_val}',
            {'max_val': max_val},
        )


    def validate_cron(cron_expression, names):
        parts = cron_expression.split()
        if len(parts) != len(names):
            raise pydantic_core.PydanticCustomError(
                'cron_str_components',
                f'Cron expression must contain {len(names)} space separated components',
                context=None,
            )
        try:
            return build(cron_expression)
        except (TypeError, ValueError) as exc:
            raise PydanticCustomError('cron_str_invalid', str(exc)) from exc


    def check_int(value):
        if not isinstance(value, int):
            raise PydanticKnownError('int_type')
'''


def test_the_template_is_the_text(tmp_path: Path) -> None:
    (tmp_path / "extras").mkdir()
    (tmp_path / "extras" / "__init__.py").touch()
    (tmp_path / "extras" / "color.py").write_text(textwrap.dedent(COLOR))
    found: dict[str, list[list[str]]] = {}
    for s in sorted(extract_dir(tmp_path).sites, key=lambda s: s.line):
        found.setdefault(s.qualname, []).append([t.render() for t in s.templates])
    assert found["parse_color_value"] == [
        ["value is not a valid color: color values must be a valid number"],
        ["value is not a valid color: color values must be in the range 0 to {max_val}"],
    ]
    components, invalid = found["validate_cron"]
    assert components == ["Cron expression must contain {len(names)} space separated components"]
    assert invalid == ["{exc}"]
    assert found["check_int"] == [["int_type"]]  # the known error's text is pydantic-core's table's: not modelled
