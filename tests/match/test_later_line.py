"""A template found only on a later line of a message, below a line of text it does not write, is no
confident answer without a traceback (``honesty.on_later_line``); a repr printed over lines, whose line
breaks are inside its brackets, is no such line.

Captured shapes (round 16's held-out sets): xmlschema 4.3.2's validation error prints ``failed decoding
'x' with XsdAtomicBuiltin(...):\\n\\nReason: invalid value 'x' for xs:base64Binary\\n\\n...`` from its
``__str__``, and a different raise of the same ``invalid value {value} for {self}`` took the answer;
yamale 6.1.0 raises ``Schema error in file f.yaml\\n`` above another raise's ``Invalid schema expression``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.honesty import on_later_line

CORE = '''
class ValidationError(ValueError):
    def __init__(self, obj, validator, reason):
        super().__init__(reason)
        self.obj = obj
        self.validator = validator
        self.reason = reason

    def __str__(self):
        return f"failed decoding {self.obj!r} with {self.validator!r}:\\n\\nReason: {self.reason}\\n"


class Argument:
    def validated_value(self, value, name):
        if not isinstance(value, str):
            raise TypeError(f"invalid value {value!r} for {name}")
        return value


def check_type(key, value, kwtype):
    if not isinstance(value, kwtype):
        raise ValueError(f"{key}: {value!r} is not a {kwtype.__name__}")
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "laterline", "laterlib", {"__init__.py": "", "core.py": CORE})


SHOWN = ("failed decoding 'YWJj=' with XsdAtomicBuiltin(name='xs:base64Binary'):\n\n"
         "Reason: invalid value 'YWJj=' for xs:base64Binary\n\nSchema component:\n\n"
         '  <xs:simpleType xmlns:hfp="http://www.w3.org/2001/XMLSchema-hasFacetAndProperty" '
         'xmlns:xs="http://www.w3.org/2001/XMLSchema" name="base64Binary" id="base64Binary">\n'
         '   <xs:annotation>\n     <xs:appinfo>\n       <hfp:hasFacet name="length" />\n'
         '       <hfp:hasFacet name="minLength" />\n       <hfp:hasFacet name="maxLength" />\n')


def test_a_text_below_lines_it_does_not_write_is_no_confident_answer(lib: Catalog) -> None:
    r = explain(lib, SHOWN)
    assert r.matches and r.matches[0].qualname == "Argument.validated_value"
    assert not r.confident and "later line" in r.matches[0].tie_note


def test_the_same_text_on_the_first_line_stays_confident(lib: Catalog) -> None:
    assert explain(lib, "invalid value 'YWJj=' for xs:base64Binary").confident
    assert explain(lib, "invalid value 'YWJj=' for xs:base64Binary\n\nSchema component: <x/>").confident


def test_a_placeholder_taking_a_line_of_someone_elses_is_no_confident_answer(lib: Catalog) -> None:
    head = ("Error validating data '/srv/app/data/types_bad_data.yaml' with schema "
            "'/srv/app/schemas/types.yaml'\n\t")
    assert explain(lib, "string: '1' is not a str").confident
    r = explain(lib, head + "string: '1' is not a str\n\tnumber: 'nan' is not a float")
    assert r.matches and r.matches[0].qualname == "check_type" and not r.confident


def test_on_later_line_reads_the_line_the_first_literal_is_on() -> None:
    segs = ((True, "invalid value "), (False, "value"), (True, " for "), (False, "name"))
    assert on_later_line(segs, "header:\n\nReason: invalid value 'a' for b")
    assert not on_later_line(segs, "Reason: invalid value 'a' for b\n\nmore")
    assert not on_later_line(segs, "invalid   value 'a'  for b")
    key = ((False, "key"), (True, " is not a "), (False, "t"))
    assert on_later_line(key, "Error validating data 'a.yaml'\n\tstring: '1' is not a str.")
    assert not on_later_line(key, "array([[1, 2],\n       [3, 4]]) is not a str")
    assert not on_later_line(key, "string: '1' is not a str.\n\tnumber: 'nan' is not a num.")
