"""A template whose edge placeholder takes text that another exactly verified template explains with
literal text of its own never scores above that template (``match/absorbed.py``): xmlschema 4.3.2's
``invalid value {value} for optional argument {self._name[1:]}`` (``Argument.__str__`` read into a method's
message) took the whole ``'validation': must be one of (...)`` of ``validate_choice``'s messages and
answered them confidently (round 16: eight confident-wrong answers per mode)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

ARGUMENTS = '''
class Argument:
    def __init__(self, name):
        self._name = "_" + name

    def check_value(self, value):
        if not isinstance(value, str):
            raise ValueError(f"invalid value {value!r} for optional argument {self._name[1:]!r}")


def validate_choice(attr, value, choices):
    if value not in choices:
        raise ValueError(f"invalid value {value!r} for {attr}: must be one of {tuple(choices)}")


def need_value(option, required):
    raise KeyError(f"option {option} requires {required}")


def need_key(what, kind, key):
    raise KeyError(f"{what} requires {kind} value for {key}")


def load(path, err):
    raise OSError(f"cannot load {path}: {err}")


def bad_entry(entry):
    raise OSError(f"bad entry {entry!r} in the archive index")
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "absorbed", "alib", {"__init__.py": "", "arguments.py": ARGUMENTS})


def test_a_trailing_placeholder_never_wins_over_a_longer_literal_reading(lib: Catalog) -> None:
    text = "invalid value 'foo' for optional argument 'validation': must be one of ('strict', 'skip', 'lax')"
    r = explain(lib, text)
    top = r.matches[0]
    assert top.qualname == "validate_choice"  # before: Argument.check_value, confident
    assert r.confident and not top.tied
    assert next(m for m in r.matches if m.qualname == "Argument.check_value").score < top.score


def test_the_short_template_still_answers_its_own_message(lib: Catalog) -> None:
    r = explain(lib, "invalid value 3 for optional argument 'validation'")
    assert r.matches[0].qualname == "Argument.check_value" and r.confident


def test_two_templates_each_holding_the_other_s_text_are_level(lib: Catalog) -> None:
    # `option {option} requires {required}` takes `a value for mode`, whose ` value for ` the other explains;
    # `{what} requires {kind} value for {key}` takes `option -f`, whose `option ` the first explains
    r = explain(lib, "option -f requires a value for mode")
    top = r.matches[0]
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"need_value", "need_key"}
    assert not r.confident


def test_a_message_nested_in_a_value_is_no_rival(lib: Catalog) -> None:
    # the wrapper's `{err}` holds another raise's whole message: a wrap, answered as before
    r = explain(lib, "cannot load data.zip: bad entry 'x' in the archive index")
    assert r.matches[0].qualname == "load"
