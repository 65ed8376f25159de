"""An exception class whose ``__str__`` sets the base's text inside its own (josepy 2.2.0, round 24:
``DeserializationError.__str__`` returns ``"Deserialization error: {0}".format(super().__str__())``): each
raise's message follows the prefix, not a ``{super().__str__()}`` value that any text fills."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

ERRORS = '''
    class Error(Exception):
        """Generic error."""


    class DeserializationError(Error):
        """JSON deserialization error."""

        def __str__(self):
            return "Deserialization error: {0}".format(super().__str__())


    class FieldError(Error):
        def __str__(self):
            return f"Field error: {super().__str__()} (see the schema)"


    def check(jobj, fields):
        if not isinstance(jobj, dict):
            raise DeserializationError(f"{jobj!r} is not a dictionary object")
        if "type" not in jobj:
            raise DeserializationError("missing type field")
        if fields:
            raise FieldError("The following fields are required: {0}".format(", ".join(fields)))
        try:
            return int(jobj["type"])
        except ValueError as error:
            raise DeserializationError(error)
'''


def test_the_base_text_inside_a_class_text_is_each_raise_s_message(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    sites = sorted((s for s in extract_dir(tmp_path).sites if s.qualname == "check"), key=lambda s: s.line)
    rendered = [[t.render() for t in s.templates] for s in sites]
    assert rendered == [
        ["Deserialization error: {jobj} is not a dictionary object"],
        ["Deserialization error: missing type field"],
        ['Field error: The following fields are required: {", ".join(fields)} (see the schema)'],
        ["Deserialization error: {error}"],
    ]
