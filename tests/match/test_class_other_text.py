"""A class that prints another exception's text (an error collecting others prints the first one's,
``str(self.errors[0])``): the text is found in the sites raising the collected class, but the
printed class is the collecting one, so the answer is the class fallback of the sites raising
that class, not a confident site of another class.

The library is written for the test in voluptuous's shape; the input is a real text captured
from its test suite (``bench/data/voluptuous-0.16.0.jsonl``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

LIB = '''
class Invalid(Exception):
    """The data was invalid."""

    def __init__(self, message, path=None):
        Exception.__init__(self, message)
        self._path = path or []

    def __str__(self):
        path = " @ data[%s]" % "][".join(map(repr, self._path)) if self._path else ""
        return self.args[0] + path


class MultipleInvalid(Invalid):
    """Several errors; it prints the first."""

    def __init__(self, errors=None):
        self.errors = errors[:] if errors else []

    def __str__(self):
        return str(self.errors[0])


def one_of(value, choices):
    if value not in choices:
        raise Invalid(f"value must be one of {sorted(choices)}")
    return value


def validate_mapping(data, schema):
    errors = []
    for key, check in schema.items():
        try:
            check(data[key])
        except Invalid as e:
            errors.append(e)
    if errors:
        raise MultipleInvalid(errors)
    return data
'''

TEXT = "value must be one of ['blue', 'red', 'yellow']"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "other", "vol", {"__init__.py": LIB})


def test_text_of_another_class_gives_the_printed_class_fallback(lib: Catalog) -> None:
    top = explain(lib, f"vol.MultipleInvalid: {TEXT}").matches[0]
    assert top.method == "class" and not top.confident
    assert top.qualname == "validate_mapping" and top.exception.endswith("MultipleInvalid")


def test_the_same_text_printed_by_its_own_class_is_its_site(lib: Catalog) -> None:
    top = explain(lib, f"vol.Invalid: {TEXT}").matches[0]
    assert top.method == "exact" and top.qualname == "one_of"
