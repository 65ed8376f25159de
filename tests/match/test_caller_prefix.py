"""A library's message with a sentence of someone else's before it (a test's
``self.fail(f"{msg}: {e}")``, a caller's ``raise RuntimeError(f"while loading: {e}")``) was not raised
by the library's site as it reads: the site is still the top match (it raised the text at the end),
but not a confident one.  The text is a real one captured from pyparsing 3.3.3's test suite
(``bench/data/pyparsing-3.3.3.jsonl``), an ``AssertionError`` of the test around pyparsing's warning."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

CORE = '''
import warnings


class PyparsingDiagnosticWarning(UserWarning):
    """A diagnostic about a grammar."""


class Forward:
    def __init__(self):
        self.expr = None

    def parse_impl(self, instring, loc):
        if self.expr is None:
            warnings.warn(
                "warn_on_parse_using_empty_Forward: Forward expression was never assigned a value, "
                "will not parse any input",
                PyparsingDiagnosticWarning,
            )
        return loc
'''

TEXT = ("warn_on_parse_using_empty_Forward: Forward expression was never assigned a value, "
        "will not parse any input")


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "prefix", "pyp", {"__init__.py": "", "core.py": CORE})


def test_someone_elses_sentence_before_the_text_is_no_confident_answer(lib: Catalog) -> None:
    r = explain(lib, f"warned when parsing with an empty Forward expression warning was suppressed: {TEXT}")
    assert r.matches[0].qualname == "Forward.parse_impl" and r.matches[0].method == "exact"
    assert not r.confident


def test_the_text_alone_or_behind_a_short_tag_is_confident(lib: Catalog) -> None:
    assert explain(lib, TEXT).confident
    assert explain(lib, f"Error: {TEXT}").confident
