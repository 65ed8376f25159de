"""A template's first word found as the tail of a longer word (zigpy 2.4.0, round 36): zigpy's own
``Semaphore released too many times`` verified inside asyncio's ``BoundedSemaphore released too many times``
(raised by the standard library, no site of the package) and answered confidently.  A literal that the
message continues with a letter or digit on its outer side was not found as written (``rank._mid_word``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

DATASTRUCTURES = '''
import asyncio


class PriorityDynamicBoundedSemaphore(asyncio.Semaphore):
    def __init__(self, value=0):
        self._value = value
        self._max_value = value

    def release(self):
        if self._value >= self._max_value:
            raise ValueError("Semaphore released too many times")
        self._value += 1


class Cluster:
    def __init__(self, cluster_id):
        if cluster_id < 0:
            raise ValueError("Unknown cluster")
        self.cluster_id = cluster_id


def check_kind(prefix, counter):
    if counter < 0:
        raise RuntimeError(f"{prefix}Lock acquired with a negative counter")
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "midword", "zigkit",
                               {"__init__.py": "", "datastructures.py": DATASTRUCTURES})


def test_the_template_inside_a_longer_word_is_not_confident(lib: Catalog) -> None:
    r = explain(lib, "ValueError: BoundedSemaphore released too many times")
    assert not r.confident


def test_the_last_word_continued_by_the_message_is_not_confident(lib: Catalog) -> None:
    r = explain(lib, "ValueError: Unknown clusters were given")
    assert not r.confident


@pytest.mark.parametrize(("text", "qualname"), [
    ("ValueError: Semaphore released too many times", "PriorityDynamicBoundedSemaphore.release"),
    ("ValueError: Unknown cluster", "Cluster.__init__"),
    # a placeholder glued to the literal anchors it: the longer word is the placeholder's value and the literal
    ("RuntimeError: ReentrantLock acquired with a negative counter", "check_kind"),
])
def test_the_word_as_written_stays_confident(lib: Catalog, text: str, qualname: str) -> None:
    r = explain(lib, text)
    assert r.matches[0].qualname == qualname and r.confident
