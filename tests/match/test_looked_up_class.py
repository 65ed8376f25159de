"""A class looked up at run time (werkzeug 3.1.9's ``abort(404)``: ``raise self.mapping[code](*args,
**kwargs)``) may be the printed one: a class fallback lists such a raise after the sites that name the
class (ties with them when their text is found exactly), and answers with it alone when none does.  The last lines are captured from werkzeug's test
suite (``bench/data/werkzeug-3.1.9.jsonl``); the library is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

EXCEPTIONS = '''
STATUS = {404: "Not Found", 410: "Gone"}


class HTTPException(Exception):
    code = None
    description = None

    def __init__(self, description=None):
        super().__init__()
        if description is not None:
            self.description = description

    @property
    def name(self):
        return STATUS.get(self.code, "Unknown Error")

    def __str__(self):
        code = self.code if self.code is not None else "???"
        return f"{code} {self.name}: {self.description}"


class NotFound(HTTPException):
    code = 404
    description = "The requested URL was not found on the server."


class Gone(HTTPException):
    code = 410
    description = "The requested URL is no longer available on this server."


default_exceptions = {404: NotFound, 410: Gone}


class Aborter:
    def __init__(self, mapping=None):
        self.mapping = dict(mapping or default_exceptions)

    def __call__(self, code, *args, **kwargs):
        if code not in self.mapping:
            raise LookupError(f"no exception for {code!r}")
        raise self.mapping[code](*args, **kwargs)


def lookup(rules, path):
    if path not in rules:
        raise NotFound()
    return rules[path]


class BuildError(Exception):
    def __init__(self, endpoint, values):
        self.endpoint = endpoint
        self.values = values

    def __str__(self):
        return f"Could not build url for endpoint {self.endpoint!r} with values {self.values!r}."


def build(endpoint, rules):
    if endpoint not in rules:
        raise BuildError(endpoint, sorted(rules))
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "lookedup", "wzeug", {"__init__.py": "", "exceptions.py": EXCEPTIONS})


def test_the_looked_up_raise_ties_with_the_sites_naming_the_class(lib: Catalog) -> None:
    """``raise NotFound()`` prints its class attributes (``description``), found exactly; the looked-up raise
    may take that class from its mapping and print the very text: a tie, not a confident answer."""
    for text in ("wzeug.exceptions.NotFound: 404 Not Found: The requested URL was not found on the server.",
                 "404 Not Found: The requested URL was not found on the server."):
        top = explain(lib, text).matches[0]
        assert top.method == "exact" and not top.confident
        assert [top.qualname, *(t.qualname for t in top.tied)] == ["lookup", "Aborter.__call__"]


def test_a_class_no_site_names_is_answered_by_the_looked_up_raise(lib: Catalog) -> None:
    r = explain(lib, "wzeug.exceptions.Gone: 410 Gone: The requested URL is no longer available on this server.")
    top = r.matches[0]
    assert (top.method, top.qualname, top.tied_count, top.confident) == ("class", "Aborter.__call__", 0, False)


def test_a_class_a_site_names_with_text_is_no_looked_up_raise(lib: Catalog) -> None:
    """BuildError's site has text of its own, sharing words with the message though not all of it: that
    site answers, not a fallback to the looked-up raise (which has no text at all)."""
    r = explain(lib, "wzeug.exceptions.BuildError: Could not build url for endpoint 'urks'. Did you mean 'ws' instead?")
    assert r.matches[0].qualname == "build"
