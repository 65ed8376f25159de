"""A raise through a helper that returns the exception passes the helper's keywords (dataclass-wizard 1.0.0,
round 24: ``raise _format_err(e, current_data, path, p, True) from None`` in ``safe_get``, whose helper returns
``ParseError(e, ..., path=..., current_path=...)``; ``ParseError`` prints each extra keyword as a
``  name: value`` line).  The keyword names are read from the helper, a module function or a method of the
raise's class (``extract/helperkw.py``), so the keywords rule (``match/keywords.py``) picks that raise."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from kwerrors import PARSE_ERROR
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.extract.helperkw import helper_keywords
from errdex.match import explain

PATHS = '''
from .errors import ParseError


def safe_get(data, path):
    current = data
    try:
        for p in path:
            current = current[p]
        return current
    except (IndexError, KeyError) as e:
        raise _format_err(e, current, path, p) from None


def as_int(o):
    try:
        return int(o)
    except ValueError as e:
        raise ParseError(e, o, "load")


def as_float(o):
    try:
        return float(o)
    except ValueError as e:
        raise ParseError(e, o, "load", expected="float")


def _format_err(e, current_data, path, current_path):
    return ParseError(e, current_data, "load", path=" => ".join(repr(p) for p in path),
                      current_path=repr(current_path))
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root: Path = tmp_path_factory.mktemp("helperkw")
    db = str(root / "c.sqlite")
    index_package(root, "pathkit", {"__init__.py": "", "errors.py": PARSE_ERROR, "paths.py": PATHS}, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


def test_the_helpers_keywords_pick_the_raise_calling_it(lib: Catalog) -> None:
    r = explain(lib, "pathkit.errors.ParseError: Failed to load value {'a': 1}.\n  error: 'b'\n"
                     "  path: 'a' => 'b'\n  current_path: 'b'")
    top = r.matches[0]
    assert top.qualname == "safe_get" and top.tied_count == 0 and not r.confident


def _raised(source: str) -> tuple[ast.Module, ast.expr]:
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Raise))
    assert node.exc is not None
    return tree, node.exc


def test_a_method_helper_of_the_class_is_read() -> None:
    tree, exc = _raised('''
class Reader:
    def _error(self, msg):
        def inner():
            return ValueError(msg, nested=1)
        return ReadError(msg, line=self.line, _hidden=1)

    def read(self):
        raise self._error("bad")
''')
    assert helper_keywords(tree, exc, ("Reader", "read")) == ("line",)


def test_a_class_call_or_an_unknown_helper_gives_none() -> None:
    tree, exc = _raised('def f():\n    raise ReadError("x", line=1)\n')
    assert helper_keywords(tree, exc, ("f",)) == ()
    tree, exc = _raised('def f():\n    raise elsewhere.make_error("x")\n')
    assert helper_keywords(tree, exc, ("f",)) == ()
