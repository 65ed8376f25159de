"""A package's subclass of ``KeyError`` prints the ``repr`` of its one argument, as ``KeyError`` does, with
whichever quote ``repr`` picks: python-box 8.0.0's ``BoxKeyError(BoxError, KeyError, AttributeError)``
prints ``"'missing' is not in the Box, ..."`` (double quotes: the text holds a single one) and
``'Key name "items" is protected'``.  Its templates lose their quotes as ``KeyError``'s do, and its printed
text is read unquoted, from the last line and from the message alone.  A quoted value with no class
(``'non-existent'``) is also what a site prints that catches a lookup's ``KeyError`` and raises its text
again as its own class (jsonpatch 1.48's ``except (KeyError, IndexError) as ex: raise
JsonPatchPathNotFound(str(ex))``): such sites join the group of sites whose message is a value.  The
inputs are in the shape captured from the two libraries' test suites (``bench/data/python-box-8.0.0.jsonl``,
``bench/data/jsonpatch-1.48.jsonl``); the library is written in their shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain

ERRORS = '''
class BagError(Exception):
    """Non standard dictionary exceptions"""


class BagKeyError(BagError, KeyError, AttributeError):
    """Key does not exist"""


class PathNotFound(BagError):
    """A path names no member."""
'''

BAG = '''
from bag.errors import BagKeyError, PathNotFound


class Bag(dict):
    _protected_keys = ("items", "to_dict")

    def __getitem__(self, item):
        try:
            return self._lookup(item)
        except KeyError as err:
            raise BagKeyError(str(err)) from None

    def _lookup(self, item):
        if item == "_bag_config":
            raise BagKeyError("_bag_config should only exist as an attribute and is never defaulted")
        return super().__getitem__(item)

    def __setattr__(self, key, value):
        if key in self._protected_keys:
            raise BagKeyError(f'Key name "{key}" is protected')
        self[key] = value

    def __setitem__(self, item, value):
        if item in self._protected_keys:
            raise BagKeyError(f'Key name "{item}" is protected')
        super().__setitem__(item, value)

    def comment(self, key):
        if not dict.__contains__(self, key):
            raise BagKeyError(f"{key!r} is not in the Bag, comments can only be attached to existing keys")
        return key

    def copy_from(self, part):
        try:
            value = self.data[part]
        except (KeyError, IndexError) as ex:
            raise PathNotFound(str(ex))
        return value


def delitem(container, key):
    if key not in container:
        raise KeyError(key)
    del container[key]
'''


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root = tmp_path_factory.mktemp("bag")
    db = str(root / "c.sqlite")
    index_package(root, "bag", {"__init__.py": "", "errors.py": ERRORS, "bag.py": BAG}, db)
    cat = open_catalog(db)
    yield cat
    cat.close()


def _line(text: str) -> int:
    return next(n for n, line in enumerate(BAG.splitlines(), 1) if text in line)


def _group(m: object) -> set[int]:
    return {m.line, *(t.line for t in m.tied)}  # type: ignore[attr-defined]


def test_a_double_quoted_repr_of_a_subclass_is_its_site(catalog: Catalog) -> None:
    r = explain(catalog, "bag.errors.BagKeyError: \"'missing' is not in the Bag, comments can only be attached "
                         "to existing keys\"")
    assert r.matches[0].line == _line("is not in the Bag, comments") and r.matches[0].method == "exact"


def test_a_subclass_message_alone_is_read_unquoted(catalog: Catalog) -> None:
    r = explain(catalog, "'Key name \"items\" is protected'")
    top = r.matches[0]
    assert top.method == "exact" and not top.confident  # two sites raise it
    assert _group(top) == {_line('raise BagKeyError(f\'Key name "{key}"'), _line('raise BagKeyError(f\'Key name "{item}"')}


def test_a_quoted_value_ties_with_the_sites_that_reraise_a_caught_key_error(catalog: Catalog) -> None:
    r = explain(catalog, "'non-existent'")
    top = r.matches[0]
    assert top.method == "class" and not top.confident
    assert {_line("raise KeyError(key)"), _line("raise PathNotFound(str(ex))"),
            _line("raise BagKeyError(str(err))")} <= _group(top)


def test_a_subclass_repr_of_a_caught_key_error_is_a_value(catalog: Catalog) -> None:
    """``BagKeyError(str(KeyError('rating')))`` prints ``"'rating'"``: the repr of a repr.  The site also
    prints the text of the library's own raise its ``try`` reaches, so not every text of it is a value."""
    r = explain(catalog, "\"'rating'\"")
    assert _line("raise BagKeyError(str(err))") in _group(r.matches[0])
