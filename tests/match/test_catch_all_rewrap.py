"""A handler that catches everything and raises the package's class around the caught text alone (pyserde
0.34.0, round 22: ``from_obj``'s ``except Exception as e: raise SerdeError(e) from None`` around every
deserializer, which catches the ``SerdeError`` they raise too; 21 events at that line answered with the inner
raise alone).  ``from None`` leaves the handler's frames alone in the traceback: its line is where the user
sees the error, and the text and the class are the inner raise's.  It ties with the top when the input prints
the top's class or none; another class printed rules it out (``ties._catch_all_rewraps``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain

DE = '''
class SerdeError(Exception):
    pass


def from_json_number(value):
    if isinstance(value, bool):
        raise SerdeError(f"Expected JSON number but got boolean {value}")
    if not isinstance(value, (int, float)):
        raise ValueError(f"Not a number: {value!r}")
    return value


def from_obj(c, o):
    try:
        return from_json_number(o)
    except Exception as e:
        raise SerdeError(e) from None
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root: Path = tmp_path_factory.mktemp("catchall")
    db = str(root / "c.sqlite")
    index_package(root, "serdekit", {"__init__.py": "", "de.py": DE}, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


def _group(lib: Catalog, text: str) -> tuple[list[str], bool]:
    r = explain(lib, text)
    top = r.matches[0]
    return sorted([top.qualname, *(t.qualname for t in top.tied)]), r.confident


def test_the_printed_class_of_the_handler_ties(lib: Catalog) -> None:
    group, confident = _group(lib, "serdekit.de.SerdeError: Expected JSON number but got boolean True")
    assert group == ["from_json_number", "from_obj"] and not confident


def test_no_class_printed_ties(lib: Catalog) -> None:
    group, confident = _group(lib, "Expected JSON number but got boolean True")
    assert group == ["from_json_number", "from_obj"] and not confident


def test_another_class_printed_is_not_the_handlers(lib: Catalog) -> None:
    group, _ = _group(lib, "ValueError: Not a number: 'x'")
    assert group == ["from_json_number"]


def test_a_text_no_template_explains_falls_back_to_the_handler(lib: Catalog) -> None:
    # a TypeError of the user's callable, raised inside `from_obj` and printed as SerdeError's text
    r = explain(lib, "first argument must be callable or None")
    top = r.matches[0]
    assert top.qualname == "from_obj" and top.method == "class" and not r.confident
    assert "did not write" in top.tie_note


def test_a_text_sharing_a_templates_words_is_no_fallback(lib: Catalog) -> None:
    r = explain(lib, "Expected JSON number but got boolean")
    assert r.matches[0].method != "class"
