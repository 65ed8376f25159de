"""A class that upper-cases the first letter of the message it is given (beartype 0.23.1's
``_BeartypeUtilExceptionException.__init__``: ``if len(message) >= 2 and message[0].islower(): message =
f'{message[0].upper()}{message[1:]}'``), raised by helpers that start the text with a prefix their callers
usually leave empty (``f'{exception_prefix}type hint {repr(hint)} invalid or unrecognized.'``); captured
texts from its suite: ``Type hint typing.Sized not PEP 585 generic.``).  The template's first literal
is found at the message's start with its first letter upper-cased; the raise of the other text stays out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import index_package, indexed_catalog

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain

ROAR = '''
class BeartypeException(Exception):
    def __init__(self, message, *args):
        if len(message) >= 2 and message[0].islower():
            message = f"{message[0].upper()}{message[1:]}"
        super().__init__(message, *args)


class HintException(BeartypeException):
    pass
'''

HINTS = '''
from bt.roar import HintException


def die_unless_generic(hint, exception_cls=HintException, exception_prefix=""):
    if not isinstance(hint, type):
        raise exception_cls(f"{exception_prefix}type hint {repr(hint)} not PEP 585 generic.")


def die_unless_typevar(hint, exception_cls=HintException, exception_prefix=""):
    if not isinstance(hint, type):
        raise exception_cls(f"{exception_prefix}type hint {repr(hint)} not PEP 484 type variable.")


def die_unless_callable(hint, exception_cls=HintException, exception_prefix=""):
    if not callable(hint):
        raise exception_cls(
            f"{exception_prefix}type hint {repr(hint)} not "
            f"PEP 484 or 585 callable type hint "
            f'(i.e., "typing.Callable[...]" or "collections.abc.Callable[...]").'
        )
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "capital", "bt",
                               {"__init__.py": "", "roar.py": ROAR, "hints.py": HINTS})


@pytest.mark.parametrize("text", [
    "Type hint typing.Sized not PEP 585 generic.",
    "bt.roar.HintException: Type hint typing.Sized not PEP 585 generic.",
])
def test_capitalized_first_letter_matches_exactly(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    assert r.matches and r.matches[0].qualname == "die_unless_generic", [m.qualname for m in r.matches]
    assert r.matches[0].method == "exact"


@pytest.mark.parametrize("text", [
    'Type hint typing.Any not PEP 484 or 585 callable type hint (i.e., "typing.Callable[...]" or '
    '"collections.abc.Callable[...]").',
    'bt.roar.HintException: Type hint typing.Sized not PEP 484 or 585 callable type hint (i.e., '
    '"typing.Callable[...]" or "collections.abc.Callable[...]").',
])
def test_the_capitalized_start_comes_before_the_literal_again_later(lib: Catalog, text: str) -> None:
    # the first literal (`type hint `) is in the text twice: at its start upper-cased, and later as it is
    r = explain(lib, text)
    assert r.matches and r.matches[0].qualname == "die_unless_callable", [m.qualname for m in r.matches]
    assert r.matches[0].method == "exact"


def test_a_lowercase_message_still_needs_its_own_start(lib: Catalog) -> None:
    r = explain(lib, "Type hint typing.Sized not PEP 484 type variable.")
    assert r.matches and r.matches[0].qualname == "die_unless_typevar"


def test_a_template_starting_with_its_own_lowercase_text_is_not_capitalized(tmp_path_factory: pytest.TempPathFactory) -> None:
    """oauthlib's ``ValueError("port out of range")`` is not CPython's ``Port out of range 0-65535``."""
    root = tmp_path_factory.mktemp("lower")
    db = str(root / "c.sqlite")
    index_package(root, "sig", {"__init__.py": "", "sig.py": (
        "def port(p):\n    if not 0 < p < 65536:\n        raise ValueError('port out of range')\n")}, db)
    catalog = open_catalog(db)
    try:
        r = explain(catalog, "ValueError: Port out of range 0-65535")
        assert not (r.matches and r.matches[0].method == "exact" and r.matches[0].confident)
    finally:
        catalog.close()
