"""A fuzzy match whose template's opening words are missing from the text is a lead, never confident.

codext 1.16.5 (round 39) raises `'polybius' codec can't decode character 'B' in position 0` from a helper whose
template the catalog lacked; the nearest template, `'base{n}' codec can't decode character '{c}' in position {i}`
(another codec's raise), lost only its opening `'base` and scored 0.67, confident and wrong in 14 message-only
events.  The fuzzy matches that were right and confident in rounds 28-40 (mesa's `... current time is 10` against
a template ending `current time is 0.0`, yamlpath's, eliot's, galois's) all keep their opening words."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from codecshape import BASE2N
from errdex.catalog.base import Catalog
from errdex.match import explain

SCHEDULE = '''
class Simulator:
    time = 0.0

    def schedule_event(self, at):
        if at < self.time:
            raise ValueError(f"Cannot schedule event in the past. Scheduled time is {at}, but current time is 0.0")
'''


@pytest.fixture(scope="module")
def codecs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "fuzzyhead", "codeclike",
                               {"__init__.py": "", "base2n.py": BASE2N, "sim.py": SCHEDULE})


def test_a_template_missing_its_opening_words_is_not_confident(codecs: Catalog) -> None:
    r = explain(codecs, "'polybius' codec can't decode character 'B' in position 0")
    top = r.matches[0]
    assert top.path.endswith("base2n.py") and top.method == "fuzzy"
    assert not top.confident and not r.confident


def test_a_template_whose_tail_differs_can_still_be_confident(codecs: Catalog) -> None:
    r = explain(codecs, "Cannot schedule event in the past. Scheduled time is 5, but current time is 10")
    top = r.matches[0]
    assert top.path.endswith("sim.py") and top.method == "fuzzy" and top.confident
