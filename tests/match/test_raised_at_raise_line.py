"""A traceback whose innermost library frame is a raise line but whose class is another one than that
site raises: Python raised it while the line ran (inflect 7.6.0's ``raise NameError(f"name '{obj.id}'
is not defined")`` printing ``AttributeError: 'UnaryOp' object has no attribute 'id'``). The frame
names the place: the site is the answer, never a confident one (its text is not what was printed)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

ENGINE = '''
import ast


class Engine:
    def value_of(self, obj):
        if isinstance(obj, ast.Constant):
            return obj.value
        raise NameError(f"name '{obj.id}' is not defined")

    def pivot(self, words):
        if "+" not in words:
            raise ValueError("No pivot found")
        return words.index("+")


class RedefinitionError(ValueError):
    def __init__(self, name, definition_type):
        self.name = name
        self.definition_type = definition_type

    def __str__(self):
        return f"Cannot redefine '{self.name}' ({self.definition_type})"


def define(table, key, value):
    if key in table:
        raise RedefinitionError(key, type(value))
    table[key] = value
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "atline", "wordy", {"__init__.py": "", "engine.py": ENGINE})


TRACEBACK = textwrap.dedent('''\
    Traceback (most recent call last):
      File "/src/tests/test_engine.py", line 12, in test_value
        e.value_of(node)
      File "/venv/lib/python3.13/site-packages/wordy/engine.py", line 9, in value_of
        raise NameError(f"name '{obj.id}' is not defined")
                                 ^^^^^^
    AttributeError: 'UnaryOp' object has no attribute 'id'
    ''')


def test_the_raise_line_is_the_place_not_a_confident_answer(lib: Catalog) -> None:
    r = explain(lib, TRACEBACK)
    top = r.matches[0]
    assert (top.qualname, top.line) == ("Engine.value_of", 9)
    assert top.pinned_by_frame and not top.confident


def test_a_printed_class_placeholder_holds_a_class(lib: Catalog) -> None:
    """`{type(value)}` prints `<class 'str'>`: a test raising the class with `"bar"` there is no raise of it."""
    assert explain(lib, "wordy.engine.RedefinitionError: Cannot redefine 'foo' (<class 'str'>)").confident
    assert not explain(lib, "wordy.engine.RedefinitionError: Cannot redefine 'foo' (bar)").confident
