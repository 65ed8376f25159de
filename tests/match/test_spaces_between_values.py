"""A literal of spaces alone between two values (``f"{self!r} {type(self)}"``) is first read as sharing the
space before an empty value; when that reading leaves a value implausible (``{type(self)}`` holding more
than ``<class '...'>``), the template is read again with the space found after a value (``rank``,
``verify(share_spaces=False)``).  cel-python 0.5.0's decorator ``type_matched`` raises ``TypeError(f"no
such overload: {self!r} {type(self)} != {other!r} {type(other)}")`` and its comparison methods raise the
bare ``"no such overload"``: the text below, captured from its test suite (round 27), was answered with
the bare text's six sites."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

TYPES = '''
from functools import wraps


def type_matched(method):
    @wraps(method)
    def type_matching_method(self, other):
        if not (issubclass(type(other), type(self)) or issubclass(type(self), type(other))):
            raise TypeError(
                f"no such overload: {self!r} {type(self)} != {other!r} {type(other)}"
            )
        return method(self, other)

    return type_matching_method


class ListType(list):
    def __gt__(self, other):
        raise TypeError("no such overload")

    def __ge__(self, other):
        raise TypeError("no such overload")


class MapType(dict):
    def __lt__(self, other):
        raise TypeError("no such overload")
'''

TEXT = ("TypeError: no such overload: DoubleType(3.1415926) <class 'celpy.celtypes.DoubleType'> != "
        "StringType('nope') <class 'celpy.celtypes.StringType'>")


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "spaces", "celtypes_pkg", {"celtypes.py": TYPES})


def test_values_around_a_space_literal_are_read_after_the_value(catalog: Catalog) -> None:
    top = explain(catalog, TEXT, top=3).matches
    assert top[0].qualname == "type_matched.<locals>.type_matching_method", [(m.qualname, m.method) for m in top]
    assert top[0].method == "exact" and top[0].confident


def test_a_class_value_that_is_no_class_still_fails(catalog: Catalog) -> None:
    # `{type(self)}` prints `<class '...'>` and nothing else: both readings leave it implausible here
    top = explain(catalog, "TypeError: no such overload: 6 IntType != 7 StringType", top=3).matches
    assert not (top[0].qualname.endswith("type_matching_method") and top[0].method == "exact")
