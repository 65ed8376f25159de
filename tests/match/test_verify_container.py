"""``verify.container_repr`` / ``element_of``: the repr of a list or dict of messages."""

from __future__ import annotations

import pytest

from errdex.match.verify import container_repr, element_of, reprs_plausible


@pytest.mark.parametrize(("text", "expected"), [
    ("['Not a valid URL.']", True),
    ("{'_schema': ['Fail']}", True),
    ("{0: ['Field may not be null.']}", True),
    ("defaultdict(<class 'dict'>, {1: {'key': ['Not a valid string.']}})", True),
    ("('a', 'b')", True),
    ("[1, 2, 3]", False),  # no text in it
    ("Not a valid URL.", False),
    ("[dependency-groups] data was invalid (1 sub-exception)", False),
    ("{'a': 1", False),
    # a class name in brackets first and a link in brackets last: not one container
    ("(sqlalchemy.exc.InvalidRequestError) A value is required for 'x' (Background on this error at: "
     "https://sqlalche.me/e/21/cd3x)", False),
    ("['a'] and ['b']", False),
])
def test_container_repr(text: str, expected: bool) -> None:
    assert container_repr(text) is expected


def test_element_of() -> None:
    segs = ((True, "Not a valid string."),)
    assert element_of(segs, "{1: ['Not a valid string.']}")
    assert not element_of(segs, "Not a valid string.")
    assert not element_of(((False, "errors"),), "{1: ['Not a valid string.']}")  # a lone placeholder holds it all


def test_reprs_plausible() -> None:
    assert reprs_plausible([("{name!r}", "'f'"), ("{x}", "'f' found")])
    assert not reprs_plausible([("{name!r}", "'f' found")])
    assert reprs_plausible([("{obj!r}", "<Foo object at 0x1>")])


def test_a_printed_class_is_a_class_repr() -> None:
    # pint 0.26.2's `RedefinitionError(key, type(value))`: `Cannot redefine 'foo' (<class 'str'>)`
    assert reprs_plausible([("{type(value)}", "<class 'str'>")])
    assert reprs_plausible([("{self.__class__}", "<class 'pint.Unit'>")])
    assert not reprs_plausible([("{type(value)}", "bar")])
