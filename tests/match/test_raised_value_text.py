"""A raise of a value re-raises text built elsewhere (xmlschema 4.3.2, round 16): ``raise_or_collect(self,
validation, error)`` ends ``raise error``, and its templates are its callers' (``Reason: {reason}`` inside
the class's ``__str__``).  With the last line alone it was the confident answer for texts that other code
built and raised (``DataElement.validate``'s ``raise error``, ``xsdbase``'s own raises of the class): four
confident-wrong answers once retrieval stopped keeping only copies of one text.  Its text is no certainty
without a traceback, as a text a class builds itself is not (``honesty.class_text``); the frames still
decide."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.honesty import raised_by_name

ERRORS = '''
class ValidationError(ValueError):
    def __init__(self, obj, reason):
        super().__init__(obj, reason)
        self.obj = obj
        self.reason = reason

    def __str__(self):
        return "failed validating %r:\\n\\nReason: %s\\n" % (self.obj, self.reason)


class DecodeError(ValidationError):
    pass
'''

PADDING = "".join(f'''
def helper_{i}(value):
    """Padding: the callers are far from the raise, as in a package."""
    return value + {i}

''' for i in range(6))

CORE = '''
from vallib.errors import DecodeError, ValidationError


class Context:
    def raise_or_collect(self, validation, error):
        if validation == "strict":
            raise error
        self.errors.append(error)


''' + PADDING + '''


def check(context, value):
    if value < 0:
        context.raise_or_collect("strict", ValidationError(value, "value must be positive"))
    return value


def decode(context, text):
    if not text.isdigit():
        context.raise_or_collect("strict", DecodeError(text, "not a number"))
    return int(text)
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "raisedvalue", "vallib",
                               {"__init__.py": "", "errors.py": ERRORS, "core.py": CORE})


def test_a_raise_of_a_value_is_named_but_not_confident(lib: Catalog) -> None:
    r = explain(lib, "vallib.errors.ValidationError: failed validating -1:\n\nReason: value must be positive\n")
    assert r.matches and r.matches[0].qualname == "Context.raise_or_collect"
    assert not r.confident and "built elsewhere" in r.matches[0].tie_note


def test_a_raise_names_its_class_or_a_value() -> None:
    assert raised_by_name("ValidationError") and raised_by_name("exceptions.ValidationError")
    assert not raised_by_name("error") and not raised_by_name("self.error")
