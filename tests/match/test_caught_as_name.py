"""A handler that binds the caught exception to a name of its own choosing and raises the package's class around
it (bigtree 1.5.3, round 15: ``BaseNode.children``'s setter runs a hook a subclass may override, then ``except
Exception as exc_info: ... raise exceptions.TreeError(exc_info) from None``; 14 message events of a hook's own
text answered fuzzily by unrelated sites).  The name ``except ... as NAME`` binds is the caught exception,
whatever it is called: the raise is a handler raising a caught text (``scope.caught_sites``), so a text that no
template explains falls back to such handlers, tied and unconfident."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

EXCEPTIONS = '''
class TreeError(Exception):
    """Generic tree exception"""


class LoopError(TreeError):
    """Error during node creation"""
'''

NODE = '''
from . import exceptions


class BaseNode:
    def __init__(self):
        self.__parent = None
        self.__children = []

    @property
    def parent(self):
        return self.__parent

    @parent.setter
    def parent(self, new_parent):
        if new_parent is self:
            raise exceptions.LoopError("Error setting parent: Node cannot be parent of itself")
        current_parent = self.__parent
        try:
            self.__pre_assign_parent(new_parent)
            self.__parent = new_parent
            new_parent.__children.append(self)
        except Exception as exc_info:
            self.__parent = current_parent
            raise exceptions.TreeError(exc_info) from None

    @property
    def children(self):
        return tuple(self.__children)

    @children.setter
    def children(self, new_children):
        if len(set(map(id, new_children))) != len(new_children):
            raise exceptions.TreeError(f"Duplicate children found in {new_children}")
        current_children = list(self.children)
        try:
            self.__pre_assign_children(new_children)
            self.__children = list(new_children)
        except Exception as exc_info:
            self.__children = current_children
            raise exceptions.TreeError(exc_info) from None

    def __pre_assign_parent(self, new_parent):
        pass

    def __pre_assign_children(self, new_children):
        pass
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "caughtas", "treekit",
                               {"__init__.py": "", "exceptions.py": EXCEPTIONS, "node.py": NODE})


def test_a_hooks_text_falls_back_to_the_handlers_that_bind_it(lib: Catalog) -> None:
    # a subclass's `_BaseNode__pre_assign_children` raised its own text, printed as TreeError's
    r = explain(lib, "Custom error assigning children, new children [BaseNode3(age=65, name=b)]")
    top = r.matches[0]
    group = sorted([top.qualname, *(t.qualname for t in top.tied)])
    assert group == ["BaseNode.children", "BaseNode.parent"]
    assert top.method == "class" and not r.confident and "did not write" in top.tie_note


def test_the_packages_own_text_is_its_sites(lib: Catalog) -> None:
    r = explain(lib, "Error setting parent: Node cannot be parent of itself")
    assert r.matches[0].qualname == "BaseNode.parent" and r.matches[0].method != "class"
