"""A class raised from many places with text a caller wrote: the class fallback's group is narrowed
by what the sites share with the input; a printed list or dict of messages names the sites that
collect errors; a general template ties with a more literal one that prints the same text.

The library is small and written for the test, in the shapes of real ones (validators with an
``error=`` override, fields collecting their items' errors, a parser raising one class with a
character it read or with a fixed one); the inputs are real texts captured from libraries' own
test suites (``bench/data/marshmallow-4.4.0.jsonl``, ``tomlkit-0.15.3.jsonl``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.model import Match
from errdex.match.scope import GROUP_LIMIT

_DEFAULTS = {
    "Email": "Not a valid email address.",
    "Url": "Not a valid URL.",
    "Length": "Length must be between {lo} and {hi}.",
    "Regexp": "String does not match expected pattern.",
    "Predicate": "Invalid input.",
    "NoneOf": "Invalid input.",
    "OneOf": "Must be one of: {choices}.",
    "Equal": "Must be equal to {other}.",
    "Range": "Must be greater than or equal to {lo}.",
    "ContainsOnly": "One or more of the choices you made was not in: {choices}.",
    "Date": "Not a valid date.",
    "Uuid": "Not a valid UUID.",
}


def _validator(name: str, default: str) -> str:
    return f'''
class {name}:
    default_message = {default!r}

    def __init__(self, error=None):
        self.error = error or self.default_message

    def __call__(self, value):
        if not value:
            raise ValidError(self.error)
        return value
'''


DELTA = '''
class ValidError(Exception):
    """A value failed validation."""


class CharError(ValueError):
    """A character the parser did not expect."""


def field_string(value):
    if not isinstance(value, str):
        raise ValidError("Not a valid string.")
    return value


def field_datetime(value):
    raise ValidError("Not a valid datetime.")


def load_list(items, check):
    errors = {}
    for i, item in enumerate(items):
        try:
            check(item)
        except ValidError as e:
            errors[i] = [str(e)]
    if errors:
        raise ValidError(errors)


def load_mapping(items, check):
    errors = {}
    for key, item in items.items():
        try:
            check(item)
        except ValidError as e:
            errors[key] = {"value": [str(e)]}
    if errors:
        raise ValidError(errors)


def parse_table(line, col, char):
    raise CharError(f"Unexpected character: {char!r} at line {line} col {col}")


def parse_key_value(line, col):
    raise CharError(f"Unexpected character: '=' at line {line} col {col}")
''' + "".join(_validator(n, d) for n, d in _DEFAULTS.items())


@pytest.fixture(scope="module")
def delta(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "group", "delta", {"__init__.py": DELTA})


def _group(m: Match) -> set[str]:
    return {m.qualname, *(t.qualname for t in m.tied)}


def test_a_large_group_is_narrowed_to_the_sites_sharing_words_with_the_text(delta: Catalog) -> None:
    top = explain(delta, "delta.ValidError: invalid is not an email addy.").matches[0]
    assert top.method == "class" and not top.confident
    assert "Email.__call__" in _group(top) and top.tied_count + 1 <= GROUP_LIMIT
    assert "of 14 that raise it" in top.tie_note  # the 12 validators and the 2 collecting sites
    choices = explain(delta, "delta.ValidError: One or more of the choices you made was not in: 1, 2, 3.").matches[0]
    assert "ContainsOnly.__call__" in _group(choices) and choices.tied_count + 1 <= GROUP_LIMIT


def test_text_sharing_nothing_with_any_site_keeps_the_whole_group(delta: Catalog) -> None:
    top = explain(delta, "delta.ValidError: <zzz>").matches[0]
    assert top.method == "class" and top.tied_count + 1 == 14 and "of 14" not in top.tie_note


def test_a_printed_dict_of_messages_names_the_collecting_sites(delta: Catalog) -> None:
    top = explain(delta, "delta.ValidError: {0: ['Not a valid datetime.']}").matches[0]
    assert top.method == "class" and not top.confident
    assert _group(top) == {"load_list", "load_mapping"}
    # the message alone: its elements are the library's messages of that class
    alone = explain(delta, "defaultdict(<class 'dict'>, {1: {'value': ['Not a valid string.']}})")
    assert alone.matches[0].method == "class" and not alone.confident
    assert _group(alone.matches[0]) == {"load_list", "load_mapping"}


def test_a_general_template_ties_with_a_more_literal_one(delta: Catalog) -> None:
    for text in ("delta.CharError: Unexpected character: '=' at line 1 col 5",
                 "Unexpected character: '=' at line 2 col 5"):
        r = explain(delta, text)
        assert not r.confident and _group(r.matches[0]) == {"parse_table", "parse_key_value"}
    other = explain(delta, "delta.CharError: Unexpected character: 'b' at line 2 col 0")
    assert other.confident and other.matches[0].qualname == "parse_table" and not other.matches[0].tied
