"""A list grown under many independent ``if`` statements (xmlschema 4.3.2, round 16:
``XMLSchemaValidationError.__str__`` appends a reason, a schema component, one of two instance-type lines,
one of two instance lines and a path, each when present, then joins them with ``"\\n"``).  Its
combinations were cut at the first eight in order, all with the same third item, so a message with the
reason but no schema component fit no template (last line 74.9%).  Past the cap the combinations now share
their first items and end in one placeholder for the rest; and ``"{:s}".format("...")`` of a constant is
that constant's text, not a placeholder (eight of xmlschema's range validators were one tie)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

ERRORS = '''
    class ValidationError(Exception):
        def __init__(self, obj, reason=None, component=None, path=None, line=None):
            super().__init__(obj)
            self.obj = obj
            self.reason = reason
            self.component = component
            self.path = path
            self.line = line

        def __str__(self):
            chunks = ["failed validating %r:\\n" % self.obj]
            if self.reason is not None:
                chunks.append("Reason: %s\\n" % self.reason)
            if self.component is not None:
                chunks.append("Schema component:\\n\\n%s\\n" % self.component)
            if isinstance(self.obj, str):
                chunks.append(f"Instance type: {type(self.obj)}\\n")
            else:
                chunks.append(f"Instance kind: {self.obj!r}\\n")
            if self.line is not None:
                chunks.append(f"Instance (line {self.line}):\\n")
            else:
                chunks.append("Instance:\\n")
            if self.path is not None:
                chunks.append("Path: %s\\n" % self.path)
            return "\\n".join(chunks)


    def short_validator(value):
        if not (-2**15 <= value < 2**15):
            raise ValidationError(value, "value must be {:s}".format("-2^15 <= x < 2^15"))
'''


def _templates(tmp_path: Path) -> list[str]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    (site,) = [s for s in extract_dir(tmp_path).sites if s.qualname == "short_validator"]
    return [t.render() for t in site.templates]


def test_many_combinations_keep_their_first_items_and_a_placeholder_for_the_rest(tmp_path: Path) -> None:
    found = _templates(tmp_path)
    # the reason without a schema component after it: lost when the first eight combinations were kept
    assert "failed validating {value}:\n\nReason: value must be -2^15 <= x < 2^15\n\n{...}" in found
    assert not any("Schema component" in t and "Path" in t for t in found)  # the tail is one placeholder


def test_a_constant_formatted_as_a_string_is_its_text(tmp_path: Path) -> None:
    assert not any("{" + '"-2^15' in t for t in _templates(tmp_path))
