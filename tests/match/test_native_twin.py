"""A traceback whose innermost library frame is a line that raises nothing (a call into compiled
code) is not the raise of a site nearby in the same file "moved by another version": more-itertools
11.2.1's ``batched`` calls ``itertools.batched`` on Python 3.13, which raises
``n must be at least one`` itself, the very text of the backport ``_batched`` twelve lines above.
The traceback is the one captured from more-itertools' test suite
(``bench/data/more-itertools-11.2.1.jsonl``), its paths shortened."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.frames import may_raise

RECIPES = '''
from itertools import islice
from sys import hexversion


def _batched(iterable, n, *, strict=False):
    """Batch data into tuples of length *n*."""
    if n < 1:
        raise ValueError('n must be at least one')
    iterator = iter(iterable)
    while batch := tuple(islice(iterator, n)):
        if strict and len(batch) != n:
            raise ValueError('batched(): incomplete batch')
        yield batch


if hexversion >= 0x30D00A2:
    from itertools import batched as itertools_batched

    def batched(iterable, n, *, strict=False):
        return itertools_batched(iterable, n, strict=strict)
else:
    batched = _batched


def chunked(iterable, n):
    if n < 1:
        raise ValueError('chunk size must be positive')
    return batched(iterable, n)
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "twin", "moreit", {"__init__.py": "", "recipes.py": RECIPES})


def _traceback(line: int, code: str, message: str = "n must be at least one") -> str:
    return textwrap.dedent(f'''\
        Traceback (most recent call last):
          File "/src/tests/test_recipes.py", line 1212, in test_multidimensional
            list(batched(matrix, 0))
          File "/venv/lib/python3.13/site-packages/moreit/recipes.py", line {line}, in batched
            {code}
        ValueError: {message}
        ''')


def test_a_call_line_is_no_moved_raise(lib: Catalog) -> None:
    r = explain(lib, _traceback(21, "return itertools_batched(iterable, n, strict=strict)"))
    assert r.matches[0].line == 9 and not r.matches[0].confident
    assert r.no_site is not None and r.no_site.origin == "native"


def test_a_raise_line_elsewhere_in_the_file_is_still_a_moved_raise(lib: Catalog) -> None:
    # the same text raised from a line that is a raise in the user's version: lines moved
    text = "chunk size must be positive"
    top = explain(lib, _traceback(31, f"raise ValueError('{text}')", text)).matches[0]
    assert top.qualname == "chunked" and top.confident


@pytest.mark.parametrize(("code", "expected"), [
    ("raise ValueError(msg)", True), ("assert n > 0, 'n must be positive'", True), ("if n < 1: raise ValueError(m)", True),
    ("warnings.warn(msg, DeprecationWarning)", True), ("", True),
    ("return itertools_batched(iterable, n, strict=strict)", False), ("return getattr(obj, attribute)", False),
])
def test_may_raise(code: str, expected: bool) -> None:
    assert may_raise(code) is expected


def test_the_backports_text_alone_is_no_confident_answer(lib: Catalog) -> None:
    """On the Pythons where `hexversion >= 0x30D00A2`, `itertools.batched` raises the text itself."""
    for text in ("n must be at least one", "ValueError: n must be at least one"):
        r = explain(lib, text)
        assert r.matches[0].qualname == "_batched" and not r.confident, text


def test_a_traceback_into_the_backport_decides(lib: Catalog) -> None:
    r = explain(lib, _traceback(9, "raise ValueError('n must be at least one')").replace(
        "in batched", "in _batched"))
    assert r.matches[0].pinned_by_frame and r.confident
