"""An error that prints the texts of the errors it collected (typeguard 4.6.1's union check:
``{path} did not match any element in the union:\\n{formatted_errors}``, raised at three sites; four here,
so that their twin templates alone fill the pool ``wrap.find_wraps`` compares) is the
raise; the collected errors' own texts inside it are not, however many sites raise its template.
Its ``__str__`` puts the path its callers append before its argument (``str(self.args[0])``).
The inputs are texts captured from typeguard's test suite (``bench/data/typeguard-4.6.1.jsonl``); the
library is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

CHECKERS = '''
from collections import deque
from textwrap import indent


class TypeCheckError(Exception):
    def __init__(self, message):
        super().__init__(message)
        self._path = deque()

    def append_path_element(self, element):
        self._path.append(element)

    def __str__(self):
        if self._path:
            return " of ".join(self._path) + " " + str(self.args[0])
        else:
            return str(self.args[0])


def check_instance(value, origin_type):
    if not isinstance(value, origin_type):
        raise TypeCheckError(f"is not an instance of {origin_type.__qualname__}")


def check_list(value):
    if not isinstance(value, list):
        raise TypeCheckError("is not a list")


def check_literal(value, args):
    if value not in args:
        formatted_args = ", ".join(repr(arg) for arg in args)
        raise TypeCheckError(f"is not any of ({formatted_args})")


def _collect(value, args, check):
    errors = {}
    for type_ in args:
        try:
            check(value, type_)
            return None
        except TypeCheckError as exc:
            errors[str(type_)] = exc
    return indent("\\n".join(f"{key}: {error}" for key, error in errors.items()), "  ")


def check_union(value, args, check):
    formatted_errors = _collect(value, args, check)
    if formatted_errors is not None:
        raise TypeCheckError(f"did not match any element in the union:\\n{formatted_errors}")


def check_uniontype(value, args, check):
    formatted_errors = _collect(value, args, check)
    if formatted_errors is not None:
        raise TypeCheckError(f"did not match any element in the union:\\n{formatted_errors}")


def check_optional(value, args, check):
    formatted_errors = _collect(value, args, check)
    if formatted_errors is not None:
        raise TypeCheckError(f"did not match any element in the union:\\n{formatted_errors}")


def check_typevar(value, args, check):
    formatted_errors = _collect(value, args, check)
    if formatted_errors is not None:
        raise TypeCheckError(f"did not match any element in the union:\\n{formatted_errors}")
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "collected", "tguard", {"__init__.py": "", "checkers.py": CHECKERS})


UNION = ("int did not match any element in the union:\n  str: is not an instance of str\n"
         "  Literal[1, 6, 8]: is not any of (1, 6, 8)")


@pytest.mark.parametrize("text", [UNION, f"tguard.checkers.TypeCheckError: {UNION}"])
def test_the_collecting_error_is_the_raise_not_a_collected_text(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    top = r.matches[0]
    group = {top.qualname, *(t.qualname for t in top.tied)}
    assert group == {"check_union", "check_uniontype", "check_optional", "check_typevar"}
    assert not r.confident  # four sites raise that text
    literal = next((m for m in r.matches if m.qualname == "check_literal"), None)
    assert literal is None or literal.score < top.score  # it is what the raise collected: below it


def test_the_path_before_the_raised_text(lib: Catalog) -> None:
    r = explain(lib, "tguard.checkers.TypeCheckError: value of key 'a' of dict is not a list")
    assert r.matches[0].qualname == "check_list" and r.confident
