"""Two classes share their base's ``__str__``, so one site's template prints the other class's text too:
jsonschema 4.26.0's ``raise SchemaError.create_from(error)`` carries the ``_Error.__str__`` text that every
``ValidationError`` prints.  A last line naming ``ValidationError`` was not raised at a site raising
``SchemaError`` (written by its name): that site is listed, never confident; no site names
``ValidationError``, and the class fallback answers with the raise of a value built elsewhere.  A ``Error: text`` tag is no
class, and a site the traceback pins keeps its answer.  The input is a text captured from jsonschema's
test suite (``bench/data/jsonschema-4.26.0.jsonl``); the library is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.index import S_QUAL, T_SITE, index_for
from errdex.match.indexdata import LOOSE

EXCEPTIONS = '''
class _Error(Exception):
    def __init__(self, message, validator=None, instance=None, schema=None):
        super().__init__(message, validator, instance, schema)
        self.message = message
        self.validator = validator
        self.instance = instance
        self.schema = schema

    def __str__(self):
        if self.validator is None:
            return self.message
        return f"{self.message}\\n\\nFailed validating {self.validator!r} in schema:\\n    {self.schema!r}"

    @classmethod
    def create_from(cls, other):
        return cls(other.message, other.validator, other.instance, other.schema)


class ValidationError(_Error):
    """An instance was invalid under a schema."""


class SchemaError(_Error):
    """A schema was invalid under its meta-schema."""
'''

VALIDATORS = '''
from vschema import exceptions


def check_schema(meta, schema, iter_errors):
    for error in iter_errors(meta, schema):
        raise exceptions.SchemaError.create_from(error)


def validate(schema, instance, iter_errors):
    for error in iter_errors(schema, instance):
        raise error


def load(read):
    try:
        return read()
    except ValueError as error:
        raise error
'''

TEXT = "4.4 is not of type 'integer'\n\nFailed validating 'type' in schema:\n    {'type': 'integer'}"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "sibling", "vschema",
                               {"__init__.py": "", "exceptions.py": EXCEPTIONS, "validators.py": VALIDATORS})


def test_a_site_raising_a_sibling_class_is_not_confident(lib: Catalog) -> None:
    """No site names ValidationError: the raise of a value built elsewhere (`raise error`) is the class
    fallback's answer, and the site raising SchemaError is listed below it, not confident."""
    r = explain(lib, f"vschema.exceptions.ValidationError: {TEXT}")
    top = r.matches[0]
    assert (top.qualname, top.method, r.confident) == ("validate", "class", False)
    assert "built elsewhere" in top.tie_note
    sibling = next(m for m in r.matches if m.qualname == "check_schema")
    assert not sibling.confident and sibling.score < 0.5


def test_the_class_it_raises_is_named(lib: Catalog) -> None:
    """The site raising SchemaError answers; its text is the class's own ``__str__`` (the raise writes none
    of it), so from the last line it is the likeliest site, not a certain one (``match/honesty.py``);
    a traceback through the raise makes it certain."""
    r = explain(lib, f"vschema.exceptions.SchemaError: {TEXT}")
    assert r.matches[0].qualname == "check_schema" and not r.confident
    assert "builds this text itself" in r.matches[0].tie_note
    tb = ('Traceback (most recent call last):\n  File "/venv/site-packages/vschema/validators.py", line 7, '
          'in check_schema\n    raise exceptions.SchemaError.create_from(error)\n'
          f"vschema.exceptions.SchemaError: {TEXT}\n")
    pinned = explain(lib, tb)
    assert pinned.matches[0].qualname == "check_schema" and pinned.confident


def test_a_tag_before_the_text_is_no_class(lib: Catalog) -> None:
    """`Error:` is no class the library raises, nor a builtin: it says nothing against the site."""
    r = explain(lib, f"Error: {TEXT}")
    assert r.matches[0].qualname == "check_schema" and r.matches[0].score >= 0.5


def test_a_loose_raise_is_no_reraise_of_a_caught_exception(lib: Catalog) -> None:
    idx = index_for(lib)
    assert {idx.sites[idx.templates[t][T_SITE]][S_QUAL] for t in idx.rewraps[LOOSE]} == {"validate"}


def test_the_message_alone_ties_the_site_with_the_loose_raise(lib: Catalog) -> None:
    """No class printed: the text begins with another error's message (`{message}`, three words or more),
    which `raise error` may print as it is, so the two tie and neither is confident."""
    r = explain(lib, TEXT)
    top = r.matches[0]
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"check_schema", "validate"}
    assert not r.confident
