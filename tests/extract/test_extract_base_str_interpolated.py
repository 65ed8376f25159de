"""An exception's ``__str__`` that keeps the base's text in a local and interpolates it into an f-string under a
condition (javaobj-py3 0.6.1, round 38: ``ParseError.__str__`` does ``base = super().__str__()`` then ``if
self.offset >= 0: return f"{base} (at stream offset 0x{self.offset:x})"``): the local is the text ``__init__``
handed the base, each raise's own message before the suffix, not a ``{base}`` value that any text fills."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

ERRORS = '''
    class JavaObjError(Exception):
        """Base exception for all errors."""


    class ParseError(JavaObjError):
        def __init__(self, message: str, offset: int = -1) -> None:
            super().__init__(message)
            self.offset = offset

        def __str__(self) -> str:
            base = super().__str__()
            if self.offset >= 0:
                return f"{base} (at stream offset 0x{self.offset:x})"
            return base


    class UnexpectedOpcodeError(ParseError):
        def __init__(self, expected, got, offset=-1):
            expected_hex = [f"0x{e:02x}" for e in expected]
            super().__init__(f"Expected one of {expected_hex}, got 0x{got:02x}", offset)
            self.expected = expected
            self.got = got
'''

PARSER = '''
    from .exceptions import ParseError, UnexpectedOpcodeError


    class Parser:
        def _read_content(self, opcode):
            raise ParseError(
                f"Unknown opcode 0x{opcode:02x}",
                self._reader.offset,
            )

        def _do_classdesc(self, opcode):
            raise UnexpectedOpcodeError((0x70, 0x71), opcode, self._reader.offset)
'''


def _rendered(tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "jpkg").mkdir()
    (tmp_path / "jpkg" / "__init__.py").touch()
    (tmp_path / "jpkg" / "exceptions.py").write_text(textwrap.dedent(ERRORS))
    (tmp_path / "jpkg" / "parser.py").write_text(textwrap.dedent(PARSER))
    return {s.qualname.rsplit(".", 1)[-1]: sorted(t.render() for t in s.templates)
            for s in extract_dir(tmp_path).sites if s.path.endswith("parser.py")}


def test_the_base_text_in_an_f_string_is_each_raise_s_message(tmp_path: Path) -> None:
    rendered = _rendered(tmp_path)
    assert rendered["_read_content"] == ["Unknown opcode 0x{opcode}",
                                         "Unknown opcode 0x{opcode} (at stream offset 0x{self._reader.offset})"]


def test_a_subclass_text_gets_the_suffix_too(tmp_path: Path) -> None:
    rendered = _rendered(tmp_path)
    assert rendered["_do_classdesc"] == [
        "Expected one of {expected_hex}, got 0x{opcode}",
        "Expected one of {expected_hex}, got 0x{opcode} (at stream offset 0x{self._reader.offset})"]
    assert not any("{base}" in r for r in rendered["_do_classdesc"])
