"""Text that is not the library's own is no confident answer (``rank.own_letters``, ``rank._runs_on``):

- a template whose literal text is punctuation (glom 25.12.0's ``PathAccessError(e, Path(_t), i // 2)``,
  printed as its args tuple, ``({e}, '{Path(_t)}', {i // 2})``) or Python's own ` (N sub-exceptions)`
  after an exception group's empty message (trio 0.35.0's ``raise BaseExceptionGroup("", errs)``);
- a short text found after words that run into it (dnspython 2.8.0's ``too big`` inside
  ``The DNS message is too big.``, the docstring of its ``TooBig``; ``too long`` in ``string too long``).

The texts are captured from those libraries' test suites (``bench/data/*.jsonl``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.rank import own_letters

CORE = '''
class PathAccessError(Exception):
    def __init__(self, exc, path, part_idx):
        self.exc = exc
        self.path = path
        self.part_idx = part_idx


def access(target, path):
    for i, key in enumerate(path):
        try:
            target = target[key]
        except (KeyError, TypeError) as e:
            raise PathAccessError(e, path, i // 2)
    return target


def random_between(first, last):
    size = last - first + 1
    if size > 4294967296:
        raise ValueError("too big")
    return first


def close_all(sockets):
    errs = []
    for sock in sockets:
        try:
            sock.close()
        except BaseException as exc:
            errs.append(exc)
    if errs:
        raise BaseExceptionGroup("", errs)
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "owntext", "ownlib", {"__init__.py": "", "core.py": CORE})


def test_punctuation_or_pythons_group_suffix_is_no_confident_answer(lib: Catalog) -> None:
    assert not explain(lib, "(KeyError('comets'), ['system', 'comets'], 0)").confident
    assert not explain(lib, "my group (1 sub-exception)").confident
    assert not explain(lib, " (2 sub-exceptions)").confident


def test_a_short_text_continuing_someone_elses_sentence_is_no_confident_answer(lib: Catalog) -> None:
    r = explain(lib, "The DNS message is too big.")
    assert r.matches[0].qualname == "random_between" and not r.confident
    assert not explain(lib, "string too big").confident


def test_the_text_alone_or_behind_a_tag_is_confident(lib: Catalog) -> None:
    assert explain(lib, "too big").confident
    assert explain(lib, "[rng] too big").confident
    assert explain(lib, "ValueError: too big").confident


def test_own_letters_counts_letters_and_digits_without_the_group_suffix() -> None:
    assert own_letters(((True, "("), (False, "e"), (True, ", '"), (False, "p"), (True, "')"))) == 0
    assert own_letters(((True, "("), (False, "len(excs)"), (True, " sub-exceptions)"))) == 0
    assert own_letters(((True, "bad group ("), (False, "len(excs)"), (True, " sub-exception)"))) == 8
    assert own_letters(((True, "too big"),)) == 6
