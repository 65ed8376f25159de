"""An exception whose ``__init__(self, *args)`` unpacks its arguments (``a, b, c = args[:3]``, in a ``try`` whose
``except`` passes them on as they are): avro 1.12.2's ``AvroTypeException(schema, name, datum)`` prints ``The
datum "..." provided for "..." is not an example of the schema ...``, and ``AvroOutOfScaleException(scale, datum,
exponent)`` its own sentence through it (issue 17's round 19: both read as the tuple ``({}, {}, {})`` of the
raise's arguments).  The names read as parameters bound to the raise's first arguments when it passes that many
(``stmts.unpacked_varargs``, ``classmessage.class_message``); fewer, and the arguments are the message as before."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

ERRORS = '''
    class AvroException(Exception):
        pass


    class AvroTypeException(AvroException):
        def __init__(self, *args):
            try:
                expected_schema, name, datum = args[:3]
            except (IndexError, ValueError):
                return super().__init__(*args)
            pretty = str(expected_schema)
            return super().__init__(f'The datum "{datum}" provided for "{name}" is not an example of the schema {pretty}')


    class AvroOutOfScaleException(AvroTypeException):
        def __init__(self, *args):
            try:
                scale, datum, exponent = args[:3]
            except (IndexError, ValueError):
                return super().__init__(*args)
            return super().__init__(f"The exponent of {datum}, {exponent}, is too large for the schema scale of {scale}")
'''

IO = '''
    from . import errors


    def validate(schema, name, datum):
        raise errors.AvroTypeException(schema, name, datum)


    def write_decimal(scale, datum, exp):
        raise errors.AvroOutOfScaleException(scale, datum, exp)


    def fail(message):
        raise errors.AvroTypeException(message)
'''


def test_unpacked_arguments_fill_the_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    (tmp_path / "pkg" / "io.py").write_text(textwrap.dedent(IO))
    found = {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}
    assert found["validate"][0] == 'The datum "{datum}" provided for "{name}" is not an example of the schema {schema}'
    assert found["write_decimal"][0] == "The exponent of {datum}, {exp}, is too large for the schema scale of {scale}"
    assert found["fail"] == ["{message}"]  # one argument: passed on as it is
