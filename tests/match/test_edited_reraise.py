"""A message its handler edited before raising the same exception again (asn1crypto 1.5.1, round 22:
``e.args = (e.args[0] + '\\n    while parsing %s' % type_name(self),) + args; raise e`` in seventeen
handlers).  The message without the added line is the original site's alone, tied with no handler;
with the line, the original site ranks first (its innermost frame raised the object) and the handlers
just below it, each naming it in ``wraps``; two sites of the very text stay tied (``match/edited.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.indexdata import edited_reraise

CORE = '''
def type_name(value):
    return value.__class__.__module__ + "." + value.__class__.__name__


def parse(data):
    if data[:1] == b"\\x1f":
        raise ValueError("Non-minimal tag encoding")
    if len(data) > 10:
        raise ValueError("Extra data - %d bytes of trailing data were provided" % (len(data) - 10))
    return data


def build(data, value):
    extra_bytes = len(data) - 10
    if extra_bytes > 0:
        raise ValueError(f"Extra data - {extra_bytes} bytes of trailing data were provided")
    return value


class Sequence:
    def __init__(self, contents=None):
        try:
            self.contents = parse(contents)
        except (ValueError, TypeError) as e:
            args = e.args[1:]
            e.args = (e.args[0] + '\\n    while constructing %s' % type_name(self),) + args
            raise e

    def native(self):
        try:
            return build(self.contents, self)
        except (ValueError, TypeError) as e:
            args = e.args[1:]
            e.args = (e.args[0] + '\\n    while parsing %s' % type_name(self),) + args
            raise e


class Set(Sequence):
    def __init__(self, contents=None):
        try:
            self.contents = parse(contents)
        except (ValueError, TypeError) as e:
            args = e.args[1:]
            e.args = (e.args[0] + '\\n    while constructing %s' % type_name(self),) + args
            raise e
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root: Path = tmp_path_factory.mktemp("edited")
    db = str(root / "c.sqlite")
    index_package(root, "asnkit", {"__init__.py": "", "core.py": CORE}, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


def test_the_plain_message_ties_with_no_handler(lib: Catalog) -> None:
    r = explain(lib, "ValueError: Non-minimal tag encoding")
    top = r.matches[0]
    assert top.qualname == "parse" and top.tied_count == 0 and r.confident


def test_the_edited_message_names_the_original_first(lib: Catalog) -> None:
    r = explain(lib, "ValueError: Non-minimal tag encoding\n    while constructing asnkit.core.Set")
    top, *rest = r.matches
    assert top.qualname == "parse" and top.tied_count == 0
    handlers = [m for m in rest if m.qualname in ("Sequence.__init__", "Set.__init__")]
    assert handlers and all(m.wraps == top.id and m.score < top.score for m in handlers)


def test_two_sites_of_the_very_text_stay_tied_under_the_edit(lib: Catalog) -> None:
    r = explain(lib, "ValueError: Extra data - 3 bytes of trailing data were provided\n"
                     "    while parsing asnkit.core.Sequence")
    top = r.matches[0]
    assert sorted([top.qualname, *(t.qualname for t in top.tied)]) == ["build", "parse"] and not r.confident


def test_what_an_edited_re_raise_is() -> None:
    segs = ((False, "e.args[0]"), (True, " while parsing "), (False, "type_name(self)"))
    assert edited_reraise("            raise e", segs)
    assert not edited_reraise("            raise ValueError(e.args[0] + ' x')", segs)  # a new exception
    assert not edited_reraise("            raise e", ((False, "e"),))  # no text of its own
    assert not edited_reraise("            raise err", segs)  # not the name the text holds


SCHEMA = '''
import sys


class ValidationError(Exception):
    pass


def check_boolean(value):
    if not isinstance(value, bool):
        raise ValidationError("{0} is not a boolean".format(value))


def check_length(value, wanted):
    if len(value) > wanted:
        raise ValidationError("{0} has too many elements. Wanted {1}.".format(value, wanted))


class Builder:
    def __init__(self, **props):
        for prop in props:
            try:
                check_boolean(props[prop])
            except ValidationError as e:
                e = type(e)(str(e) + " \\nwhile setting '{0}' in {1}".format(prop, self.__class__.__name__))
                raise e.with_traceback(sys.exc_info()[2])

    def extend(self, items):
        try:
            check_length(items, 4)
        except ValidationError as err:
            raise ValidationError(f"{err} (while extending)").with_traceback(err.__traceback__)
'''


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root: Path = tmp_path_factory.mktemp("kepttb")
    db = str(root / "c.sqlite")
    index_package(root, "schemakit", {"__init__.py": "", "core.py": SCHEMA}, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


@pytest.mark.parametrize(("text", "inner"), [
    ("schemakit.core.ValidationError: hi is not a boolean \nwhile setting 'foobar' in example", "check_boolean"),
    ("schemakit.core.ValidationError: [1, 2, 3, 4, 5] has too many elements. Wanted 4. (while extending)",
     "check_length"),
])
def test_a_raise_handing_the_caught_traceback_on_names_the_original_first(schema: Catalog, text: str,
                                                                        inner: str) -> None:
    # python-jsonschema-objects 0.5.7 (round 24): `raise e.with_traceback(sys.exc_info()[2])` after
    # `e = type(e)(str(e) + ...)`: the innermost frame is the original raise, the handler only added text
    r = explain(schema, text)
    top, handler = r.matches[:2]
    assert top.qualname == inner and top.tied_count == 0 and r.confident
    assert handler.qualname.startswith("Builder.") and handler.wraps == top.id and handler.score < top.score


def test_what_a_raise_handing_the_caught_traceback_on_is() -> None:
    segs = ((False, "e"), (True, " while setting "), (False, "prop"))
    assert edited_reraise("    raise e.with_traceback(sys.exc_info()[2])", segs)
    assert edited_reraise("    raise Error(f'{e} x').with_traceback(e.__traceback__)", segs)
    assert not edited_reraise("    raise Error(f'{e} x').with_traceback(tb)", segs)  # whose traceback is not known
    assert not edited_reraise("    raise Error(f'{e} x').with_traceback(other.__traceback__)", segs)
    assert not edited_reraise("    raise e.with_traceback(sys.exc_info()[2])", ((False, "e"),))  # no text of its own
    assert not edited_reraise("    raise Error(f'{e} x')", segs)  # a new traceback: the handler raised it
