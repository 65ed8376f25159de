"""A classmethod helper that builds the error under the class's dotted name around the caller's format text
(ndeflib 0.3.3's ``Record._decode_error(cls, fmt, *args, **kwargs)`` returning ``DecodeError(clname + " " +
fmt.format(*args, **kwargs))``, and its module-level twin ``decode_error(obj, fmt, *args, **kwargs)``): each
caller's ``raise cls._decode_error("... {} ...", n)`` gets its own text, its fields placeholders, not a bare
``{}`` (``extract/msgforms.py``)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

RECORD = '''
    import struct


    class DecodeError(Exception):
        """Tag decode error."""


    class EncodeError(Exception):
        """Tag encode error."""


    def decode_error(obj, fmt, *args, **kwargs):
        mod = obj.__module__
        cls = obj.__name__ if isinstance(obj, type) else obj.__class__.__name__
        return DecodeError(mod + '.' + cls + " " + fmt.format(*args, **kwargs))


    class Record(object):
        MAX_PAYLOAD_SIZE = 0x100000

        def __init__(self, data=b""):
            self.data = data

        @classmethod
        def _decode(cls, octets):
            if len(octets) < 2:
                raise cls._decode_error("buffer underflow at reading {} field", "length")
            if len(octets) > cls.MAX_PAYLOAD_SIZE:
                errstr = "payload of more than {} octets can not be decoded"
                raise cls._decode_error(errstr.format(cls.MAX_PAYLOAD_SIZE))
            return cls(octets)

        def _encode(self):
            if len(self.data) > self.MAX_PAYLOAD_SIZE:
                raise self._encode_error("payload of {} octets can not be encoded", len(self.data))
            return struct.pack(">H", len(self.data)) + self.data

        @classmethod
        def _decode_error(cls, fmt, *args, **kwargs):
            clname = cls.__module__ + "." + cls.__name__
            return DecodeError(clname + " " + fmt.format(*args, **kwargs))

        @classmethod
        def _encode_error(cls, fmt, *args, **kwargs):
            clname = cls.__module__ + "." + cls.__name__
            return EncodeError(clname + " " + fmt.format(*args, **kwargs))


    class DeviceAddress(object):
        @classmethod
        def decode(cls, octets):
            if len(octets) != 6:
                errstr = "can't be decoded from {} octets"
                raise decode_error(cls, errstr, len(octets))
            return cls()
'''


def _extract(tmp_path: Path):  # type: ignore[no-untyped-def]
    (tmp_path / "tags").mkdir()
    (tmp_path / "tags" / "__init__.py").touch()
    (tmp_path / "tags" / "record.py").write_text(textwrap.dedent(RECORD))
    return extract_dir(tmp_path)


def _texts(result, qualname: str, index: int = 0) -> list[str]:  # type: ignore[no-untyped-def]
    """The site's templates, each field written ``{}``."""
    return [re.sub(r"\{[^{}]*\}", "{}", t.render()) for t in site_in(result, "tags/record.py", qualname, index).templates]


def test_the_callers_format_text_reaches_the_classmethod_helper(tmp_path: Path) -> None:
    result = _extract(tmp_path)
    texts = _texts(result, "Record._decode")
    assert any(t.endswith(" buffer underflow at reading {} field") for t in texts), texts
    site = site_in(result, "tags/record.py", "Record._encode")
    assert site.exception_resolved == "tags.record.EncodeError"
    assert any(t.endswith(" payload of {} octets can not be encoded") for t in _texts(result, "Record._encode"))


def test_the_callers_format_text_reaches_the_module_helper(tmp_path: Path) -> None:
    texts = _texts(_extract(tmp_path), "DeviceAddress.decode")
    assert any(t.endswith(" can't be decoded from {} octets") for t in texts), texts


def test_the_classmethod_helper_names_the_class_it_is_called_on(tmp_path: Path) -> None:
    texts = [t.render() for t in site_in(_extract(tmp_path), "tags/record.py", "Record._decode", 1).templates]
    assert "tags.record.Record payload of more than {cls.MAX_PAYLOAD_SIZE} octets can not be decoded" in texts \
        or "tags.record.Record payload of more than 1048576 octets can not be decoded" in texts, texts


SHAPES = '''
    class ShapeError(Exception):
        """A shape that cannot be measured."""


    class Shape(object):
        sides = 0

        def _error(self, fmt, *args):
            return ShapeError("%s: %s" % (self.__class__.__name__, fmt % args))

        @classmethod
        def _qualified_error(cls, fmt, *args, **kwargs):
            return ShapeError(f"{cls.__module__}.{cls.__qualname__}: {fmt.format(*args, **kwargs)}")

        def area(self):
            raise self._error("no area for %d sides", self.sides)

        @classmethod
        def from_sides(cls, sides):
            raise cls._qualified_error("can't be built from {} sides", sides)


    class Square(Shape):
        sides = 4
'''


def _shapes(tmp_path: Path, qualname: str) -> list[str]:
    (tmp_path / "geometry").mkdir()
    (tmp_path / "geometry" / "__init__.py").touch()
    (tmp_path / "geometry" / "shapes.py").write_text(textwrap.dedent(SHAPES))
    site = site_in(extract_dir(tmp_path), "geometry/shapes.py", qualname)
    return [re.sub(r"\{[^{}]*\}", "{}", t.render()) for t in site.templates]


def test_a_percent_helper_names_the_instances_class_and_its_subclasses(tmp_path: Path) -> None:
    texts = _shapes(tmp_path, "Shape.area")
    assert texts[0] == "Shape: no area for {} sides", texts
    assert "Square: no area for {} sides" in texts


def test_an_fstring_helper_names_the_class_by_module_and_qualname(tmp_path: Path) -> None:
    texts = _shapes(tmp_path, "Shape.from_sides")
    assert texts[0] == "geometry.shapes.Shape: can't be built from {} sides", texts
    assert "geometry.shapes.Square: can't be built from {} sides" in texts
