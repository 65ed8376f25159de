"""A ``SyntaxError`` subclass that keeps its text in its own fields (rdflib 7.6.0's ``class
BadSyntax(SyntaxError)``, whose ``__init__`` never calls ``SyntaxError.__init__`` and whose ``__str__`` builds
``at line {} of <{}>:\\nBad syntax ({}) at ^ in: ...``) is printed by Python's ``traceback`` from its ``msg``
attribute, not its ``str()``: the last line is ``BadSyntax: <no detail available>``.  The text is not in the
input, so no template can be checked: the class fallback is every site naming the class, not the raises of a
value held in a variable that a message with no text otherwise goes to.  The last line is captured from
rdflib's test suite (``bench/data/rdflib-7.6.0.jsonl``); the library is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

NOTATION3 = '''
class BadSyntax(SyntaxError):
    def __init__(self, uri, lines, argstr, i, why):
        self._str = argstr.encode("utf-8")
        self._i = i
        self._why = why
        self.lines = lines
        self._uri = uri

    def __str__(self):
        argstr = self._str
        i = self._i
        st = 0
        if i > 60:
            pre = "..."
            st = i - 60
        else:
            pre = ""
        if len(argstr) - i > 60:
            post = "..."
        else:
            post = ""
        return 'at line %i of <%s>:\\nBad syntax (%s) at ^ in:\\n"%s%s^%s%s"' % (
            self.lines + 1, self._uri, self._why, pre, argstr[st:i], argstr[i : i + 60], post)


class SinkParser:
    def __init__(self, thisDoc=""):
        self._thisDoc = thisDoc
        self.lines = 0

    def qname(self, argstr, i, c):
        if c not in "0123456789abcdef":
            raise BadSyntax(self._thisDoc, self.lines, argstr, i, "illegal hex escape " + c)
        return i + 1

    def strconst(self, argstr, i, startline):
        if argstr[i] == "\\n":
            raise BadSyntax(self._thisDoc, startline, argstr, i, "newline found in string literal")
        return i + 1

    def BadSyntax(self, argstr, i, msg):
        raise BadSyntax(self._thisDoc, self.lines, argstr, i, msg)

    def property_list(self, argstr, i):
        if not argstr[i:].strip():
            self.BadSyntax(argstr, i, "objectList expected")
        return i
'''

NETWORKING = '''
from urllib.error import HTTPError


def _make_redirect_request(request, http_error):
    location = http_error.headers.get("Location")
    if location is None:
        raise http_error
    return location


def _handle(errors):
    for err in errors:
        raise err
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "untold", "rdfl", {
        "__init__.py": "", "notation3.py": NOTATION3, "_networking.py": NETWORKING})


def test_an_untold_message_is_any_site_naming_the_class(lib: Catalog) -> None:
    top = explain(lib, "rdfl.notation3.BadSyntax: <no detail available>").matches[0]
    assert (top.method, top.confident) == ("class", False)
    assert sorted([top.qualname, *(t.qualname for t in top.tied)]) == [
        "SinkParser.BadSyntax", "SinkParser.qname", "SinkParser.strconst"]
    assert "not printed" in top.tie_note


def test_an_empty_message_still_rules_out_the_sites_of_text(lib: Catalog) -> None:
    """``BadSyntax:`` with nothing after it is an empty text: every site naming the class has text, so the
    raises of a held value may be it (the rule is the marker's, not a class's)."""
    top = explain(lib, "rdfl.notation3.BadSyntax: ").matches[0]
    assert top.qualname in ("_make_redirect_request", "_handle")
    assert not any(t.qualname.startswith("SinkParser") for t in top.tied)
