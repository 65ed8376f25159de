"""An exception object handed to a setter and raised later (grpclib 0.4.9, issue 17's ninety-second round).

``Wrapper.cancel(self, error)`` keeps the object and ``__enter__`` / ``__exit__`` raise it; the deadline's callback
hands it ``asyncio.TimeoutError('Deadline exceeded')`` built on the spot, while ``start`` also raises that text
itself when no time is left.  The captured event's innermost frame is ``__exit__``'s raise: with no frames the
text cannot tell the three raises apart, so the answer is their group, never confident; a traceback decides."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from deadlineshape import UTILS
from errdex.catalog.base import Catalog
from errdex.match import explain

TRACEBACK = '''Traceback (most recent call last):
  File "/site-packages/grpcish/utils.py", line 23, in __exit__
    raise self._error
TimeoutError: Deadline exceeded'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "setter", "grpcish", {"__init__.py": "", "utils.py": UTILS})


@pytest.mark.parametrize("text", ["TimeoutError: Deadline exceeded", "asyncio.TimeoutError: Deadline exceeded",
                                  "Deadline exceeded"])
def test_the_handed_text_ties_the_setters_raises_with_the_own_one(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    top = r.matches[0]
    assert not r.confident
    assert {top.qualname, *(t.qualname for t in top.tied)} == {
        "Wrapper.__enter__", "Wrapper.__exit__", "DeadlineWrapper.start"}


def test_a_traceback_names_the_kept_raise(lib: Catalog) -> None:
    r = explain(lib, TRACEBACK)
    assert (r.matches[0].qualname, r.matches[0].line) == ("Wrapper.__exit__", 23)


def test_a_bare_value_stays_the_group_of_value_raises(lib: Catalog) -> None:
    r = explain(lib, "boom")  # `w.cancel(NoNeedToWaitError('boom'))` of a caller outside the package
    assert not r.confident
    assert {r.matches[0].qualname, *(t.qualname for t in r.matches[0].tied)} == {
        "Wrapper.__enter__", "Wrapper.__exit__"}


def test_the_tie_note_counts_no_kept_attribute_as_a_class(lib: Catalog) -> None:
    r = explain(lib, "Deadline exceeded")
    assert r.matches[0].tie_note.startswith("3 places raise this exact message in 1 file and 3 functions")
