"""A placeholder printing a name (``{self.__class__.__name__}``, ``{type(e).__qualname__}``) holds a
dotted identifier, never a sentence (``verify.reprs_plausible``).  ofxtools 1.1.1: ``Element`` raises
``OFXSpecError(f"{self.__class__.__name__}: Value is required")`` and ``Aggregate.__init__`` re-raises it
as ``Can't set {cls}.{attr} to {value}: {msg}``; the wrapped text ``Can't set INTERRQ.xferinfo to None:
SubAggregate: Value is required`` (captured from its suite) was answered, confidently, by the inner
template, its class name "found" as ``Can't set INTERRQ.xferinfo to None: SubAggregate``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.verify import names_plausible

TYPES = '''
class OFXSpecError(ValueError):
    pass


class Element:
    required = False

    def enforce_required(self, value):
        if value is None and self.required:
            raise OFXSpecError(f"{self.__class__.__name__}: Value is required")
'''

BASE = '''
class Aggregate:
    def __init__(self, **kwargs):
        for attr, value in kwargs.items():
            try:
                setattr(self, attr, value)
            except ValueError as exc:
                cls = self.__class__.__name__
                msg = exc.args[0]
                raise type(exc)(f"Can't set {cls}.{attr} to {value}: {msg}")
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "namevalue", "ofxlib",
                               {"__init__.py": "", "types.py": TYPES, "base.py": BASE})


def test_a_sentence_is_no_class_name(lib: Catalog) -> None:
    r = explain(lib, "Can't set INTERRQ.xferinfo to None: SubAggregate: Value is required")
    top = r.matches[0]
    assert top.qualname == "Aggregate.__init__" or not r.confident, (top.qualname, r.confident)
    assert explain(lib, "SubAggregate: Value is required").matches[0].qualname == "Element.enforce_required"


def test_name_placeholders_hold_names() -> None:
    segs = ((False, "self.__class__.__name__"), (True, ": Value is required"))
    assert names_plausible(segs, (("{self.__class__.__name__}", "SubAggregate"),))
    assert names_plausible(segs, (("{self.__class__.__name__}", "f.<locals>.Inner"),))
    assert not names_plausible(segs, (("{self.__class__.__name__}", "Can't set X.y to None: SubAggregate"),))
    # `!r` quotes it (param 2.4.2's `Slot {key!r} on unbound parameter {self.__class__.__name__!r} has ...`)
    assert names_plausible(segs, (("{self.__class__.__name__!r}", "'CustomParameter'"),))
    # a placeholder before another one, or ending the template, may hold more than the name
    two = ((False, "type(e).__name__"), (False, "e"), (True, " failed"))
    assert names_plausible(two, (("{type(e).__name__}", "KeyError: 'a'"), ("{e}", "")))
    assert names_plausible(((True, "bad "), (False, "cls.__name__")), (("{cls.__name__}", "Foo and more"),))
