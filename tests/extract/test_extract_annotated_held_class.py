"""A class attribute holding an exception class, annotated (oslo.config 10.7.0's ``BaseParser.parse_exc:
type[ParseError] = ParseError``, then ``raise self.parse_exc('Key cannot be empty', self.lineno, line)``): the
raise is of that class, and its ``__str__`` text takes the caller's message (``factories._attr_roles``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

INIPARSER = '''
    from typing import NoReturn


    class ParseError(Exception):
        def __init__(self, message: str, lineno: int, line: str) -> None:
            self.msg = message
            self.line = line
            self.lineno = lineno

        def __str__(self) -> str:
            return f'at line {self.lineno}, {self.msg}: {self.line!r}'


    class BaseParser:
        lineno: int = 0
        parse_exc: type[ParseError] = ParseError

        def parse(self, lineiter):
            for line in lineiter:
                self.lineno += 1
                if line.startswith("="):
                    self.error_empty_key(line)

        def error_empty_key(self, line: str) -> NoReturn:
            raise self.parse_exc('Key cannot be empty', self.lineno, line)
'''


def test_an_annotated_class_attribute_holds_the_raised_class(tmp_path: Path) -> None:
    (tmp_path / "inip").mkdir()
    (tmp_path / "inip" / "__init__.py").touch()
    (tmp_path / "inip" / "iniparser.py").write_text(textwrap.dedent(INIPARSER))
    site = site_in(extract_dir(tmp_path), "inip/iniparser.py", "BaseParser.error_empty_key")
    assert site.exception_resolved == "inip.iniparser.ParseError"
    assert [t.render() for t in site.templates] == ["at line {self.lineno}, Key cannot be empty: {line}"]
