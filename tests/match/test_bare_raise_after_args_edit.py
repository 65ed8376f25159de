"""A handler that writes the caught exception's ``args`` and re-raises it with a bare ``raise`` (markdown 3.11.3's
``core.py``)::

    except ImportError as e:
        message = 'Failed loading extension "%s".' % ext_name
        e.args = (message,) + e.args[1:]
        raise

The bare ``raise`` raises the caught object with the handler's text, as ``raise e`` does (asn1crypto's shape,
``extract/edited.py``).  When the new text holds the caught one (``"%s (%s:%s)" % (exc.args[0], ...)``, or a local
built from ``e.args[0]``) it is now a site (``edited.edited_bare``) of the caught class and an edited re-raise
(``indexdata.edited_reraise`` with the name the ``except`` binds): the original site first, the handler just
below it.  A text the handler writes whole stays no site: the traceback ends in the ``try`` body."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

FIELDS = '''
class FieldSpecError(ValueError):
    """An invalid field specification."""


def numeric_spec(length, decimals):
    if not 0 < length < 21:
        raise FieldSpecError("Numeric fields must be between 1 and 20, not %d" % length)
    if decimals and not 0 < decimals <= length - 2:
        raise FieldSpecError("Decimals must be between 0 and Length-2 (Length: %d, Decimals: %d)" % (length, decimals))
    return length, decimals


class Table:
    output_formats = {"xhtml": "to_xhtml", "html": "to_html"}

    def __init__(self, filename, output_format="xhtml"):
        self.filename = filename
        self.output_format = output_format
        self.fields = {}

    def add_fields(self, specs):
        for name, length, decimals in specs:
            try:
                self.fields[name] = numeric_spec(length, decimals)
            except FieldSpecError as exc:
                exc.args = ("%s (%s:%s)" % (exc.args[0], self.filename, name),) + exc.args[1:]
                raise

    def set_output_format(self, format):
        self.output_format = format.lower()
        try:
            self.serializer = self.output_formats[self.output_format]
        except KeyError as e:
            valid_formats = sorted(self.output_formats)
            message = 'Invalid Output Format: "%s". Use one of %s.' % (self.output_format, ", ".join(valid_formats))
            e.args = (message,) + e.args[1:]
            raise
        return self

    def load_extension(self, module, ext_name):
        try:
            return module.makeExtension()
        except AttributeError as e:
            message = e.args[0]
            message = "Failed to initiate extension '%s': %s" % (ext_name, message)
            e.args = (message,) + e.args[1:]
            raise

    def lookup(self, name):
        try:
            return self.fields[name]
        except KeyError:
            raise
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "bareedit", "tablekit", {"__init__.py": "", "fields.py": FIELDS})


def test_the_original_ranks_first_and_the_editing_handler_just_below(lib: Catalog) -> None:
    r = explain(lib, "tablekit.fields.FieldSpecError: Decimals must be between 0 and Length-2 (Length: 3, "
                     "Decimals: 2) (blah.dbf:AGE)")
    top = r.matches[0]
    assert top.qualname == "numeric_spec" and top.method == "exact", [(m.qualname, m.score) for m in r.matches]
    handler = next(m for m in r.matches if m.qualname == "Table.add_fields")
    assert handler.score < top.score


def test_a_text_the_handler_wrote_whole_is_no_site(lib: Catalog) -> None:
    # the dict's own KeyError, raised in the `try` body: the traceback ends there, not at the bare `raise`
    r = explain(lib, "KeyError: 'Invalid Output Format: \"foo\". Use one of html, xhtml.'")
    assert all(m.qualname != "Table.set_output_format" for m in r.matches)


def test_a_local_built_from_the_caught_text_is_an_edit(lib: Catalog) -> None:
    r = explain(lib, "AttributeError: Failed to initiate extension 'toc': module 'toc' has no attribute "
                     "'makeExtension'")
    top = r.matches[0]
    assert top.qualname == "Table.load_extension" and top.method == "exact", [(m.qualname, m.score)
                                                                              for m in r.matches]


def test_a_bare_raise_with_no_edit_is_no_site(lib: Catalog) -> None:
    r = explain(lib, "KeyError: 'AGE'")
    assert all(m.qualname != "Table.lookup" for m in r.matches)

