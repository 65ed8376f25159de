"""An exception whose ``__str__`` calls a method that formats the message from what ``__init__``
kept (``self.msg``, ``self.loc``), raised in a module that star-imports the exceptions module
(pyparsing's ``ParseException`` raised in ``core.py`` under ``from .exceptions import *``;
captured text from its own test suite: ``Expected 'xyz', found 'xyu'  (at char 0), (line:1, col:1)``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

EXC = '''
    class ParseBaseException(Exception):
        """base exception class for all parsing runtime exceptions"""

        def __init__(self, pstr, loc=0, msg=None, elem=None):
            self.loc = loc
            self.msg = msg
            self.pstr = pstr
            self.args = (pstr, loc, msg)

        def formatted_message(self):
            found_phrase = f", found {self.found}" if self.found else ""
            return f"{self.msg}{found_phrase}  (at char {self.loc}), (line:{self.lineno}, col:{self.column})"

        def __str__(self):
            return self.formatted_message()


    class ParseException(ParseBaseException):
        """plain parse failure"""
'''

CORE = '''
    from .exceptions import *


    class LineStart:
        def parseImpl(self, instring, loc):
            raise ParseException(instring, loc, "not found at line start")


    def verify_col(strg, locn, n):
        raise ParseException(strg, locn, f"matched token not at column {n}")


    def unknown():
        raise NotDefinedAnywhere("text")
'''


def test_star_imported_class_formats_its_message_from_init_attributes(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    (pkg / "exceptions.py").write_text(textwrap.dedent(EXC))
    (pkg / "core.py").write_text(textwrap.dedent(CORE))
    sites = sorted((s for s in extract_dir(tmp_path).sites if s.path == "pkg/core.py"), key=lambda s: s.line)
    start, col, unknown = sites
    assert start.exception_resolved == "pkg.exceptions.ParseException"
    # not the tuple str(self.args) would print: __str__ overrides it, and formatted_message() reads
    # the same instance's msg and loc, the raise's third and second arguments
    assert start.templates[0].render() == \
        "not found at line start{found_phrase}  (at char {loc}), (line:{self.lineno}, col:{self.column})"
    assert col.templates[0].render().startswith("matched token not at column {n}{found_phrase}  (at char {locn})")
    # a name no star import binds stays as written
    assert unknown.exception_resolved == "NotDefinedAnywhere"
    assert [t.render() for t in unknown.templates] == ["text"]
