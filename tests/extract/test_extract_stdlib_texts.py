"""Standard-library exception classes raised by a package with its own arguments (configupdater 4.1.1, captured
texts from its test suite: ``No option 'x_license' in section: 'section'``, ``While reading from '<string>'
[line  4]: option 'key' in section 'section' already exists``).  ``configparser.NoOptionError(option,
section)`` builds its text in ``__init__``; the builtin rule gave the tuple of the arguments (``('{}',
{})``).  ``extract/stdlib_texts.py`` reads each class's text (``errdex/stdlib_errors.py``), the form by the
arguments passed, and ``*args`` of a local tuple is spread (``msgcalls.call_args``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

DOCUMENT = '''
    import json
    from configparser import DuplicateOptionError, DuplicateSectionError, NoOptionError, NoSectionError


    class Document:
        def get(self, section, option):
            if section not in self._sections:
                raise NoSectionError(section) from None
            raise NoOptionError(self.optionxform(option), section)

        def add_section(self, name):
            raise DuplicateSectionError(name)

        def read(self, fpname, lineno, sectname, optname):
            if sectname in self._sections:
                raise DuplicateSectionError(sectname, fpname, lineno)
            args = (sectname, optname, fpname, lineno)
            raise DuplicateOptionError(*args)

        def decode(self, doc, pos):
            raise json.JSONDecodeError("Expecting value", doc, pos)
'''


def test_the_standard_library_class_makes_the_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "document.py").write_text(textwrap.dedent(DOCUMENT))
    found: dict[str, list[list[str]]] = {}
    for s in sorted(extract_dir(tmp_path).sites, key=lambda s: s.line):
        found.setdefault(s.qualname.rsplit(".", 1)[-1], []).append([t.render() for t in s.templates])
    no_section, no_option = found["get"]
    assert no_section == ["No section: {section}"]
    assert no_option == ["No option '{self.optionxform(option)}' in section: {section}"]
    assert found["add_section"] == [["Section {name} already exists"]]
    duplicate, spread = found["read"]
    assert duplicate == ["While reading from {fpname} [line {lineno}]: section {sectname} already exists"]
    assert spread == ["While reading from {fpname} [line {lineno}]: option {optname} in section {sectname} "
                      "already exists"]
    assert found["decode"] == [["Expecting value: line {lineno} column {colno} (char {pos})"]]


PARSER = '''
    import argparse
    from argparse import ArgumentError


    def argument_error(message):
        return ArgumentError(None, message)


    class Parser:
        def error(self, message):
            raise argument_error(message)

        def check(self, action, value):
            raise argparse.ArgumentError(action, f"invalid value: {value}")
'''


def test_an_argument_error_prints_its_message_and_the_argument_when_given(tmp_path: Path) -> None:
    """``argparse.ArgumentError(None, message)`` prints the message alone (jsonargparse's ``argument_error``,
    round 20: the tuple ``('', {message!r})`` before); given an action, ``argument --opt: message``."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "parser.py").write_text(textwrap.dedent(PARSER))
    found = {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}
    assert found["Parser.error"] == ["{message}"]
    assert found["Parser.check"] == ["argument {argument_name}: invalid value: {value}"]
