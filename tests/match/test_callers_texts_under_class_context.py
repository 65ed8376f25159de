"""A parser's one-line error helper whose class adds the position under conditions, with many callers
(ZConfig 4.3, round 37)::

    class _ParseError(ConfigurationError):
        def __str__(self):
            s = self.message
            if self.url:
                s += "\\n("
            elif (self.lineno, self.colno) != (None, None):
                s += " ("
            if self.lineno:
                s += "line %d" % self.lineno
                ...

    def error(self, message):
        raise ZConfig.ConfigurationSyntaxError(message, self.url, self.lineno)

    self.error("missing argument to %%%s directive" % name)   # and a dozen more callers

Each caller's text comes in the class's forms (eight, the cap); a dozen callers give more templates than a
forwarding helper keeps, and the site used to keep only ``{message} ...``.  Now (``Resolver._plain_first``)
each caller's text as the class prints it alone is kept first, then the other forms in turn up to the cap: the
message alone (``missing argument to %import directive (line 1)``) reaches the helper, not a site that prints
``{e} (line {self.lineno})``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

INIT = '''
class ConfigurationError(Exception):
    """Base class for exceptions specific to the package."""

    def __init__(self, msg, url=None):
        self.message = msg
        self.url = url
        Exception.__init__(self, msg)

    def __str__(self):
        return self.message


class _ParseError(ConfigurationError):
    def __init__(self, msg, url, lineno, colno=None):
        self.lineno = lineno
        self.colno = colno
        ConfigurationError.__init__(self, msg, url)

    def __str__(self):
        s = self.message
        if self.url:
            s += "\\n("
        elif (self.lineno, self.colno) != (None, None):
            s += " ("
        if self.lineno:
            s += "line %d" % self.lineno
            if self.colno is not None:
                s += ", column %d" % self.colno
            if self.url:
                s += " in %s)" % self.url
            else:
                s += ")"
        elif self.url:
            s += self.url + ")"
        return s


class ConfigurationSyntaxError(_ParseError):
    """The source does not conform to the allowed syntax."""
'''

PARSER = '''
import re

import cfgkit

_section_start_rx = re.compile(r"(?P<type>[^\\\\s>]+)(?:\\\\s+(?P<name>\\\\S+))?$")
_keyvalue_rx = re.compile(r"(?P<key>[^\\\\s=]+)(?:\\\\s+(?P<value>.*))?$")


class ZConfigParser:
    def __init__(self, resource, url=None):
        self.file = resource
        self.url = url
        self.lineno = 0
        self.colno = None
        self.stack = []
        self.defines = {}

    def parse(self, section):
        for line in self.file:
            self.lineno += 1
            line = line.strip()
            if not line or line[0] == "#":
                continue
            if line[:2] == "</":
                if line[-1] != ">":
                    self.error("malformed section end")
                section = self.end_section(section, line[2:-1])
            elif line[0] == "<":
                if line[-1] != ">":
                    self.error("malformed section start")
                section = self.start_section(section, line[1:-1])
            elif line[0] == "%":
                self.handle_directive(section, line[1:])
            else:
                self.handle_key_value(section, line)
        if self.stack:
            self.error("unclosed sections not allowed")

    def start_section(self, section, rest):
        m = _section_start_rx.match(rest)
        if not m:
            self.error("malformed section header")
        self.stack.append(section)
        return section

    def end_section(self, section, rest):
        if not self.stack:
            self.error("unexpected section end")
        if rest.strip() != section:
            self.error("unbalanced section end")
        return self.stack.pop()

    def handle_key_value(self, section, rest):
        m = _keyvalue_rx.match(rest)
        if not m:
            self.error("malformed configuration data")
        section[m.group("key")] = m.group("value")

    def handle_directive(self, section, rest):
        m = _keyvalue_rx.match(rest)
        if not m:
            self.error("missing or unrecognized directive")
        name, arg = m.group("key", "value")
        if name not in ("define", "import", "include"):
            self.error("unknown directive: " + repr(name))
        if not arg:
            self.error("missing argument to %%%s directive" % name)
        getattr(self, "handle_" + name)(section, arg)

    def handle_define(self, section, rest):
        parts = rest.split(None, 1)
        defname = parts[0].lower()
        if defname in self.defines:
            self.error("cannot redefine " + repr(defname))
        if not defname.isidentifier():
            self.error("not a substitution legal name: " + repr(defname))
        self.defines[defname] = parts[1] if len(parts) == 2 else ""

    def error(self, message):
        raise cfgkit.ConfigurationSyntaxError(message, self.url, self.lineno, self.colno)
'''

MATCHER = '''
import cfgkit


class SectionValue:
    def __init__(self, lineno):
        self.lineno = lineno

    def convert(self, datatype, value):
        try:
            return datatype(value)
        except ValueError as e:
            raise cfgkit.ConfigurationError(f"{e} (line {self.lineno})")
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "callerctx", "cfgkit",
                               {"__init__.py": INIT, "cfgparser.py": PARSER, "matcher.py": MATCHER})


@pytest.mark.parametrize("text", [
    "missing argument to %import directive (line 1)",
    "unknown directive: 'not' (line 1)",
    "missing or unrecognized directive (line 3)",
    "cfgkit.ConfigurationSyntaxError: malformed section end\n(line 4 in file:///etc/app.conf)",
])
def test_a_callers_text_reaches_the_helper_in_the_class_forms(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    top = r.matches[0]
    assert top.qualname == "ZConfigParser.error" and top.method == "exact", [(m.qualname, m.template) for m in r.matches]


def test_a_runtime_text_in_the_same_form_stays_with_its_own_site(lib: Catalog) -> None:
    r = explain(lib, "invalid literal for int() with base 10: 'x' (line 2)")
    assert r.matches[0].qualname == "SectionValue.convert"
