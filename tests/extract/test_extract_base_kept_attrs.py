"""A class whose ``__init__`` hands its text to a base's ``__init__`` that keeps it on ``self``, and whose own
``__str__`` composes the text from that attribute (asn1tools 0.169.0's ``DecodeError(ErrorWithLocation,
_DecodeError)``: ``super(DecodeError, self).__init__(message, location=location)``, the base keeping
``self.message = message``, and ``__str__`` building ``_str`` from ``self.message`` then ``_str +=
self.get_offset_message()``; captured from its test suite: ``Foo: Expected BOOLEAN contents length 1, but got
2. (At offset: 1)``): the raise's own text is in the class's templates, not ``{self.message}``."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

ERRORS = '''
    class Error(Exception):
        pass


    class DecodeError(Error):
        pass
'''

CODECS = '''
    from ..errors import DecodeError as _DecodeError


    class ErrorWithLocation(Exception):
        """Mixin for errors which have a location list."""

        def __init__(self, message, location=None):
            self.message = message
            self.location = [location] if location else []

        @property
        def location_str(self):
            return '.'.join(loc.name for loc in self.location[::-1] if loc.name)

        def __str__(self):
            if self.location:
                return "{}: {}".format(self.location_str, self.message)
            else:
                return self.message


    class DecodeError(ErrorWithLocation, _DecodeError):
        def __init__(self, message, offset=None, location=None):
            super(DecodeError, self).__init__(message, location=location)
            self.offset = offset

        def __str__(self):
            if self.location:
                _str = "{}: {}".format(self.location_str, self.message)
            else:
                _str = self.message
            if self.offset is not None:
                _str += self.get_offset_message()
            return _str

        def get_offset_message(self):
            return ' (At offset: {})'.format(self.offset)


    class OutOfDataError(DecodeError):
        def __init__(self, offset_bits, location=None):
            super(OutOfDataError, self).__init__('out of data', offset=offset_bits, location=location)
'''

BER = '''
    from . import DecodeError, OutOfDataError


    class Boolean:
        def decode_content(self, data, offset, length):
            if length != 1:
                raise DecodeError(
                    'Expected BOOLEAN contents length 1, but '
                    'got {}.'.format(length), offset=offset-1)
            if offset >= len(data):
                raise OutOfDataError(8 * offset)
            return bool(data[offset]), offset + length
'''


def _sites(tmp_path: Path, codecs: str) -> list[list[str]]:
    pkg = tmp_path / "asn1"
    (pkg / "codecs").mkdir(parents=True)
    (pkg / "__init__.py").touch()
    (pkg / "errors.py").write_text(textwrap.dedent(ERRORS))
    (pkg / "codecs" / "__init__.py").write_text(textwrap.dedent(codecs))
    (pkg / "codecs" / "ber.py").write_text(textwrap.dedent(BER))
    sites = sorted((s for s in extract_dir(tmp_path).sites if s.path.endswith("ber.py")), key=lambda s: s.line)
    return [[t.render() for t in s.templates] for s in sites]


def test_the_text_kept_by_the_base_init_is_the_raise_s(tmp_path: Path) -> None:
    boolean, out_of_data = _sites(tmp_path, CODECS)
    text = "Expected BOOLEAN contents length 1, but got {length}."
    assert f"{text} (At offset: {{offset-1}})" in boolean
    assert text in boolean
    assert any(t.endswith(f": {text} (At offset: {{offset-1}})") for t in boolean)
    assert not any("self.message" in t or "_str" in t for t in boolean)
    assert "out of data (At offset: {8 * offset})" in out_of_data  # through two `__init__`s


def test_a_positional_location_and_a_base_called_by_name(tmp_path: Path) -> None:
    codecs = CODECS.replace("super(DecodeError, self).__init__(message, location=location)",
                            "ErrorWithLocation.__init__(self, message, location)")
    boolean, _ = _sites(tmp_path, codecs)
    assert "Expected BOOLEAN contents length 1, but got {length}. (At offset: {offset-1})" in boolean


def test_an_attribute_the_base_keeps_from_another_text(tmp_path: Path) -> None:
    # the base's `message` is bound to what the subclass hands it, not to the subclass's own `message`
    codecs = CODECS.replace("super(DecodeError, self).__init__(message, location=location)",
                            "super(DecodeError, self).__init__('bad data: ' + message, location=location)")
    boolean, _ = _sites(tmp_path, codecs)
    assert "bad data: Expected BOOLEAN contents length 1, but got {length}. (At offset: {offset-1})" in boolean
